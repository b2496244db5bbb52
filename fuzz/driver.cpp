#include "fuzz/driver.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/child_process.hpp"
#include "core/error.hpp"
#include "core/exit_codes.hpp"
#include "core/gpu_slots.hpp"
#include "core/home.hpp"
#include "core/input_file.hpp"
#include "fuzz/target_names.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"

extern char** environ;

namespace kverify {

bool fuzz_commands_dry_run = false;

namespace {

namespace fs = std::filesystem;

// --- where things are ------------------------------------------------------------------------

// kverify's files: the checkout of this build, or an installed package's data folder (core/home.hpp).
fs::path source_root() {
  std::error_code ec;
  return home().data.empty() ? fs::current_path(ec) : home().data;
}

// The fuzz tree: KVERIFY_FUZZ_BUILD, else <root>/build-fuzz (the fuzz preset's folder).
fs::path fuzz_build() {
  if (const char* b = std::getenv("KVERIFY_FUZZ_BUILD"); b && *b) return b;
  return source_root() / "build-fuzz";
}

fs::path binary_of(std::string_view target) { return fuzz_build() / "fuzz" / ("fuzz_" + std::string(target)); }

const fuzz::TargetName& target_named(std::string_view name) {
  const auto* t = fuzz::find_target_name(name);
  if (!t) throw InputError("unknown target '" + std::string(name) + "' (accepted: " + target_list() + ")");
  return *t;
}

// The libFuzzer options of a target (fuzz/options/<op|text>.options, OSS-Fuzz's format).
std::map<std::string, std::string> target_options(std::string_view target) {
  std::map<std::string, std::string> out;
  std::ifstream in(source_root() / "fuzz" / "options" / (target_named(target).options + ".options"));
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (line.empty() || line[0] == '[' || line[0] == '#' || eq == std::string::npos) continue;
    const auto trim = [](std::string s) {
      while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
      while (!s.empty() && s.front() == ' ') s.erase(s.begin());
      return s;
    };
    out[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
  }
  return out;
}

std::optional<std::string> last_match(const std::string& text, const std::regex& re, int group = 1) {
  std::optional<std::string> found;
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) found = (*it)[group].str();
  return found;
}

std::string sanitizer_env(const char* name, const char* defaults) {
  const char* current = std::getenv(name);
  return std::string(name) + "=" + (current && *current ? current : defaults);
}

// The Case line an input of an op target decodes to, via the binary's --replay output.
std::optional<std::string> case_line_of(const fs::path& bin, const fs::path& input,
                                        const std::vector<std::string>& env) {
  const ChildResult r = run_child({bin.string(), "--replay", input.string()}, {.env = env, .time_limit = 120});
  static const std::regex pinned("  case line: ([^\\n]+)");
  static const std::regex decoded("  case: ([^\\n]+?) \\.\\.\\. ");
  if (auto line = last_match(r.output, pinned)) return line;
  return last_match(r.output, decoded);
}

// --- kverify fuzz ----------------------------------------------------------------------------

// The checks the option table cannot make: a target by name, a variant of that target's op.
void validate(FuzzArgs& a) {
  for (const auto& flag : a.passthrough)
    if (flag.empty() || flag[0] != '-')
      throw InputError("after --, libFuzzer flags only (-name=value), not '" + flag + "'");
  a.target = std::string(target_named(a.target).name);
  if (a.target.empty()) throw InputError("no target given (accepted: " + target_list() + ")");
  if (a.variant) {
    const fuzz::TargetName& t = target_named(a.target);
    const OpSpec* op = find_op(a.target);
    if (!op && t.production)
      throw InputError("target " + a.target + " has no variants (--variant is for the op targets)");
    if (op) {
      std::string known;
      bool found = false;
      for (const auto& v : all_variants())
        if (v.op == op->name) {
          found = found || v.name == *a.variant;
          if (!v.mutant) known += (known.empty() ? "" : ", ") + std::string(v.name);
        }
      if (!found)
        throw InputError("--variant " + *a.variant + ": not a variant of " + a.target + " (accepted: " + known +
                         ", or a mutant of " + a.target + ": kverify list)");
    }
  }
}

// Without the fuzz tree: fuzz_run of this build (the same decoder and harness, no libFuzzer), on
// the target's corpus when there is one, mutations of it and random inputs; nothing guides it.
int run_without_fuzz_tree(const FuzzArgs& a, const fs::path& libfuzzer_binary) {
  std::error_code ec;
  const fs::path fuzz_run = fuzz_run_of_this_build();
  if (!fs::exists(fuzz_run, ec) || !a.passthrough.empty()) {  // libFuzzer's flags need libFuzzer
    std::fprintf(stderr,
                 "kverify fuzz: NOT RUN: %s is not built (./kverify fuzz builds the fuzz tree: cmake --preset fuzz), "
                 "nor this build's fuzz_run (%s: cmake --build <build> --target fuzz_run)\n",
                 libfuzzer_binary.c_str(), fuzz_run.c_str());
    return kNotRun;
  }
  const fs::path work = a.work ? fs::path(*a.work) : fs::current_path(ec) / "fuzz-work" / a.target;
  fs::create_directories(work / "artifacts", ec);
  if (ec) throw InputError("cannot create " + work.string() + ": " + ec.message());
  std::printf(
      "kverify fuzz: the fuzz tree (libFuzzer with coverage, clang) is not built (%s): %s runs through %s, "
      "the same decoder and Cases on the corpus, its mutations and random inputs, WITHOUT coverage guidance\n",
      libfuzzer_binary.c_str(), a.target.c_str(), fuzz_run.c_str());
  std::fflush(stdout);
  std::vector<std::string> args{
      fuzz_run.string(), a.target, "--time", std::to_string(a.seconds), "--artifacts", (work / "artifacts").string(),
      "--backend",       a.backend};
  if (a.variant) args.insert(args.end(), {"--variant", *a.variant});
  if (const fs::path corpus = source_root() / "corpus" / a.target; fs::exists(corpus, ec))
    args.push_back(corpus.string());
  const ChildResult r = run_child(args, {.echo = true});
  return r.signal ? 1 : r.exit_code;
}

int run_fuzz(const FuzzArgs& a) {
  const fs::path bin = binary_of(a.target);
  std::error_code ec;
  if (!fs::exists(bin, ec)) return run_without_fuzz_tree(a, bin);
  const fs::path root = source_root();
  const fs::path work = a.work ? fs::path(*a.work) : fuzz_build() / "fuzz-work" / a.target;
  const fs::path corpus = work / "corpus", artifacts = work / "artifacts";
  // A mutant's findings are expected: kept in the work folder, never as regression inputs.
  bool mutant = false;
  for (const auto& v : mutant_variants()) mutant = mutant || (a.variant && v.op == a.target && v.name == *a.variant);
  const fs::path keep = a.keep   ? fs::path(*a.keep)
                        : mutant ? work / "findings"
                                 : root / "corpus" / a.target / "regressions";
  fs::create_directories(corpus, ec);
  fs::create_directories(artifacts, ec);
  if (ec) throw InputError("cannot create " + work.string() + ": " + ec.message());

  const auto options = target_options(a.target);
  // The dictionary, generated by the binary from the tables it was built with.
  const fs::path dict = work / (a.target + ".dict");
  if (const ChildResult d = run_child({bin.string(), "--write-dict", dict.string()}, {.time_limit = 60});
      d.exit_code != 0) {
    std::fprintf(stderr, "kverify fuzz: %s --write-dict failed (exit %d): %s\n", bin.c_str(), d.exit_code,
                 d.output.c_str());
    return kFail;
  }
  std::vector<std::string> argv = {bin.string(), "-max_total_time=" + std::to_string(a.seconds), "-print_final_stats=1",
                                   "-artifact_prefix=" + (artifacts / "").string(), "-dict=" + dict.string()};
  for (const auto& [key, value] : options) argv.push_back("-" + key + "=" + value);
  if (a.jobs > 1) argv.push_back("-fork=" + std::to_string(a.jobs));
  argv.insert(argv.end(), a.passthrough.begin(), a.passthrough.end());
  argv.push_back(corpus.string());
  const fs::path seeds = root / "corpus" / a.target;
  if (fs::is_directory(seeds, ec)) argv.push_back(seeds.string());

  std::vector<std::string> env = {sanitizer_env("ASAN_OPTIONS", "detect_leaks=1:symbolize=1"),
                                  sanitizer_env("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1"),
                                  "KVERIFY_FUZZ_BACKEND=" + a.backend};
  if (a.variant) env.push_back("KVERIFY_FUZZ_VARIANT=" + *a.variant);
  if (a.backend == "cuda" && a.jobs > 1) {  // each job on a GPU of its own (fuzz/libfuzzer_main.cpp claims it)
    const auto visible = visible_devices(cuda_device_count());
    if (static_cast<std::size_t>(a.jobs) > visible.size())
      throw InputError("--jobs " + std::to_string(a.jobs) + " with --backend cuda puts each job on a GPU of its own: " +
                       std::to_string(visible.size()) + " visible here (accepted: --jobs 1 .. " +
                       std::to_string(std::max<std::size_t>(1, visible.size())) + ")");
    std::string list;
    for (long j = 0; j < a.jobs; ++j) list += (list.empty() ? "" : ",") + visible[static_cast<std::size_t>(j)];
    const fs::path locks = work / "gpu-locks";
    fs::create_directories(locks, ec);
    env.push_back("CUDA_VISIBLE_DEVICES=" + list);  // each job narrows it to the one it claims
    env.push_back("KVERIFY_FUZZ_GPU_LOCKS=" + locks.string());
  }

  std::string shown;
  for (const auto& s : argv) shown += (shown.empty() ? "" : " ") + s;
  std::fprintf(stderr, "kverify fuzz: %s\n", shown.c_str());
  std::ofstream log(work / "fuzz.log", std::ios::trunc);
  const auto start = std::chrono::steady_clock::now();
  const ChildResult r =
      run_child(argv, {.env = env, .echo = true, .time_limit = static_cast<double>(a.seconds) + 300, .log = &log});
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (r.exit_code == 2 || r.exit_code == 3) return r.exit_code;  // the binary's own one-line error / NOT RUN
  static const std::regex cov_re("cov: (\\d+)"), ft_re("ft: (\\d+)"), corp_re("corp: (\\d+)"),
      execs_re("stat::number_of_executed_units: (\\d+)"), rate_re("stat::average_exec_per_sec: (\\d+)"),
      fork_rate_re("exec/s:? (\\d+)"), runs_re("#(\\d+)"), artifact_re("Test unit written to ([^\\n]+)"),
      case_re("==kverify-fuzz== case: ([^\\n]+)");
  const auto get = [&](const std::regex& re) { return last_match(r.output, re).value_or("?"); };
  const std::string execs = last_match(r.output, execs_re).value_or(get(runs_re));
  // -fork=N prints no final stats and a per-interval exec/s: the rate is execs over the wall time.
  std::string rate = last_match(r.output, rate_re).value_or(get(fork_rate_re));
  if (a.jobs > 1 && execs != "?" && took > 0) rate = std::to_string(static_cast<long>(std::stod(execs) / took));
  std::string corpus_count =
      std::to_string(std::distance(fs::directory_iterator(corpus, ec), fs::directory_iterator()));
  std::printf("fuzz %s: %.0f s, %s execs (%s execs/s), coverage: %s edges, %s features; corpus: %s inputs in %s\n",
              a.target.c_str(), took, execs.c_str(), rate.c_str(), get(cov_re).c_str(), get(ft_re).c_str(),
              corpus_count.c_str(), corpus.c_str());

  // libFuzzer also writes an input slower than -report_slow_units (10 s) and goes on: under the
  // -timeout that makes a hang a finding, it is not one (a big Case on a busy machine).
  std::optional<std::string> artifact, slow_unit;
  for (std::sregex_iterator it(r.output.begin(), r.output.end(), artifact_re), end; it != end; ++it)
    (fs::path((*it)[1].str()).filename().string().starts_with("slow-unit-") ? slow_unit : artifact) = (*it)[1].str();
  if (!artifact) {
    if (r.exit_code == 0) {
      if (slow_unit)
        std::printf(
            "an input ran past libFuzzer's -report_slow_units (10 s unless set) and ended within -timeout "
            "(not a finding): %s\n",
            slow_unit->c_str());
      std::printf("no finding (log: %s)\n", (work / "fuzz.log").c_str());
      return 0;
    }
    std::printf("FINDING? libFuzzer exited %d%s without saving an input (log: %s)\n", r.exit_code,
                r.signal ? (" (signal " + std::to_string(r.signal) + ")").c_str() : "", (work / "fuzz.log").c_str());
    return kFail;
  }

  // A finding: minimize it, keep it with its Case line, print the line. Each of libFuzzer's
  // shrinking steps gets 2000 attempts (the step that cannot shrink ends it), within 15 s in all:
  // with the time alone the last, failing step always ran to the 15 s (the planted tail bug's 9
  // bytes: 6 either way, 2.8 s instead of 17 s).
  fs::path found = *artifact;
  if (found.is_relative()) found = fs::current_path() / found;
  fs::create_directories(keep, ec);
  const fs::path kept = keep / found.filename();
  std::vector<std::string> min_argv = {bin.string(), "-minimize_crash=1", "-runs=2000", "-max_total_time=15",
                                       "-exact_artifact_path=" + kept.string()};
  for (const auto& [key, value] : options)
    if (key == "timeout" || key == "max_len" || key == "rss_limit_mb") min_argv.push_back("-" + key + "=" + value);
  min_argv.push_back(found.string());
  std::ofstream min_log(work / "minimize.log", std::ios::trunc);
  const ChildResult m = run_child(min_argv, {.env = env, .time_limit = 300, .log = &min_log});
  std::string minimized = "minimized";
  if (!fs::exists(kept, ec)) {  // libFuzzer could not reproduce or shrink it: keep it as found
    fs::copy_file(found, kept, fs::copy_options::overwrite_existing, ec);
    minimized = "not minimized (see " + (work / "minimize.log").string() + ")";
  }
  const auto found_size = fs::file_size(found, ec), kept_size = fs::file_size(kept, ec);
  std::printf("FINDING in %s after %.0f s\n", a.target.c_str(), took);
  if (target_named(a.target).options == "op") {
    auto line = case_line_of(bin, kept, env);
    if (!line) line = last_match(r.output, case_re);
    if (line) {
      std::ofstream(kept.string() + ".case") << *line << "\n";
      std::printf("  case: %s\n", line->c_str());
      std::printf("  case line kept in %s.case\n", kept.c_str());
    }
  }
  std::printf("  input: %s (%s: %ju -> %ju bytes; found as %s)\n", kept.c_str(), minimized.c_str(),
              static_cast<std::uintmax_t>(found_size), static_cast<std::uintmax_t>(kept_size), found.c_str());
  std::printf("  replay: ./kverify replay %s --target %s\n", kept.c_str(), a.target.c_str());
  static_cast<void>(m);
  return kFail;
}

// --- kverify replay --------------------------------------------------------------------------

// The target a path belongs to: the last component that names one.
std::optional<std::string> target_of_path(const fs::path& p) {
  std::optional<std::string> found;
  for (const auto& part : fs::absolute(p).lexically_normal())
    if (fuzz::find_target_name(part.string())) found = part.string();
  return found;
}

// The Case of a .case file (a regression kept by `kverify fuzz`: one Case line), read as the target's
// replay reads it, so that an empty or malformed file is bad input (2) before anything is built or run.
Case case_of_file(const std::string& path) {
  constexpr std::size_t kMostCaseBytes = 1u << 20;  // one Case line; a corpus entry is at most kilobytes
  const std::string text = read_bounded(path, kMostCaseBytes, "a .case file of one Case line");
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(shown(path) + ": no Case line in it (accepted: a .case file of one Case line)");
  try {
    return parse_case(text);
  } catch (const InputError& e) {
    throw InputError(shown(path) + ": " + e.what());
  }
}

}  // namespace

