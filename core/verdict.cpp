#include "core/verdict.hpp"

#include <cstdio>
#include <sstream>

namespace kverify {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string_view name(Outcome o) {
  switch (o) {
    case Outcome::pass: return "PASS";
    case Outcome::fail: return "FAIL";
    case Outcome::skipped: return "SKIPPED";
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
    if (s.max_row_sum_deviation >= 0) out << "\n  max |row sum - 1| " << num(s.max_row_sum_deviation);
  }
  if (!v.tolerance.empty()) out << "\n  tolerance: " << v.tolerance;
  if (!v.failed_rows.empty()) {
    out << "\n  failed rows:";
    for (auto r : v.failed_rows) out << " " << r;
    if (v.stats.failed_rows > static_cast<std::int64_t>(v.failed_rows.size())) out << " ...";
  }
  if (!v.first_mismatches.empty()) {
    out << "\n  first mismatches (tensor(row,col): got vs expected, abs error, ulp error):";
    for (const auto& m : v.first_mismatches)
      out << "\n    " << m.tensor << "(" << m.row << "," << m.col << "): " << num(m.got) << " vs " << num(m.expected)
          << ", " << num(m.abs_error) << ", " << num(m.ulp_error);
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
