// Fault isolation and sanitized runs for `kverify check`: see check_isolation.hpp.
#include "check/isolation.hpp"

#include "core/child_process.hpp"
#include "core/exit_codes.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

#include "check/skips.hpp"
#include "core/error.hpp"
#include "core/gpu_slots.hpp"
#include "core/progress.hpp"
#include "kernels/registry.hpp"
#include "pipeline/case_trace.hpp"
#include "pipeline/execute.hpp"
#include "properties/catalogue.hpp"
#include "runtime/emu/detectors/block_watch.hpp"

extern char** environ;

namespace kverify {
namespace {

constexpr int kSanitizerExit = 86;  // compute-sanitizer's --error-exitcode: tells its findings from ours
constexpr int kFaultExit = 70;      // a child that found its CUDA context lost

std::string escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '\\')
      out += "\\\\";
    else if (ch == '\n')
      out += "\\n";
    else if (ch == '\t')
      out += "\\t";
    else
      out += ch;
  }
  return out;
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char n = s[++i];
    out += n == 'n' ? '\n' : n == 't' ? '\t' : n;
  }
  return out;
}

std::vector<std::string> split_tabs(const std::string& s) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const auto tab = s.find('\t', start);
    fields.push_back(unescape(s.substr(start, tab == std::string::npos ? std::string::npos : tab - start)));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

// ---- the child side ----
struct ChildState {
  bool last_on_cuda = false;
  std::string last_case;
  std::size_t boundary_sent = 0, properties_sent = 0, failures_sent = 0, notes_sent = 0, testcases_sent = 0;
};
ChildState& child() {
  static ChildState s;
  return s;
}

// A sticky CUDA error left by the previous Case: every later Case would fail too. Say which
// error and stop; the parent records it on the Case that was running and starts a fresh child.
void check_context() {
  if (!child().last_on_cuda) return;
  if (std::string why; device_context_lost(Backend::cuda, &why)) {
    std::printf("@kv fault %s\n", escape(why).c_str());
    std::fflush(stdout);
    std::_Exit(kFaultExit);
  }
}

// Called from run_case, so from two host threads at once in a property that runs two Cases side by
// side (run_at_once): the state is shared, and an unguarded assignment of last_case from both threads
// corrupted the heap (glibc aborted a cuda child in `tcache_thread_shutdown`). The parent takes the
// last Case line it read as the one running.
void child_trace(const Case& c) {
  static std::mutex one_at_a_time;
  const std::lock_guard lock(one_at_a_time);
  check_context();
  child().last_case = c.to_text();
  child().last_on_cuda = c.backend == Backend::cuda;
  std::printf("@kv case %s\n", child().last_case.c_str());
  std::fflush(stdout);
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string signal_text(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return std::string("signal ") + (abbrev ? std::string("SIG") + abbrev : std::to_string(sig)) + " (" + strsignal(sig) +
         ")";
}

}  // namespace

void child_begin(Backend) {
  case_trace_hook() = &child_trace;
  // An emu block that never ends: the parent fails the Case that was running with this report.
  emu::watch::set_hang_reporter([](const std::string& report) {
    std::printf("@kv timeout %s\n", escape(report).c_str());
    std::fflush(stdout);
    std::_Exit(kFaultExit);
  });
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
}

void child_part(int part) {
  check_context();
  std::printf("@kv part %d\n", part);
  std::fflush(stdout);
}

