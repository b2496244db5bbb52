// fuzz_run: the fuzz targets without libFuzzer, for builds where libFuzzer is not (g++, the
// statically linked GPU build with the cuda backend). No coverage guidance: it replays a corpus,
// then runs mutations of it and random inputs, through the very same harness and decoder.
//
//   fuzz_run <target> [--backend emu|cuda] [--variant V] [--time S] [--runs N] [--seed N]
//            [--artifacts DIR] [CORPUS...]
//   fuzz_run <target> --replay PATH...
//   fuzz_run --self-test [--runs N]     the decoder: every input decodes to a valid Case, and
//                                       encode(decode(x)) decodes to the same Case
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "fuzz/targets.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/fault_report.hpp"
#include "tools/options.hpp"

namespace {

using namespace kverify;
using namespace kverify::fuzz;
namespace fs = std::filesystem;

std::string target_list();

// fuzz_run's options: one table (tools/options.hpp), for --self-test and for a target's run.
constexpr cli::Option kOptions[] = {
    {"--self-test", "", cli::ValueKind::flag, "the decoder round trip on random inputs (give no target)"},
    {"--replay", "", cli::ValueKind::flag, "replay the inputs and .case lines given, with their verdicts"},
    {"--backend", "emu|cuda", cli::ValueKind::choice, "where the Cases run", "emu (or KVERIFY_FUZZ_BACKEND)",
     "emu|cuda"},
    {"--variant", "V", cli::ValueKind::variant, "only this variant of the target's op (a mutant of it too)"},
    {"--time", "S", cli::ValueKind::whole, "seconds to run", "60", "", 0, 7 * 24 * 3600},
    {"--runs", "N", cli::ValueKind::whole, "inputs to run (instead of --time; with --self-test: random inputs)", "", "",
     0, 1000000000},
    {"--seed", "N", cli::ValueKind::seed, "seed of the mutations and random inputs", "1"},
    {"--artifacts", "DIR", cli::ValueKind::text, "where a finding's input and its .case line go", "."},
};
constexpr cli::Operands kOperands{"[<target>] [CORPUS...]", 0, -1};

std::string usage() {
  return "usage: fuzz_run " + std::string(kOperands.usage) + " " + cli::usage_of(kOptions) +
         "\n  replays the corpus, then mutations and random inputs, without libFuzzer (the GPU build and CI)\n"
         "Options:\n" +
         cli::options_help(kOptions) + "Targets: " + target_list() +
         "\nExit: 0 no finding, 1 a finding, 2 bad input, 3 not run here (e.g. --backend cuda without a GPU).\n";
}

// The targets this binary runs (the cli target needs the kverify command line: fuzz tree only).
std::string target_list() {
  std::string s;
  for (const auto& t : target_names())
    if (t.name != "cli") s += (s.empty() ? "" : ", ") + t.name;
  return s;
}

std::vector<std::uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string hex_name(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (auto b : bytes) h = (h ^ b) * 1099511628211ull;
  char buf[32];
  std::snprintf(buf, sizeof buf, "finding-%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string finding_heading(std::string_view target, long execs, double seconds) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "FINDING in %.*s after %ld execs (%.1f s)\n", static_cast<int>(target.size()),
                target.data(), execs, seconds);
  return buf;
}

std::string finding_tail(const std::string& case_line, const fs::path& input) {
  return "  case: " + case_line + "\n  input: " + input.string() + "\n";
}

// A kernel that crashes the process (emu: a wild write is a SIGSEGV here) is a finding too: the
// handlers write the input that ran and its Case line where a returned finding's go, and print the
// same FINDING lines, as libFuzzer keeps its crash inputs.
void prepare_crash_report(const Target& t, const std::vector<std::uint8_t>& input, const RunOptions& o, long exec,
                          double seconds, const fs::path& artifacts) {
  const fs::path out = artifacts / hex_name(input);
  const std::string case_line = decode_only(t, input.data(), input.size(), o);
  const std::string case_file = case_line + "\n";
  report_faults({.before = finding_heading(t.name, exec, seconds) + kCrashHeading,
                 .after = kCrashCauses + finding_tail(case_line, out),
                 .files = {{out.string(), input},
                           {out.string() + ".case", std::vector<std::uint8_t>(case_file.begin(), case_file.end())}}});
}

// The --time budget holds even while one input runs long: at the deadline the watcher prints the
// summary of the inputs that finished (the one still running is not counted) and ends the process.
// Whoever ends the run first (the watcher, a finding, the loop) claims `ending`.
class Deadline {
 public:
  Deadline(double seconds, std::function<void()> on_expiry)
      : watcher_([this, seconds, on_expiry = std::move(on_expiry)] {
          std::unique_lock lock(mutex_);
          if (changed_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return stopped_; })) return;
          if (claim()) {
            on_expiry();
            std::fflush(stdout);
            _exit(0);
          }
        }) {}
  ~Deadline() {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    changed_.notify_all();
    watcher_.join();
  }
  // True for the first caller only; a later caller waits for the process to end.
  static bool claim() {
    static std::atomic<bool> ending{false};
    return !ending.exchange(true);
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopped_ = false;
  std::thread watcher_;
};

