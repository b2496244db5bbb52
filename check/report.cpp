#include "check/report.hpp"

#include "core/json.hpp"
#include "kernels/registry.hpp"
#include "runtime/emu/detectors/race_detector.hpp"

#include <array>
#include <cstdio>
#include <ctime>
#include <map>
#include <string_view>

namespace kverify {

std::string CheckReport::Failure::reproduced_case() const {
  constexpr std::string_view kMarker = "reproduce: ./kverify run '";
  const auto at = message.rfind(kMarker);
  if (at == std::string::npos) return "";
  const auto begin = at + kMarker.size(), end = message.find('\'', begin);
  return end == std::string::npos ? "" : message.substr(begin, end - begin);
}

void CheckReport::print_tables() const {
  if (!boundary.empty()) {
    // worst ulp: largest ULP distance in the output dtype; margin: largest |error| / bound (1 is
    // the limit); baseline: largest share of the baseline rule's allowance (1 is the limit).
    // noted: of the passes, those with an accuracy note (a FAIL under --strict).
    std::printf("%-6s %-30s %-5s %6s %6s %6s %6s %10s %8s %9s %6s\n", "", "boundary cases: op/variant", "dtype",
                "cases", "pass", "fail", "skip", "worst ulp", "margin", "baseline", "noted");
    for (const auto& r : boundary)
      std::printf("%-6s %-30s %-5s %6d %6d %6d %6d %10.3g %8.3g %9.3g %6d\n", r.backend.c_str(), r.variant.c_str(),
                  r.dtype.c_str(), r.cases, r.passed, r.cases - r.passed, r.skipped, r.worst_ulp, r.worst_margin,
                  r.worst_baseline, r.noted);
    for (const auto& r : boundary)  // never a pass: each skip count with its first reason
      if (r.skipped > 0)
        std::printf("SKIPPED  %s %s %s: %d boundary Case%s, e.g. %s\n", r.backend.c_str(), r.variant.c_str(),
                    r.dtype.c_str(), r.skipped, r.skipped == 1 ? "" : "s", r.skip_reason.c_str());
  }
  if (!properties.empty()) {
    std::printf("%-6s %-42s %-16s %7s %7s %8s %6s\n", "", "property", "variant", "cases", "pass", "margin", "noted");
    for (const auto& r : properties)
      std::printf("%-6s %-42s %-16s %7ld %7ld %8.3g %6ld%s\n", r.backend.c_str(), r.property.c_str(), r.variant.c_str(),
                  r.cases, r.passed, r.worst_margin, r.noted,
                  !r.ok                           ? "  FAILED"
                  : r.cases == 0 && r.outside > 0 ? "  SKIPPED: its Cases are outside what the variant takes"
                  : r.cases == 0                  ? "  NOT JUDGED: no drawn Case could judge it here"
                                                  : "");
  }
  for (const auto& n : not_run) std::printf("NOT RUN  %s\n", n.c_str());
  for (const auto& s : skipped) std::printf("SKIPPED  %s\n", s.c_str());
}

void CheckReport::print_domains() const {
  std::map<std::string, std::array<long, 4>> seen;  // "backend op/name": boundary skipped, boundary total, moved, drawn
  for (const auto& r : boundary) {
    auto& n = seen[r.backend + " " + r.variant];
    n[0] += r.skipped;
    n[1] += r.cases + r.skipped;
  }
  for (const auto& r : properties) {  // a property is "<op>.<name>", its variant a bare name
    auto& n = seen[r.backend + " " + r.property.substr(0, r.property.find('.')) + "/" + r.variant];
    n[2] += r.moved;
    n[3] += r.pinned;
  }
  for (const auto& [key, n] : seen) {
    const auto space = key.find(' '), slash = key.find('/');
    if (slash == std::string::npos) continue;
    const Variant* v = find_variant(key.substr(space + 1, slash - space - 1), key.substr(slash + 1));
    if (!v || !domain_of(*v).declared()) continue;
    std::printf(
        "DOMAIN   %s accepts %s: %ld of %ld boundary Cases outside it (SKIPPED); %ld of %ld drawn property "
        "Cases moved inside it\n",
        key.c_str(), domain_of(*v).text.c_str(), n[0], n[1], n[2], n[3]);
  }
}

std::string CheckReport::json() const {
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  Json j = {{"date", date}, {"seconds", json_number(seconds)}, {"emu_race_detector", emu::race::status_text()}};
  Json& rows = j["boundary_cases"] = Json::array();
  for (const auto& r : boundary)
    rows.push_back({{"backend", r.backend},
                    {"variant", r.variant},
                    {"dtype", r.dtype},
                    {"cases", r.cases},
                    {"passed", r.passed},
                    {"noted", r.noted},
                    {"worst_ulp", json_number(r.worst_ulp)},
                    {"worst_margin", json_number(r.worst_margin)},
                    {"worst_baseline_share", json_number(r.worst_baseline)},
                    {"skipped", r.skipped},
                    {"skip_reason", r.skip_reason}});
  Json& props = j["properties"] = Json::array();
  for (const auto& r : properties)
    props.push_back({{"backend", r.backend},
                     {"property", r.property},
                     {"variant", r.variant},
                     {"cases", r.cases},
                     {"passed", r.passed},
                     {"noted", r.noted},
                     {"worst_margin", json_number(r.worst_margin)},
                     {"ok", r.ok},
                     {"pinned", r.pinned},
                     {"moved_into_domain", r.moved},
                     {"outside_domain", r.outside}});
  Json& fails = j["failures"] = Json::array();
  for (const auto& f : failures)
    fails.push_back({{"backend", f.backend}, {"what", f.what}, {"message", f.message}, {"replay", f.replay}});
  Json& noted = j["accuracy_notes"] = Json::array();  // passes, each a FAIL under --strict
  for (const auto& n : notes)
    noted.push_back({{"backend", n.backend}, {"what", n.what}, {"note", n.message}, {"replay", n.replay}});
  j["not_run"] = not_run;
  j["skipped"] = skipped;
  return json_text(j);
}

}  // namespace kverify