void child_flush(CheckReport& r) {
  check_context();  // a fault in the last Case of a part is not reported as that part's pass
  auto& s = child();
  for (; s.boundary_sent < r.boundary.size(); ++s.boundary_sent) {
    const auto& b = r.boundary[s.boundary_sent];
    std::printf("@kv boundary %s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%d\t%s\t%d\n", escape(b.backend).c_str(),
                escape(b.variant).c_str(), escape(b.dtype).c_str(), b.cases, b.passed, number(b.worst_ulp).c_str(),
                number(b.worst_margin).c_str(), number(b.worst_baseline).c_str(), b.skipped,
                escape(b.skip_reason).c_str(), b.noted);
  }
  for (; s.properties_sent < r.properties.size(); ++s.properties_sent) {
    const auto& p = r.properties[s.properties_sent];
    std::printf("@kv property %s\t%s\t%s\t%ld\t%ld\t%s\t%d\t%ld\t%ld\t%ld\t%ld\n", escape(p.backend).c_str(),
                escape(p.property).c_str(), escape(p.variant).c_str(), p.cases, p.passed,
                number(p.worst_margin).c_str(), p.ok ? 1 : 0, p.pinned, p.moved, p.outside, p.noted);
  }
  for (; s.notes_sent < r.notes.size(); ++s.notes_sent) {
    const auto& n = r.notes[s.notes_sent];
    std::printf("@kv note %s\t%s\t%s\t%s\n", escape(n.backend).c_str(), escape(n.what).c_str(),
                escape(n.message).c_str(), escape(n.replay).c_str());
  }
  for (; s.testcases_sent < r.testcases.size(); ++s.testcases_sent) {
    const auto& t = r.testcases[s.testcases_sent];
    std::printf("@kv testcase %s\t%s\t%s\t%d\t%s\t%s\t%s\n", escape(t.backend).c_str(), escape(t.variant).c_str(),
                escape(t.name).c_str(), static_cast<int>(t.status), number(t.seconds).c_str(),
                escape(t.message).c_str(), escape(t.replay).c_str());
  }
  for (; s.failures_sent < r.failures.size(); ++s.failures_sent) {
    const auto& f = r.failures[s.failures_sent];
    std::printf("@kv failure %s\t%s\t%s\t%s\n", escape(f.backend).c_str(), escape(f.what).c_str(),
                escape(f.message).c_str(), escape(f.replay).c_str());
  }
  std::fflush(stdout);
}

void child_done() {
  check_context();
  std::printf("@kv done\n");
  std::fflush(stdout);
}

void ChildTranscript::feed(const std::string& line) {
  if (line.rfind("@kv ", 0) != 0) {
    // compute-sanitizer's records: "========= <finding>" starts one, "=========     <detail>" continues it.
    if (line.rfind("========= ", 0) == 0) {
      const std::string body = line.substr(10);
      const bool summary =
          body.rfind("COMPUTE-SANITIZER", 0) == 0 || body.find("SUMMARY:") != std::string::npos || body.empty();
      if (summary) return;
      if (body[0] != ' ' || findings.empty()) {
        if (body[0] == ' ') return;  // a detail line with no finding before it
        findings.push_back({running.empty() ? "(before the first Case)" : running, {body}});
      } else if (findings.back().second.size() < 12) {
        findings.back().second.push_back(body);
      }
      return;
    }
    tail.push_back(line);
    if (tail.size() > 6) tail.erase(tail.begin());
    return;
  }
  const auto space = line.find(' ', 4);
  const std::string kind = line.substr(4, space == std::string::npos ? std::string::npos : space - 4);
  const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
  if (kind == "case") {
    running = rest;
    ran.push_back(rest);
    ++cases_in_part;
  } else if (kind == "part") {
    part = std::atoi(rest.c_str());
    cases_in_part = 0;
  } else if (kind == "fault") {
    fault = unescape(rest);
  } else if (kind == "timeout") {
    timeout = unescape(rest);
  } else if (kind == "done") {
    done = true;
  } else if (kind == "boundary") {
    const auto f = split_tabs(rest);
    if (f.size() < 11) return;
    report.boundary.push_back({f[0], f[1], f[2], std::atoi(f[3].c_str()), std::atoi(f[4].c_str()),
                               std::atoi(f[10].c_str()), std::strtod(f[5].c_str(), nullptr),
                               std::strtod(f[6].c_str(), nullptr), std::strtod(f[7].c_str(), nullptr),
                               std::atoi(f[8].c_str()), f[9]});
  } else if (kind == "property") {
    const auto f = split_tabs(rest);
    if (f.size() < 11) return;
    report.properties.push_back({f[0], f[1], f[2], std::atol(f[3].c_str()), std::atol(f[4].c_str()),
                                 std::strtod(f[5].c_str(), nullptr), f[6] == "1", std::atol(f[7].c_str()),
                                 std::atol(f[8].c_str()), std::atol(f[9].c_str()), std::atol(f[10].c_str())});
  } else if (kind == "failure") {
    const auto f = split_tabs(rest);
    if (f.size() < 4) return;
    report.failures.push_back({f[0], f[1], f[2], f[3], {}});
    // The Cases before the failing one's first run.
    if (const std::string failing = report.failures.back().reproduced_case(); !failing.empty()) {
      const auto first = std::find(ran.begin(), ran.end(), failing);
      const auto from = first - std::min<std::ptrdiff_t>(first - ran.begin(), CheckReport::Failure::kMostBefore);
      auto& before = report.failures.back().before;
      if (from != ran.begin()) before.push_back(ran.front());  // a static set on the first call
      before.insert(before.end(), from, first);
    }
  } else if (kind == "testcase") {
    const auto f = split_tabs(rest);
    const int status = f.size() < 7 ? -1 : std::atoi(f[3].c_str());
    if (status < 0 || status > static_cast<int>(CheckReport::TestCase::Status::skipped)) return;
    report.testcases.push_back({f[0], f[1], f[2], static_cast<CheckReport::TestCase::Status>(status), f[5], f[6],
                                std::strtod(f[4].c_str(), nullptr)});
  } else if (kind == "note") {
    const auto f = split_tabs(rest);
    if (f.size() < 4) return;
    report.notes.push_back({f[0], f[1], f[2], f[3]});
  }
}