std::string target_list() {
  std::string s;
  for (const auto& t : fuzz::target_names()) s += (s.empty() ? "" : ", ") + std::string(t.name);
  return s;
}

int fuzz_command(FuzzArgs a) {
  validate(a);
  if (fuzz_commands_dry_run) return 0;
  return run_fuzz(a);
}

int replay_command(const ReplayArgs& args) {
  std::optional<std::string> target;
  if (args.target) target = std::string(target_named(*args.target).name);
  const std::string& backend = args.backend;
  const std::vector<std::string>& paths = args.paths;
  if (paths.empty()) throw InputError("no file or folder given (e.g. ./kverify replay corpus)");
  if (fuzz_commands_dry_run) return 0;

  // (target, paths) in the order given; a folder without a target in its path: its target folders.
  std::vector<std::pair<std::string, std::vector<std::string>>> plan;
  const auto add = [&](const std::string& t, const std::string& p) {
    if (plan.empty() || plan.back().first != t) plan.push_back({t, {}});
    plan.back().second.push_back(p);
  };
  for (const auto& p : paths) {
    std::error_code ec;
    if (!fs::exists(p, ec)) throw InputError(shown(p) + " does not exist");
    const bool case_file = fs::path(p).extension() == ".case" && !fs::is_directory(p, ec);
    const std::optional<Case> line = case_file ? std::optional<Case>(case_of_file(p)) : std::nullopt;
    if (target) {
      add(*target, p);
    } else if (line && !target_of_path(p)) {  // a .case line names its op, and so its target
      add(std::string(line->op->name), p);
    } else if (target_of_path(p)) {
      add(*target_of_path(p), p);
    } else if (fs::is_directory(p, ec)) {
      bool any = false;
      std::vector<fs::path> subs;
      for (const auto& e : fs::directory_iterator(p, ec))
        if (e.is_directory() && fuzz::find_target_name(e.path().filename().string())) subs.push_back(e.path());
      std::sort(subs.begin(), subs.end());
      for (const auto& s : subs) add(s.filename().string(), s.string()), any = true;
      if (!any) throw InputError("'" + p + "' holds no target folder (" + target_list() + "); give --target T");
    } else {
      throw InputError("cannot tell which target '" + p +
                       "' is for (it is not under corpus/<target>/): give --target T");
    }
  }

  int findings = 0, errors = 0;
  std::vector<std::string> with_findings;
  for (const auto& [t, ps] : plan) {
    const fs::path bin = binary_of(t);
    std::error_code ec;
    if (!fs::exists(bin, ec)) {
      std::fprintf(stderr, "kverify replay: NOT RUN: %s is not built (./kverify replay builds the fuzz tree)\n",
                   bin.c_str());
      return kNotRun;
    }
    std::vector<std::string> argv = {bin.string(), "--replay"};
    argv.insert(argv.end(), ps.begin(), ps.end());
    std::printf("=== %s\n", t.c_str());
    const ChildResult r = run_child(
        argv, {.env = {"KVERIFY_FUZZ_BACKEND=" + backend, sanitizer_env("ASAN_OPTIONS", "detect_leaks=1:symbolize=1"),
                       sanitizer_env("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")},
               .capture = false,
               .time_limit = 3600});
    if (r.exit_code == 0) continue;
    if (r.exit_code == 2 || r.exit_code == 3) {
      ++errors;
      continue;
    }
    ++findings;
    with_findings.push_back(t);
    if (r.exit_code != 1)
      std::printf(
          "  the replay of %s ended with %s (a sanitizer report or a crash, above)\n", t.c_str(),
          r.signal ? ("signal " + std::to_string(r.signal)).c_str() : ("exit " + std::to_string(r.exit_code)).c_str());
  }
  std::string names;
  for (const auto& n : with_findings) names += (names.empty() ? "" : ", ") + n;
  std::printf("replay: %zu target(s); %s\n", plan.size(), findings ? ("findings in " + names).c_str() : "no finding");
  if (findings) return kFail;
  return errors ? kBadInput : kPass;
}

}  // namespace kverify