int self_test(long runs) {
  std::mt19937_64 rng(2026);
  long checked = 0;
  // The decoder draws every field of the Case table, each once (a new field must get a coder).
  std::vector<std::string> table, decoded;
  for (const auto& f : kCaseFields) table.emplace_back(f.key);
  for (auto key : decoder_fields()) decoded.emplace_back(key);
  std::sort(table.begin(), table.end());
  std::sort(decoded.begin(), decoded.end());
  if (table != decoded) {
    std::string a, b;
    for (const auto& k : table) a += " " + k;
    for (const auto& k : decoded) b += " " + k;
    std::printf("FAIL: the decoder's fields (%s ) are not the Case table's (%s )\n", b.c_str(), a.c_str());
    return 1;
  }
  for (const auto& name : target_names()) {
    const Target* t = find_target(name.name);
    if (!t || t->kind != Kind::op) continue;
    const DecodeOptions o = decode_options(*t, RunOptions{});
    const auto check = [&](const std::vector<std::uint8_t>& bytes) -> bool {
      try {
        const Decoded d = decode_case(bytes.data(), bytes.size(), o);
        const auto again = encode_case(d.c, o);
        const Decoded back = decode_case(again.data(), again.size(), o);
        if (!(back.c == d.c)) {
          std::printf("FAIL %s: '%s' re-encodes to '%s'\n", t->name.data(), d.c.to_text().c_str(),
                      back.c.to_text().c_str());
          return false;
        }
        if (d.c.to_text().find("backend=emu") == std::string::npos) {
          std::printf("FAIL %s: '%s' does not pin the backend\n", t->name.data(), d.c.to_text().c_str());
          return false;
        }
      } catch (const std::exception& e) {
        std::printf("FAIL %s: %s\n", t->name.data(), e.what());
        return false;
      }
      ++checked;
      return true;
    };
    if (!check({})) return 1;
    for (long i = 0; i < runs; ++i) {
      std::vector<std::uint8_t> bytes(rng() % 80);
      for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
      if (!check(bytes)) return 1;
    }
    for (const auto& line : seed_lines(*t)) {
      try {
        const auto bytes = encode_case(parse_case(line), o);
        const Decoded d = decode_case(bytes.data(), bytes.size(), o);
        Case want = parse_case(line);
        want.backend = Backend::emu;
        if (!(d.c == want)) {
          std::printf("FAIL %s: seed '%s' decodes to '%s'\n", t->name.data(), line.c_str(), d.c.to_text().c_str());
          return 1;
        }
        ++checked;
      } catch (const std::exception& e) {
        std::printf("FAIL %s: seed '%s': %s\n", t->name.data(), line.c_str(), e.what());
        return 1;
      }
    }
  }
  std::printf("decoder self-test: %ld inputs and seeds decoded to valid Cases that re-encode exactly\n", checked);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> arg_views(argv + 1, argv + argc);
  for (auto a : arg_views)
    if (a == "--help" || a == "-h") {
      std::printf("%s", usage().c_str());
      return 0;
    }
  if (arg_views.empty()) {
    std::printf("%s", usage().c_str());
    return 2;
  }
  try {
    const cli::ParsedOptions p = cli::parse("fuzz_run", kOptions, kOperands, arg_views);
    if (p.has("--self-test")) {
      if (!p.operands.empty()) throw InputError("--self-test takes no target (accepted: --self-test [--runs N])");
      return self_test(p.whole("--runs", 20000));
    }
    if (p.operands.empty()) throw InputError("no target given (accepted: " + target_list() + ")");
    std::vector<std::string> args = p.operands;
    const Target* target = find_target(args[0]);
    if (!target || target->kind == Kind::cli || target->kind == Kind::report_json)
      throw InputError("unknown target " + shown(args[0]) + " (accepted: " + target_list() + ")");
    RunOptions options = options_from_environment(*target);
    if (const auto b = p.get("--backend")) options.backend = *b == "cuda" ? Backend::cuda : Backend::emu;
    const double seconds = static_cast<double>(p.whole("--time", 60));
    const long runs = static_cast<long>(p.whole("--runs", -1));
    const std::uint64_t seed = p.seed("--seed", 1);
    const std::string artifacts = p.text("--artifacts", ".");
    const std::vector<std::string> paths(args.begin() + 1, args.end());
    const bool replay_only = p.has("--replay");
    const std::string variant_name = p.text("--variant", "");
    if (!variant_name.empty()) options.pinned = variant_for(*target, variant_name, options.backend);
    if (std::string why; !backend_available(options.backend, &why)) {
      std::printf("fuzz_run %s: NOT RUN: backend %s is not available here: %s\n", args[0].c_str(),
                  std::string(name(options.backend)).c_str(), why.c_str());
      return 3;
    }
    if (replay_only) {
      if (paths.empty()) throw InputError("--replay needs files or folders");
      return replay(*target, paths, options);
    }

    // The corpus first (each input once), then mutations of it and random inputs.
    std::vector<std::vector<std::uint8_t>> corpus;
    for (const auto& p : paths) {
      std::error_code ec;
      if (fs::is_directory(p, ec)) {
        for (const auto& e : fs::recursive_directory_iterator(p, ec))
          if (e.is_regular_file() && e.path().extension() != ".case") corpus.push_back(read_bytes(e.path()));
      } else if (fs::is_regular_file(p, ec)) {
        corpus.push_back(read_bytes(p));
      } else {
        throw InputError("cannot read '" + p + "'");
      }
    }
    std::mt19937_64 rng(seed);
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    std::atomic<long> execs = 0;
    const auto summary = [&] {
      std::printf("fuzz_run %s on %s: %ld execs in %.1f s (%.1f execs/s; the %zu corpus inputs first), no finding\n",
                  args[0].c_str(), std::string(name(options.backend)).c_str(), execs.load(), elapsed(),
                  execs / std::max(elapsed(), 1e-9), corpus.size());
    };
    std::error_code dir_error;
    fs::create_directories(artifacts, dir_error);
    std::optional<Deadline> deadline;
    if (runs < 0) deadline.emplace(seconds, summary);
    double next_report = 10;
    while (true) {
      if (runs >= 0 && execs >= runs) break;
      if (runs < 0 && elapsed() >= seconds) break;
      std::vector<std::uint8_t> input;
      if (static_cast<std::size_t>(execs) < corpus.size()) {
        input = corpus[static_cast<std::size_t>(execs)];
      } else if (!corpus.empty() && rng() % 2 == 0) {
        input = corpus[rng() % corpus.size()];
        for (int m = 0, n = 1 + static_cast<int>(rng() % 4); m < n; ++m) {
          const auto op = rng() % 3;
          if (op == 0 && !input.empty())
            input[rng() % input.size()] = static_cast<std::uint8_t>(rng());
          else if (op == 1 && input.size() < 64)
            input.insert(input.begin() + static_cast<long>(rng() % (input.size() + 1)),
                         static_cast<std::uint8_t>(rng()));
          else if (!input.empty())
            input.erase(input.begin() + static_cast<long>(rng() % input.size()));
        }
      } else {
        input.resize(rng() % 48);
        for (auto& b : input) b = static_cast<std::uint8_t>(rng());
      }
      prepare_crash_report(*target, input, options, execs + 1, elapsed(), artifacts);
      const InputResult r = run_input(*target, input.data(), input.size(), options);
      if (r.finding) {
        if (!Deadline::claim()) pause();  // the watcher is ending the run
        const fs::path out = fs::path(artifacts) / hex_name(input);
        std::ofstream(out, std::ios::binary)
            .write(reinterpret_cast<const char*>(input.data()), static_cast<long>(input.size()));
        if (!r.case_line.empty()) std::ofstream(out.string() + ".case") << r.case_line << "\n";
        std::printf("%s%s\n%s", finding_heading(args[0], execs + 1, elapsed()).c_str(), r.report.c_str(),
                    finding_tail(r.case_line, out).c_str());
        std::fflush(stdout);
        _exit(1);  // the watcher may be waiting: no destructors
      }
      ++execs;
      if (elapsed() >= next_report) {
        std::printf("  %s on %s: %ld execs, %.0f s, %.1f execs/s\n", args[0].c_str(),
                    std::string(name(options.backend)).c_str(), execs.load(), elapsed(), execs / elapsed());
        std::fflush(stdout);
        next_report += 10;
      }
    }
    if (!Deadline::claim()) pause();
    summary();
    return 0;
  } catch (const InputError& e) {
    std::fprintf(stderr, "fuzz_run: %s\n", e.what());
    return 2;
  }
}