std::string find_compute_sanitizer() {
  if (const char* env = std::getenv("KVERIFY_COMPUTE_SANITIZER"); env && *env)
    return access(env, X_OK) == 0 ? std::string(env) : std::string();
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && access((dir + "/compute-sanitizer").c_str(), X_OK) == 0) return dir + "/compute-sanitizer";
  }
  if (access("/usr/local/cuda/bin/compute-sanitizer", X_OK) == 0) return "/usr/local/cuda/bin/compute-sanitizer";
  return "";
}

namespace {

std::string self_exe() {
  const std::string exe = this_program();
  if (exe.empty()) throw std::runtime_error("cannot find this executable (/proc/self/exe) to start child processes");
  return exe;
}

// Runs argv (with `env` added: the device it is pinned to), feeds each line of its output to the
// transcript and passes the lines that are not protocol to our stderr (progress), prefixed with
// `tag` when several children run at once.
ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& tag,
                      ChildTranscript& t) {
  // A Case that runs long says so every 10 s (its line, how long), instead of a silent minute.
  struct Running {
    std::mutex mutex;
    std::string case_line;
    std::chrono::steady_clock::time_point since;
  } running;
  const ProgressWatch watch(
      "kverify check",
      [&]() -> std::string {
        std::lock_guard lock(running.mutex);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - running.since).count();
        if (running.case_line.empty() || seconds < 10) return "";
        return tag + "this Case has run " + std::to_string(static_cast<long>(seconds)) + " s: " + running.case_line;
      },
      10, 10);
  return kverify::run_child(argv, {.env = env, .on_line = [&](const std::string& line) {
                                     if (line.rfind("@kv ", 0) != 0)
                                       std::fprintf(stderr, "%s%s\n", tag.c_str(), line.c_str());
                                     t.feed(line);
                                     std::lock_guard lock(running.mutex);
                                     running.case_line = t.running;
                                     running.since = line.rfind("@kv case ", 0) == 0 ? std::chrono::steady_clock::now()
                                                                                     : running.since;
                                   }});
}

// Boundary rows are one per backend/variant/dtype: a row a restarted child continues adds to it.
void merge_boundary_row(CheckReport& report, std::map<std::string, std::size_t>& row_of,
                        const CheckReport::BoundaryRow& b) {
  const std::string key = b.backend + " " + b.variant + " " + b.dtype;
  if (auto it = row_of.find(key); it != row_of.end()) {
    auto& row = report.boundary[it->second];
    row.cases += b.cases;
    row.passed += b.passed;
    row.noted += b.noted;
    row.worst_ulp = std::max(row.worst_ulp, b.worst_ulp);
    row.worst_margin = std::max(row.worst_margin, b.worst_margin);
    row.worst_baseline = std::max(row.worst_baseline, b.worst_baseline);
    row.skipped += b.skipped;
    if (row.skip_reason.empty()) row.skip_reason = b.skip_reason;
  } else {
    row_of[key] = report.boundary.size();
    report.boundary.push_back(b);
  }
}

