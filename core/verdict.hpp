// The Verdict: what one Case's check found. Failed rows and violated guards are listed, never
// averaged away; the reproduce line is the resolved Case (variant and backend pinned).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kverify {

enum class Outcome : std::uint8_t { pass, fail, skipped };

struct Mismatch {
  std::string tensor;
  std::int64_t row = 0, col = 0;  // logical row and column (core/layout.hpp)
  std::string index;              // the element's indices, "(i,j,k)"; empty: (row,col)
  double got = 0, expected = 0;
  double abs_error = 0, ulp_error = 0;
  std::string got_class, expected_class;  // zero, subnormal, normal, inf, NaN
  bool noted = false;  // outside the derived bound, within the framework formula's (Tolerance::framework_bound)
};

// A guard that did not hold: canary overwritten, input modified, output unwritten, run-to-run
// difference, a launch/emulation error, or a data race the emu detector saw.
struct GuardViolation {
  std::string guard;   // "canary", "input-modified", "unwritten", "nondeterministic", "launch", "race",
                       // "out-of-bounds read", "out-of-bounds write"
  std::string tensor;  // may be empty for launch errors
  std::string detail;  // where and what
};

struct ErrorStats {
  std::int64_t checked = 0;
  std::int64_t failed = 0;
  std::int64_t noted = 0;  // outside the derived bound, within the framework formula's: not failed
  std::int64_t failed_rows = 0;
  double max_abs = 0, max_rel = 0;
  double max_ulp = 0;                           // ULP distance in the output dtype
  std::int64_t worst_row = -1, worst_col = -1;  // of max_ulp
  double worst_margin = -1;                     // largest |error| / bound; -1: no element had a bound
  std::int64_t nan_outputs = 0, inf_outputs = 0;
  double max_row_sum_deviation = -1;  // ops whose rows sum to one; -1 when not applicable
  // The baseline-relative rule: largest error in output ulps of the kernel and of the eager
  // composition in the same precision (-1: not computed).
  double baseline_kernel_ulps = -1, baseline_eager_ulps = -1;
};

// Folds one output's (or one block of rows') statistics into the whole Case's: counts add, maxima
// and the worst element are kept; `row_offset` moves the block's worst row into the Case's rows.
void merge_into(ErrorStats& into, const ErrorStats& s, std::int64_t row_offset = 0);

// One output tensor's own statistics, for an op with several outputs.
struct OutputStats {
  std::string tensor;
  ErrorStats stats;
  std::string tolerance;
};

struct Verdict {
  Outcome outcome = Outcome::fail;
  std::string reproduce;  // the resolved Case line
  std::string subject;    // "<op>/<variant> <dtype> <shape> on <backend>"
  std::string reason;     // one line: why it failed or was skipped
  std::string tolerance;  // the policy in force, as text
  std::string hint;       // what the failure may come from, when kverify knows (e.g. a fast-math build)
  // Non-empty when elements were outside the derived bound but within the formula eager frameworks
  // compute: a PASS with this note (listed apart by every command), or a FAIL under --strict.
  std::string accuracy_note;
  ErrorStats stats;                        // every output's elements together
  std::vector<OutputStats> outputs;        // each output's, when the op has more than one
  std::vector<Mismatch> first_mismatches;  // at most kMaxListed
  std::vector<std::int64_t> failed_rows;   // at most kMaxListed
  std::vector<GuardViolation> guards;      // at most kMaxListed per guard kind
  std::vector<std::string> checks_passed;  // the guards that held, said explicitly
  double seconds = 0;

  static constexpr std::size_t kMaxListed = 8;
};

std::string_view name(Outcome o);
// "PASS (accuracy note)" for a pass with a note, else name(v.outcome).
std::string outcome_text(const Verdict& v);

// --strict: an accuracy note fails the Case. Read from KVERIFY_STRICT (1 or 0) at first use, so a
// command's child processes judge as it does; set_strict_verdicts sets both.
bool strict_verdicts();
void set_strict_verdicts(bool strict);
// How a Verdict that failed only by --strict begins its reason.
inline constexpr std::string_view kStrictNoteReason = "--strict: an accuracy note fails";
// The Verdict as a person reads it, ending with the reproduce command.
std::string format(const Verdict& v);

}  // namespace kverify
