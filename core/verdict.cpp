#include "core/verdict.hpp"

#include <cmath>
#include <cstdio>
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

std::string format(const Verdict& v) {
  std::ostringstream out;
  out << name(v.outcome) << "  " << v.subject;
  if (!v.reason.empty()) out << "\n  " << (v.outcome == Outcome::skipped ? "not run: " : "why: ") << v.reason;
  if (v.outcome != Outcome::skipped && v.stats.checked > 0) {
    const auto& s = v.stats;
    out << "\n  elements: " << s.checked << " checked, " << s.failed << " outside tolerance";
    if (s.failed_rows > 0) out << " in " << s.failed_rows << " row(s)";
    out << "\n  max abs error " << num(s.max_abs) << ", max rel error " << num(s.max_rel) << ", max ulp error "
        << num(s.max_ulp);
    if (s.worst_row >= 0) out << " at (" << s.worst_row << "," << s.worst_col << ")";
    if (s.nan_outputs + s.inf_outputs > 0)
      out << "\n  non-finite outputs: " << s.nan_outputs << " NaN, " << s.inf_outputs << " inf";
    if (s.max_row_sum_deviation >= 0) out << "\n  max |row sum - 1| " << num(s.max_row_sum_deviation);
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
    out << "\n  first mismatches (tensor(row,col): got vs expected, abs error, ulp distance):";
    for (const auto& m : v.first_mismatches) {
      out << "\n    " << m.tensor << "(" << m.row << "," << m.col << "): " << num(m.got) << " vs " << num(m.expected)
          << ", " << num(m.abs_error) << ", " << num(m.ulp_error);
      if (m.got_class != m.expected_class) out << "  [" << m.got_class << " where " << m.expected_class << " expected]";
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