std::string how_it_ended(const ChildResult& r, const ChildTranscript& t) {
  if (!t.timeout.empty()) return t.timeout;
  if (!t.fault.empty()) return t.fault;
  if (r.signal) {
    // What the process said as it died: an assert's line, an uncaught exception, a sanitizer's report.
    for (auto l = t.tail.rbegin(); l != t.tail.rend(); ++l)
      if (l->find("Assertion") != std::string::npos || l->find("terminate called") != std::string::npos ||
          l->find("what():") != std::string::npos || l->find("ERROR") != std::string::npos)
        return signal_text(r.signal) + ": " + *l;
    return signal_text(r.signal);
  }
  std::string why = "the child exited with status " + std::to_string(r.exit_code) + " before finishing";
  for (const auto& l : t.tail)  // e.g. "==123==ERROR: AddressSanitizer: SEGV on unknown address ..."
    if (l.find("ERROR") != std::string::npos || l.find("Sanitizer") != std::string::npos) return why + ": " + l;
  return why;
}

}  // namespace

int finish_check(const CheckOptions& options, CheckReport& report);  // check_catalogue.cpp

namespace {

// One backend x variant through its children: a child per run, a fresh one after each device
// fault, until every part is done. `variants` is the number on this backend (a time budget is
// shared out over them); `env` pins the children to their device.
CheckReport check_variant(Backend backend, const Variant& variant, std::size_t variants, const CheckOptions& options,
                          const std::string& sanitizer, const std::string& exe, const std::vector<std::string>& env,
                          const std::string& tag) {
  const Variant* v = &variant;
  CheckReport report;
  std::map<std::string, std::size_t> row_of;
  int parts = 1;  // part 0: the boundary Cases; part i: the i-th property of the op
  for (const auto& p : properties::all_properties())
    if (p.op->name == v->op && (!options.property || p.name == *options.property)) ++parts;
  int first_part = 0, skip_cases = 0;
  while (first_part < parts) {
    std::vector<std::string> argv;
    if (!sanitizer.empty()) {
      argv = {sanitizer,       "--tool", options.sanitize, "--error-exitcode", std::to_string(kSanitizerExit),
              "--print-limit", "20"};
      if (options.sanitize == "memcheck") argv.insert(argv.end(), {"--leak-check", "no"});
    }
    argv.insert(argv.end(),
                {exe, "check", "--child", "--backend", std::string(name(backend)), "--op", std::string(v->op),
                 "--variant", std::string(v->name), "--seed", std::to_string(options.seed), "--first-part",
                 std::to_string(first_part), "--skip-cases", std::to_string(skip_cases)});
    if (options.dtype) argv.insert(argv.end(), {"--dtype", std::string(name(*options.dtype))});
    if (options.property) argv.insert(argv.end(), {"--property", *options.property});
    if (!options.boundary_cases) argv.push_back("--properties-only");
    if (options.quick) argv.push_back("--quick");
    if (options.seconds > 0) {  // the time budget, shared out over the children of this backend
      const long share = std::max(1L, static_cast<long>(options.seconds / static_cast<double>(variants)));
      argv.insert(argv.end(), {"--budget", std::to_string(share) + "s"});
    } else {
      argv.insert(argv.end(), {"--budget", std::to_string(options.cases)});
    }
    ChildTranscript t;
    t.part = first_part;
    const ChildResult child = run_child(argv, env, tag, t);
    for (auto& b : t.report.boundary) merge_boundary_row(report, row_of, b);
    report.properties.insert(report.properties.end(), t.report.properties.begin(), t.report.properties.end());
    report.failures.insert(report.failures.end(), t.report.failures.begin(), t.report.failures.end());
    report.notes.insert(report.notes.end(), t.report.notes.begin(), t.report.notes.end());
    report.testcases.insert(report.testcases.end(), t.report.testcases.begin(), t.report.testcases.end());
    const std::string variant_name = std::string(v->op) + "/" + std::string(v->name);
    using Status = CheckReport::TestCase::Status;
    for (const auto& [case_line, lines] : t.findings) {
      std::string message = "FAIL  " + options.sanitize + " reported an error while this Case ran on " +
                            std::string(name(backend)) + "\n  Case: " + case_line;
      for (const auto& l : lines) message += "\n  | " + l;
      report.failures.push_back(
          {std::string(name(backend)), "compute-sanitizer " + options.sanitize, message,
           "compute-sanitizer --tool " + options.sanitize + " ./kverify run '" + case_line + "'"});
      report.testcases.push_back({std::string(name(backend)), variant_name,
                                  "compute-sanitizer " + options.sanitize + " " + case_line, Status::failed, message,
                                  report.failures.back().replay});
    }
    const bool clean_exit =
        child.exit_code == 0 || child.exit_code == 1 || (!sanitizer.empty() && child.exit_code == kSanitizerExit);
    if (t.done && clean_exit) {
      if (!sanitizer.empty() && child.exit_code == kSanitizerExit && t.findings.empty()) {
        report.failures.push_back(
            {std::string(name(backend)), "compute-sanitizer " + options.sanitize,
             "FAIL  compute-sanitizer exited with its error code but no record could be attributed to a Case",
             "compute-sanitizer --tool " + options.sanitize + " " + exe + " check --backend cuda --variant " +
                 std::string(v->name)});
        report.testcases.push_back({std::string(name(backend)), variant_name, "compute-sanitizer " + options.sanitize,
                                    Status::failed, report.failures.back().message, report.failures.back().replay});
      }
      break;
    }
    // The child died: the Case that was running is a device fault; a fresh child goes on after it.
    const std::string how = how_it_ended(child, t);
    std::string part_name = "the boundary Cases";
    for (int k = 0; const auto& p : properties::all_properties())
      if (p.op->name == v->op && (!options.property || p.name == *options.property) && ++k == t.part)
        part_name = std::string(p.name);
    const std::string running =
        t.running.empty() ? "(no Case line had been printed yet, in " + part_name + ")" : t.running;
    // SIGABRT is host code: the launcher's (or, on emu, the emulated kernel's) assert or abort.
    const bool hung = !t.timeout.empty();
    const std::string what = hung                      ? "time limit"
                             : child.signal == SIGABRT ? "the launcher or kernel aborted"
                                                       : "device fault";
    // A kernel that hung once would likely hang on the next Case too, each costing the whole limit:
    // the variant's other Cases are not run, and the failure says so.
    report.failures.push_back({std::string(name(backend)), what,
                               "FAIL  " + std::string(v->op) + "/" + std::string(v->name) + " on " +
                                   std::string(name(backend)) + ": " + what + ": " + how +
                                   "\n  the Case that was running: " + running +
                                   (hung ? "\n  the variant's remaining Cases were not run" : ""),
                               t.running.empty() ? "(none)" : "./kverify run '" + t.running + "'"});
    // The Case (or the property) it stood for: the child died before it could report it.
    report.testcases.push_back({std::string(name(backend)), variant_name,
                                t.part == 0 && !t.running.empty() ? "boundary " + t.running : part_name, Status::failed,
                                report.failures.back().message, report.failures.back().replay});
    std::fprintf(stderr, "%s  %s in a child (%s) while running: %s; %s\n", tag.c_str(), what.c_str(), how.c_str(),
                 running.c_str(), hung ? "the variant's remaining Cases are not run" : "continuing in a fresh child");
    if (t.part == 0 && !t.running.empty()) {  // the boundary table counts it: a Case, failed
      std::string dtype = "?";
      try {
        dtype = std::string(name(parse_case(t.running).dtype));
      } catch (const InputError&) {
      }
      CheckReport::BoundaryRow failed{std::string(name(backend)), std::string(v->op) + "/" + std::string(v->name),
                                      dtype};
      failed.cases = 1;
      merge_boundary_row(report, row_of, failed);
      skip_cases = (t.part == first_part ? skip_cases : 0) + t.cases_in_part;
      first_part = 0;
    } else {
      first_part = t.part + 1;
      skip_cases = 0;
    }
    if (hung) break;
  }
  return report;
}

}  // namespace

