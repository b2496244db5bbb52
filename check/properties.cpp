// Part (2) of `kverify check`: the property catalogue through RapidCheck, with budgets, progress,
// the property x variant table, and each failure's shrunk Case.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "check/catalogue.hpp"
#include "check/isolation.hpp"
#include "check/report.hpp"
#include "core/progress.hpp"
#include "properties/catalogue.hpp"
#include "properties/check_property.hpp"

namespace kverify {

int run_properties(const CheckOptions& options, Backend backend, CheckReport& report) {
  std::vector<const properties::Property*> selected;
  for (const auto& p : properties::all_properties())
    if ((!options.op || p.op->name == *options.op) && (!options.property || p.name == *options.property))
      selected.push_back(&p);
  if (selected.empty()) return 0;

  int failed = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const properties::Property& p = *selected[i];
    if (options.child) {  // part i + 1 of a child; a restarted child goes on after the faulting one
      if (static_cast<int>(i) + 1 < options.first_part) continue;
      child_part(static_cast<int>(i) + 1);
    }
    std::map<std::string, properties::Context::Tally> tally;
    const properties::Context ctx{backend, options.variant, options.dtype, &tally};
    int cases = options.cases;
    if (options.seconds > 0) {
      // A time budget: measure two cases, then give this property its share of what is left.
      const auto t0 = std::chrono::steady_clock::now();
      properties::check_property(p, ctx, options.seed, 2);
      const double per_case =
          std::max(1e-4, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 2);
      const double left =
          options.seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      cases = static_cast<int>(std::clamp(left / static_cast<double>(selected.size() - i) / per_case, 1.0, 10000.0));
      tally.clear();
    }
    const auto t0 = std::chrono::steady_clock::now();
    const properties::PropertyRun outcome = properties::check_property(p, ctx, options.seed, cases);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double so_far = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string left =
        time_left(static_cast<std::int64_t>(i + 1), static_cast<std::int64_t>(selected.size()), so_far);
    std::fprintf(stderr, "  [%zu/%zu] %s %s: %s (%d cases, %.1f s)%s%s\n", i + 1, selected.size(),
                 std::string(name(backend)).c_str(), std::string(p.name).c_str(), outcome.passed ? "ok" : "FAILED",
                 outcome.cases, seconds, left.empty() ? "" : "; ", left.c_str());
    std::string replay = "./kverify check --backend " + std::string(name(backend)) + " --property " +
                         std::string(p.name) + " --seed " + std::to_string(options.seed) + " --budget " +
                         std::to_string(cases);
    if (options.variant) replay += " --variant " + *options.variant;
    if (options.dtype) replay += " --dtype " + std::string(name(*options.dtype));
    const std::size_t first_testcase = report.testcases.size();
    bool a_variant_failed = false;
    for (const auto& [variant, t] : tally) {
      const bool ok = outcome.passed || t.passed == t.cases;
      using Status = CheckReport::TestCase::Status;
      CheckReport::TestCase tc{std::string(name(backend)),
                               std::string(p.op->name) + "/" + variant,
                               std::string(p.name),
                               Status::passed,
                               t.first_note,
                               replay,
                               seconds};
      if (!ok) {
        a_variant_failed = true;
        tc.status = Status::failed;
        tc.message = outcome.failure;
      } else if (t.cases == 0) {  // never a pass: nothing was judged
        tc.status = Status::skipped;
        tc.message = t.outside > 0 ? "its Cases are outside what the variant takes"
                                   : "NOT JUDGED: no drawn Case could judge it here";
      }
      report.testcases.push_back(tc);
      report.properties.push_back({std::string(name(backend)), std::string(p.name), variant, t.cases, t.passed,
                                   t.worst_margin, outcome.passed || t.passed == t.cases, t.pinned, t.moved, t.outside,
                                   t.noted});
      if (t.noted > 0)
        report.notes.push_back({std::string(name(backend)), std::string(p.name),
                                t.first_note + " (" + std::to_string(t.noted) + " of its " + std::to_string(t.cases) +
                                    " Cases noted; the first)",
                                "./kverify run '" + t.first_note_case + "'"});
    }
    if (tally.empty())  // nothing applied (e.g. a variant filter for another op)
      report.properties.push_back({std::string(name(backend)), std::string(p.name), "-", 0, 0, 0, true});
    // A property can fail past every Verdict (bits across schedules, the errors' mean): the CI formats
    // then fail each variant it ran, never none.
    if (!outcome.passed && !a_variant_failed) {
      if (first_testcase == report.testcases.size())
        report.testcases.push_back({std::string(name(backend)),
                                    std::string(p.op->name) + "/" + options.variant.value_or("-"),
                                    std::string(p.name),
                                    {},
                                    "",
                                    replay,
                                    seconds});
      for (std::size_t k = first_testcase; k < report.testcases.size(); ++k) {
        report.testcases[k].status = CheckReport::TestCase::Status::failed;
        report.testcases[k].message = outcome.failure;
      }
    }
    if (!outcome.passed) {
      ++failed;
      report.failures.push_back({std::string(name(backend)), std::string(p.name), outcome.failure, replay});
    }
    if (options.child) child_flush(report);
  }
  return failed;
}

}  // namespace kverify
