#include "check/report.hpp"
#include "core/json_text.hpp"

#include <cstdio>
#include <ctime>
#include <fstream>

namespace kverify {
namespace {

std::string json_number(double v) {
  if (v != v || v > 1e308 || v < -1e308) return "null";  // NaN and inf have no JSON form
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

void CheckReport::print_tables() const {
  if (!boundary.empty()) {
    // worst ulp: largest ULP distance in the output dtype; margin: largest |error| / bound (1 is
    // the limit); baseline: largest share of the baseline rule's allowance (1 is the limit).
    std::printf("%-6s %-30s %-5s %6s %6s %6s %10s %8s %9s\n", "", "boundary cases: op/variant", "dtype", "cases",
                "pass", "fail", "worst ulp", "margin", "baseline");
    for (const auto& r : boundary)
      std::printf("%-6s %-30s %-5s %6d %6d %6d %10.3g %8.3g %9.3g\n", r.backend.c_str(), r.variant.c_str(),
                  r.dtype.c_str(), r.cases, r.passed, r.cases - r.passed, r.worst_ulp, r.worst_margin, r.worst_baseline);
  }
  if (!properties.empty()) {
    std::printf("%-6s %-42s %-16s %7s %7s %8s\n", "", "property", "variant", "cases", "pass", "margin");
    for (const auto& r : properties)
      std::printf("%-6s %-42s %-16s %7ld %7ld %8.3g%s\n", r.backend.c_str(), r.property.c_str(), r.variant.c_str(),
                  r.cases, r.passed, r.worst_margin, r.ok ? "" : "  FAILED");
  }
  for (const auto& n : not_run) std::printf("NOT RUN  %s\n", n.c_str());
  for (const auto& s : skipped) std::printf("SKIPPED  %s\n", s.c_str());
}

bool CheckReport::write_json(const std::string& path, std::string* error) const {
  std::ofstream out(path);
  if (!out) {
    if (error) *error = "cannot open the file for writing";
    return false;
  }
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  out << "{\n  \"date\": " << json_quote(date) << ",\n  \"seconds\": " << json_number(seconds) << ",\n";
  out << "  \"boundary_cases\": [";
  for (std::size_t i = 0; i < boundary.size(); ++i) {
    const auto& r = boundary[i];
    out << (i ? ",\n    " : "\n    ") << "{\"backend\": " << json_quote(r.backend) << ", \"variant\": "
        << json_quote(r.variant) << ", \"dtype\": " << json_quote(r.dtype) << ", \"cases\": " << r.cases
        << ", \"passed\": " << r.passed << ", \"worst_ulp\": " << json_number(r.worst_ulp)
        << ", \"worst_margin\": " << json_number(r.worst_margin) << ", \"worst_baseline_share\": "
        << json_number(r.worst_baseline) << "}";
  }
  out << "\n  ],\n  \"properties\": [";
  for (std::size_t i = 0; i < properties.size(); ++i) {
    const auto& r = properties[i];
    out << (i ? ",\n    " : "\n    ") << "{\"backend\": " << json_quote(r.backend) << ", \"property\": "
        << json_quote(r.property) << ", \"variant\": " << json_quote(r.variant) << ", \"cases\": " << r.cases
        << ", \"passed\": " << r.passed << ", \"worst_margin\": " << json_number(r.worst_margin)
        << ", \"ok\": " << (r.ok ? "true" : "false") << "}";
  }
  out << "\n  ],\n  \"failures\": [";
  for (std::size_t i = 0; i < failures.size(); ++i) {
    const auto& f = failures[i];
    out << (i ? ",\n    " : "\n    ") << "{\"backend\": " << json_quote(f.backend) << ", \"what\": "
        << json_quote(f.what) << ", \"message\": " << json_quote(f.message) << ", \"replay\": "
        << json_quote(f.replay) << "}";
  }
  out << "\n  ],\n  \"not_run\": [";
  for (std::size_t i = 0; i < not_run.size(); ++i) out << (i ? ", " : "") << json_quote(not_run[i]);
  out << "],\n  \"skipped\": [";
  for (std::size_t i = 0; i < skipped.size(); ++i) out << (i ? ", " : "") << json_quote(skipped[i]);
  out << "]\n}\n";
  if (!out) {
    if (error) *error = "write failed";
    return false;
  }
  return true;
}

}  // namespace kverify
