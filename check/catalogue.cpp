#include "check/catalogue.hpp"

#include "core/child_process.hpp"
#include "core/exit_codes.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "check/annotations.hpp"
#include "check/isolation.hpp"
#include "check/junit.hpp"
#include "check/report.hpp"
#include "check/skips.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"
#include "reference/baseline.hpp"
#include "runtime/emu/detectors/race_detector.hpp"

namespace kverify {

int run_properties(const CheckOptions& options, Backend backend, CheckReport& report);

namespace {

std::vector<std::string> output_paths(const CheckOptions& options) {
  if (options.junit_path.empty()) return {options.json_path};
  return {options.json_path, options.junit_path};
}

constexpr const char* kLeftOutByQuick =
    "left out by --quick: a dimension past 65535 (the grid limits; seconds on emu): run check without --quick";

// Part (1): the boundary Cases on every production variant (or the one asked for).
int run_boundary_cases(const CheckOptions& options, Backend backend, CheckReport& report) {
  std::map<std::string, CheckReport::BoundaryRow> rows;  // "op/variant dtype"
  int failed = 0;
  int to_skip = options.skip_cases;  // a child restarted after a fault goes on after the faulting Case
  for (const auto& variant : all_variants()) {
    if (options.op && variant.op != *options.op) continue;
    if (options.variant ? variant.name != *options.variant : variant.mutant) continue;
    const auto lines = boundary_case_lines(*find_op(variant.op));
    int done = 0;
    for (const auto& line : lines) {
      Case c = parse_case(line);
      c.run_on(backend);
      c.variant = std::string(variant.name);
      ++done;
      // A dtype the variant does not register is not its Case; anything else it refuses is SKIPPED, counted.
      if ((options.dtype && c.dtype != *options.dtype) || !variant.supports(c.dtype)) continue;
      std::string key = std::string(variant.op) + "/" + std::string(variant.name) + " " + std::string(name(c.dtype));
      if (options.child) key += " #" + std::to_string(done);  // one row per Case: the parent merges them
      CheckReport::BoundaryRow& row = rows[key];
      row.backend = std::string(name(backend));
      row.variant = std::string(variant.op) + "/" + std::string(variant.name);
      row.dtype = std::string(name(c.dtype));
      const auto refusal = unsupported(variant, c, backend);
      const bool left_out = !refusal && options.quick && backend == Backend::emu && past_grid_limits(c);
      if (to_skip > 0) {  // a child restarted after a fault: the Cases before it were reported by the first
        if (!refusal && !left_out) --to_skip;
        if (options.child) rows.erase(key);
        continue;
      }
      using Status = CheckReport::TestCase::Status;
      const std::string testcase_name = "boundary " + c.to_text();
      if (left_out) {  // not the variant's refusal: out of the table's skips and the DOMAIN counts
        report.testcases.push_back({row.backend, row.variant, testcase_name, Status::skipped, kLeftOutByQuick});
        if (options.child) {
          rows.erase(key);
          child_flush(report);
        }
        continue;
      }
      if (refusal) {
        ++row.skipped;
        if (row.skip_reason.empty()) row.skip_reason = *refusal + " (" + c.to_text() + ")";
        report.testcases.push_back({row.backend, row.variant, testcase_name, Status::skipped, *refusal});
        if (options.child) {  // sent now: the next Case may take the child down
          report.boundary.push_back(row);
          rows.erase(key);
          child_flush(report);
        }
        continue;
      }
      Verdict v;
      const auto started = std::chrono::steady_clock::now();
      try {
        v = run_case(c);
      } catch (const std::exception& e) {  // one Case that cannot be checked never stops the rest
        v.outcome = Outcome::fail;
        v.subject = std::string(variant.op) + "/" + std::string(variant.name) + " on " + std::string(name(backend));
        v.reason = std::string("could not be checked: ") + e.what();
        v.reproduce = c.to_text();
      }
      ++row.cases;
      const bool passed = v.outcome == Outcome::pass;
      report.testcases.push_back({row.backend, row.variant, testcase_name, passed ? Status::passed : Status::failed,
                                  passed ? v.accuracy_note : format(v), "./kverify run '" + v.reproduce + "'",
                                  std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()});
      if (passed) {
        ++row.passed;
        if (!v.accuracy_note.empty()) {
          ++row.noted;
          report.notes.push_back({row.backend, "boundary case", v.subject + ": " + v.accuracy_note,
                                  "./kverify run '" + v.reproduce + "'"});
        }
      } else {
        ++failed;
        report.failures.push_back({row.backend, "boundary case", format(v), "./kverify run '" + v.reproduce + "'"});
      }
      row.worst_ulp = std::max(row.worst_ulp, v.stats.max_ulp);
      row.worst_margin = std::max(row.worst_margin, v.stats.worst_margin);
      if (v.stats.baseline_kernel_ulps >= 0)  // share of the baseline rule's allowance used: 1 is the limit
        row.worst_baseline =
            std::max(row.worst_baseline,
                     v.stats.baseline_kernel_ulps / (kBaselineFactor * v.stats.baseline_eager_ulps + kBaselineSlack));
      if (options.child) {  // send this Case's row now: the next Case may take the child down
        report.boundary.push_back(row);
        rows.erase(key);
        child_flush(report);
      }
      if (done % 40 == 0 || done == static_cast<int>(lines.size()))
        std::fprintf(stderr, "  %s boundary cases %s/%s: %d/%zu\n", std::string(name(backend)).c_str(),
                     std::string(variant.op).c_str(), std::string(variant.name).c_str(), done, lines.size());
    }
  }
  for (auto& [key, row] : rows) report.boundary.push_back(row);
  return failed;
}

}  // namespace

int finish_check(const CheckOptions& options, CheckReport& report);

int run_check_catalogue(const CheckOptions& options) {
  if (options.child) {  // one backend, one variant; results as protocol lines (check_isolation.cpp)
    CheckReport report;
    const Backend backend = options.backends.at(0);
    child_begin(backend);
    if (std::string why; !backend_available(backend, &why)) {
      std::printf("@kv notrun %s\n", why.c_str());
      child_done();
      return kNotRun;
    }
    int failed = 0;
    if (options.boundary_cases && !options.property && options.first_part == 0) {
      child_part(0);
      failed += run_boundary_cases(options, backend, report);
    }
    failed += run_properties(options, backend, report);
    child_flush(report);
    child_done();
    return failed > 0 ? 1 : 0;
  }
  if (const auto problem = output_paths_problem(output_paths(options)))  // before the run
    throw InputError((options.junit_path.empty() ? "--json: " : "--json, --junit: ") + *problem);
  if (options.isolate || !options.sanitize.empty()) return run_check_isolated(options);
  std::vector<Backend> backends = options.backends;
  if (backends.empty()) {
    backends.push_back(Backend::emu);
    if (backend_available(Backend::cuda, nullptr)) backends.push_back(Backend::cuda);
  }
  CheckReport report;
  int failed = 0;
  const auto start = std::chrono::steady_clock::now();
  for (Backend backend : backends) {
    if (std::string why; !backend_available(backend, &why)) {
      note_backend_not_run(backend, why, report);
      continue;
    }
    if (note_variants_not_on_backend(options, backend, report)) continue;
    if (options.boundary_cases && !options.property) failed += run_boundary_cases(options, backend, report);
    failed += run_properties(options, backend, report);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  (void)failed;  // every failure is in report.failures
  return finish_check(options, report);
}

namespace {

// Whether the last Case of a `kverify run ... --then ...` child failed (the Cases before it may
// have failed too: a shrinking property runs failing Cases before the one it reports).
bool last_of_sequence_fails(const ChildResult& r, std::size_t cases) {
  const std::string mark = "[" + std::to_string(cases) + "/" + std::to_string(cases) + "] ";
  const auto at = r.output.rfind(mark);
  if (at == std::string::npos) return false;
  const auto verdict = r.output.find('\n', at);
  return verdict != std::string::npos && r.output.compare(verdict + 1, 4, "FAIL") == 0;
}

// A failure's Case run again alone, in a fresh process: one that passes there needed the Cases the
// check ran before it in the same process (a kernel or launcher keeping state between calls), and
// its reproduce line does not reproduce it alone. The message says so and, where the Case lines
// that process ran before it are known, gives a sequence after which it fails again in a fresh
// process (`kverify run ... --then`): one of them just before it (the latest first), else all of
// them. At most kMostRerun failures and kMostTries processes in all.
void rerun_failures_alone(CheckReport& report) {
  constexpr std::size_t kMostRerun = 8, kMostTries = 24;
  const std::string exe = this_program();
  if (exe.empty()) return;
  std::size_t rerun = 0, tries = 0;
  for (auto& f : report.failures) {
    // Only a failing Verdict (a line "FAIL ..."): a property that judges past the Verdict (bits
    // across schedules, the errors' mean) gets a PASS from `run` alone whatever happened. A
    // reproduce line that is already a sequence (--then) or a pair (--alongside) says what ran with it.
    const bool a_verdict = f.message.starts_with("FAIL") || f.message.find("\nFAIL") != std::string::npos;
    const std::string the_case = f.reproduced_case();
    if (!a_verdict || the_case.empty() || rerun == kMostRerun || tries == kMostTries) continue;
    if (f.message.find(" --then '") != std::string::npos || f.message.find(" --alongside '") != std::string::npos)
      continue;  // a reproduce line that is a sequence or a pair
    ++rerun, ++tries;
    const ChildResult alone = run_child({exe, "run", the_case}, {.time_limit = 60});
    if (alone.exit_code != 0) continue;
    const std::string said = f.message;
    f.message +=
        "\n  alone: this Case PASSES when run by itself in a fresh process (./kverify run exit 0): the failure "
        "needed the Cases run before it in the same process (state kept between launches: a static buffer, a "
        "cache, a __device__ variable), or does not happen on every run (a race)";
    std::vector<std::vector<std::string>> candidates;
    for (auto p = f.before.rbegin(); p != f.before.rend(); ++p) candidates.push_back({*p});
    if (f.before.size() > 1) candidates.push_back(f.before);
    std::string sequence;
    for (const auto& before : candidates) {
      if (tries == kMostTries) break;
      ++tries;
      std::vector<std::string> argv{exe, "run", before[0]};
      std::string said_argv = "./kverify run '" + before[0] + "'";
      for (std::size_t i = 1; i <= before.size(); ++i) {
        const std::string& next = i < before.size() ? before[i] : the_case;
        argv.insert(argv.end(), {"--then", next});
        said_argv += " --then '" + next + "'";
      }
      if (!last_of_sequence_fails(run_child(argv, {.time_limit = 120}), before.size() + 1)) continue;
      sequence = said_argv;
      break;
    }
    f.message += sequence.empty()
                     ? "; the replay line re-runs them all"
                     : "\n  after: it FAILS again in a fresh process run after Case(s) its process ran before "
                       "it: " +
                           sequence;
    for (auto& t : report.testcases)
      if (t.status == CheckReport::TestCase::Status::failed && t.backend == f.backend && t.message == said)
        t.message = f.message;
  }
}

}  // namespace

// Prints the failures, the tables and the JSON; returns the exit code (shared with the isolated run).
int finish_check(const CheckOptions& options, CheckReport& report) {
  rerun_failures_alone(report);
  const int failed = static_cast<int>(report.failures.size());
  for (const auto& f : report.failures)
    std::printf("FAILED %s on %s\n%s\n  replay: %s\n\n", f.what.c_str(), f.backend.c_str(), f.message.c_str(),
                f.replay.c_str());
  // Listed apart from the failures, never folded into the passes: each a FAIL under --strict.
  constexpr std::size_t kNotesShown = 12;
  for (std::size_t i = 0; i < report.notes.size() && i < kNotesShown; ++i) {
    const auto& n = report.notes[i];
    std::printf("ACCURACY NOTE %s on %s: %s\n  replay: %s\n", n.what.c_str(), n.backend.c_str(), n.message.c_str(),
                n.replay.c_str());
  }
  if (report.notes.size() > kNotesShown)
    std::printf("ACCURACY NOTE ... %zu more, listed in %s\n", report.notes.size() - kNotesShown,
                options.json_path.c_str());
  // Never folded into the passes: how many --quick left out, and one of them to run alone.
  std::map<std::string, std::pair<int, std::string>> left_out;  // backend: count, the first Case
  for (const auto& t : report.testcases)
    if (t.status == CheckReport::TestCase::Status::skipped && t.message == kLeftOutByQuick) {
      auto& [count, first] = left_out[t.backend];
      if (count++ == 0) first = t.name.substr(t.name.find(' ') + 1);
    }
  for (const auto& [backend, n] : left_out)
    report.skipped.push_back(backend + ": " + std::to_string(n.first) + " boundary Case" + (n.first == 1 ? "" : "s") +
                             " past the grid limits left out by --quick, e.g. ./kverify run '" + n.second + "'");
  report.print_tables();
  report.print_domains();
  // The CI formats never pass what the check failed, whatever judged unit the failure came from.
  const bool a_testcase_failed = std::any_of(report.testcases.begin(), report.testcases.end(), [](const auto& t) {
    return t.status == CheckReport::TestCase::Status::failed;
  });
  if (!report.failures.empty() && !a_testcase_failed)
    for (const auto& f : report.failures)
      report.testcases.push_back({f.backend, "", f.what, CheckReport::TestCase::Status::failed, f.message, f.replay});
  if (const char* ci = std::getenv("GITHUB_ACTIONS"); ci && std::string_view(ci) == "true") {
    const char* workspace = std::getenv("GITHUB_WORKSPACE");
    for (const auto& line : github_annotations(report, workspace ? workspace : "")) std::printf("%s\n", line.c_str());
  }
  OutputFiles outputs;  // the JSON and the JUnit: both or neither
  outputs.add(options.json_path, report.json());
  if (!options.junit_path.empty()) outputs.add(options.junit_path, junit_xml(report));
  const auto write_error = outputs.commit();
  if (write_error)
    std::fprintf(stderr, "kverify check: %s\n", write_error->c_str());
  else
    std::printf("summary written to %s%s%s\n", options.json_path.c_str(),
                options.junit_path.empty() ? "" : ", JUnit to ", options.junit_path.c_str());
  int passed = 0, noted = 0;
  for (const auto& r : report.boundary) passed += r.passed, noted += r.noted;
  for (const auto& r : report.properties) passed += r.ok && r.cases > 0, noted += r.ok && r.noted > 0;
  const bool emu_ran = options.backends.empty() || std::find(options.backends.begin(), options.backends.end(),
                                                             Backend::emu) != options.backends.end();
  if (noted > 0)
    std::printf("%d of the passes with an accuracy note (ACCURACY NOTE above): a FAIL under --strict\n", noted);
  std::printf("%d passed, %d failed (%.1f s)%s\n", passed, failed, report.seconds,
              emu_ran ? ("; emu race detector " + emu::race::status_text()).c_str() : "");
  if (failed > 0) return kFail;
  if (write_error) return kBadInput;  // an output that could not be written is never a pass
  const bool nothing_checked = report.boundary.empty() && report.properties.empty();
  if (nothing_checked && !report.not_run.empty()) {
    std::printf("nothing was checked here: see NOT RUN above\n");
    return kNotRun;
  }
  if (nothing_checked) {
    std::printf("nothing was checked: no variant or property matched the filters\n");
    return kBadInput;
  }
  if (options.backends_requested && !report.not_run.empty()) return kNotRun;
  return 0;
}

}  // namespace kverify
