#include "check/report.hpp"

#include "core/json.hpp"

#include <cstdio>
#include <ctime>

namespace kverify {

void CheckReport::print_tables() const {
  if (!boundary.empty()) {
    // worst ulp: largest ULP distance in the output dtype; margin: largest |error| / bound (1 is
    // the limit); baseline: largest share of the baseline rule's allowance (1 is the limit).
    std::printf("%-6s %-30s %-5s %6s %6s %6s %10s %8s %9s\n", "", "boundary cases: op/variant", "dtype", "cases",
                "pass", "fail", "worst ulp", "margin", "baseline");
    for (const auto& r : boundary)
      std::printf("%-6s %-30s %-5s %6d %6d %6d %10.3g %8.3g %9.3g\n", r.backend.c_str(), r.variant.c_str(),
                  r.dtype.c_str(), r.cases, r.passed, r.cases - r.passed, r.worst_ulp, r.worst_margin,
                  r.worst_baseline);
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

std::string CheckReport::json() const {
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  Json j = {{"date", date}, {"seconds", json_number(seconds)}};
  Json& rows = j["boundary_cases"] = Json::array();
  for (const auto& r : boundary)
    rows.push_back({{"backend", r.backend},
                    {"variant", r.variant},
                    {"dtype", r.dtype},
                    {"cases", r.cases},
                    {"passed", r.passed},
                    {"worst_ulp", json_number(r.worst_ulp)},
                    {"worst_margin", json_number(r.worst_margin)},
                    {"worst_baseline_share", json_number(r.worst_baseline)}});
  Json& props = j["properties"] = Json::array();
  for (const auto& r : properties)
    props.push_back({{"backend", r.backend},
                     {"property", r.property},
                     {"variant", r.variant},
                     {"cases", r.cases},
                     {"passed", r.passed},
                     {"worst_margin", json_number(r.worst_margin)},
                     {"ok", r.ok}});
  Json& fails = j["failures"] = Json::array();
  for (const auto& f : failures)
    fails.push_back({{"backend", f.backend}, {"what", f.what}, {"message", f.message}, {"replay", f.replay}});
  j["not_run"] = not_run;
  j["skipped"] = skipped;
  return json_text(j);
}

}  // namespace kverify