int run_check_isolated(const CheckOptions& options) {
  std::string sanitizer;
  if (!options.sanitize.empty()) {
    for (Backend b : options.backends)
      if (b != Backend::cuda)
        throw InputError(
            "--sanitize " + options.sanitize +
            " needs --backend cuda (compute-sanitizer checks GPU kernels; emu has its own ASan/TSan flavors)");
    sanitizer = find_compute_sanitizer();
    if (sanitizer.empty()) {
      std::printf(
          "NOT RUN: --sanitize %s needs compute-sanitizer, found neither on PATH nor in /usr/local/cuda/bin%s\n",
          options.sanitize.c_str(),
          std::getenv("KVERIFY_COMPUTE_SANITIZER") ? " (KVERIFY_COMPUTE_SANITIZER is set but not executable)" : "");
      return kNotRun;
    }
    if (options.sanitize == "initcheck") setenv("KVERIFY_UNFILLED_WORKSPACE", "1", 1);  // see pipeline/execute.cpp
  }
  std::vector<Backend> backends = options.backends;
  if (backends.empty()) {
    backends.push_back(Backend::emu);
    if (backend_available(Backend::cuda, nullptr)) backends.push_back(Backend::cuda);
  }
  const std::string exe = self_exe();
  // --gpus: the children side by side, each cuda one pinned to its own device.
  const bool on_cuda = std::find(backends.begin(), backends.end(), Backend::cuda) != backends.end() &&
                       backend_available(Backend::cuda, nullptr);
  const GpuSlots slots = slots_for_option(options.gpus, on_cuda, cuda_device_count());
  CheckReport report;
  const auto start = std::chrono::steady_clock::now();

  // Every backend x variant is one task, in the order one process at a time takes them; on several
  // devices the tasks run side by side and their reports are merged back in that order.
  struct Task {
    Backend backend;
    const Variant* variant;
    std::size_t variants_on_backend;
  };
  std::vector<Task> tasks;
  for (Backend backend : backends) {
    if (std::string why; !backend_available(backend, &why)) {
      note_backend_not_run(backend, why, report);
      continue;
    }
    note_variants_not_on_backend(options, backend, report);
    std::vector<const Variant*> variants;
    for (const auto& v : all_variants()) {
      if (options.op && v.op != *options.op) continue;
      if (options.variant ? v.name != *options.variant : v.mutant) continue;
      if (not_on_backend(v, backend)) continue;  // noted above
      variants.push_back(&v);
    }
    for (const Variant* v : variants) tasks.push_back({backend, v, variants.size()});
  }
  if (slots.size() > 1)
    std::fprintf(stderr, "kverify check: %zu backend x variant runs on %zu %s side by side\n", tasks.size(),
                 slots.size(), slots.devices[0].empty() ? "processes" : "GPUs");
  std::vector<CheckReport> outcomes(tasks.size());
  run_on_slots(tasks.size(), slots, [&](std::size_t i, std::size_t slot) {
    outcomes[i] = check_variant(tasks[i].backend, *tasks[i].variant, tasks[i].variants_on_backend, options, sanitizer,
                                exe, slots.env(slot), slots.tag(slot));
  });
  std::map<std::string, std::size_t> row_of;
  for (const CheckReport& o : outcomes) {
    for (const auto& b : o.boundary) merge_boundary_row(report, row_of, b);
    report.properties.insert(report.properties.end(), o.properties.begin(), o.properties.end());
    report.failures.insert(report.failures.end(), o.failures.begin(), o.failures.end());
    report.notes.insert(report.notes.end(), o.notes.begin(), o.notes.end());
    report.testcases.insert(report.testcases.end(), o.testcases.begin(), o.testcases.end());
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return finish_check(options, report);
}

}  // namespace kverify
