#include "core/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace kverify {
namespace {

std::string num(double v) {
  if (std::isnan(v)) return "NaN";  // printf's "-nan" says a sign bit no one asked about
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

void merge_into(ErrorStats& into, const ErrorStats& s, std::int64_t row_offset) {
  into.checked += s.checked;
  into.failed += s.failed;
  into.noted += s.noted;
  into.failed_rows += s.failed_rows;
  into.max_abs = std::max(into.max_abs, s.max_abs);
  into.max_rel = std::max(into.max_rel, s.max_rel);
  if (s.worst_row >= 0 && (s.max_ulp > into.max_ulp || into.worst_row < 0)) {
    into.max_ulp = s.max_ulp;
    into.worst_row = s.worst_row + row_offset;
    into.worst_col = s.worst_col;
  }
  into.worst_margin = std::max(into.worst_margin, s.worst_margin);
  into.nan_outputs += s.nan_outputs;
  into.inf_outputs += s.inf_outputs;
  into.max_row_sum_deviation = std::max(into.max_row_sum_deviation, s.max_row_sum_deviation);
  into.baseline_kernel_ulps = std::max(into.baseline_kernel_ulps, s.baseline_kernel_ulps);
  into.baseline_eager_ulps = std::max(into.baseline_eager_ulps, s.baseline_eager_ulps);
}

std::string_view name(Outcome o) {
  switch (o) {
    case Outcome::pass:
      return "PASS";
    case Outcome::fail:
      return "FAIL";
    case Outcome::skipped:
      return "SKIPPED";
  }
  return "?";
}

std::string outcome_text(const Verdict& v) {
  return v.outcome == Outcome::pass && !v.accuracy_note.empty() ? "PASS (accuracy note)" : std::string(name(v.outcome));
}

namespace {
int& strict_setting() {
  static int strict = [] {
    const char* v = std::getenv("KVERIFY_STRICT");
    return v && std::string_view(v) == "1" ? 1 : 0;
  }();
  return strict;
}
}  // namespace

bool strict_verdicts() { return strict_setting() == 1; }

void set_strict_verdicts(bool strict) {
  strict_setting() = strict ? 1 : 0;
  ::setenv("KVERIFY_STRICT", strict ? "1" : "0", 1);
}

std::string format(const Verdict& v) {
  std::ostringstream out;
  out << outcome_text(v) << "  " << v.subject;
  if (!v.reason.empty()) out << "\n  " << (v.outcome == Outcome::skipped ? "not run: " : "why: ") << v.reason;
  if (!v.accuracy_note.empty() && v.outcome == Outcome::pass)
    out << "\n  accuracy note: " << v.accuracy_note << " (a FAIL under --strict)";
  if (v.outcome != Outcome::skipped && v.stats.checked > 0) {
    const auto& s = v.stats;
    out << "\n  elements: " << s.checked << " checked, " << s.failed << " outside tolerance";
    if (s.failed_rows > 0) out << " in " << s.failed_rows << " row(s)";
    if (s.noted > 0) out << ", " << s.noted << " outside the derived bound within the framework formula's";
    out << "\n  max abs error " << num(s.max_abs) << ", max rel error " << num(s.max_rel) << ", max ulp error "
        << num(s.max_ulp);
    if (s.worst_row >= 0) out << " at (" << s.worst_row << "," << s.worst_col << ")";
    if (s.nan_outputs + s.inf_outputs > 0)
      out << "\n  non-finite outputs: " << s.nan_outputs << " NaN, " << s.inf_outputs << " inf";
    if (s.max_row_sum_deviation >= 0) out << "\n  max |row sum - 1| " << num(s.max_row_sum_deviation);
    for (const auto& o : v.outputs)
      out << "\n  " << o.tensor << ": " << o.stats.checked << " checked, " << o.stats.failed
          << " outside tolerance, max abs error " << num(o.stats.max_abs) << ", max ulp error " << num(o.stats.max_ulp)
          << (o.stats.worst_margin >= 0 ? ", margin " + num(o.stats.worst_margin) : std::string());
  }
  if (!v.tolerance.empty()) out << "\n  tolerance: " << v.tolerance;
  if (!v.hint.empty()) out << "\n  hint: " << v.hint;
  if (v.outcome != Outcome::skipped && v.stats.worst_margin >= 0)
    out << "\n  margin: the worst element used " << num(v.stats.worst_margin) << " of its bound";
  if (v.outcome != Outcome::skipped && v.stats.baseline_kernel_ulps >= 0)
    out << "\n  baseline rule: max error " << num(v.stats.baseline_kernel_ulps) << " units vs the eager composition's "
        << num(v.stats.baseline_eager_ulps) << " (limit: 2x + 2, in the policy's error unit)";
  if (!v.failed_rows.empty()) {
    out << "\n  failed rows:";
    for (auto r : v.failed_rows) out << " " << r;
    if (v.stats.failed_rows > static_cast<std::int64_t>(v.failed_rows.size())) out << " ...";
  }
  if (!v.first_mismatches.empty()) {
    out << "\n  first mismatches (tensor(indices): got vs expected, abs error, ulp distance):";
    for (const auto& m : v.first_mismatches) {
      out << "\n    " << m.tensor
          << (m.index.empty() ? "(" + std::to_string(m.row) + "," + std::to_string(m.col) + ")" : m.index) << ": "
          << num(m.got) << " vs " << num(m.expected) << ", " << num(m.abs_error) << ", " << num(m.ulp_error);
      if (m.got_class != m.expected_class) out << "  [" << m.got_class << " where " << m.expected_class << " expected]";
      if (m.noted) out << "  [within the framework formula's bound]";
    }
  }
  if (!v.guards.empty()) {
    out << "\n  guards violated:";
    for (const auto& g : v.guards)
      out << "\n    [" << g.guard << "]" << (g.tensor.empty() ? "" : " " + g.tensor) << ": " << g.detail;
  }
  if (!v.checks_passed.empty()) {
    out << "\n  held:";
    for (const auto& c : v.checks_passed) out << " " << c << ";";
  }
  out << "\n  reproduce: ./kverify run '" << v.reproduce << "'";
  return out.str();
}

}  // namespace kverify
