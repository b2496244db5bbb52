#include "mutation/mutants.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "core/child_process.hpp"
#include "core/error.hpp"
#include "core/json.hpp"
#include "core/output_file.hpp"
#include "core/progress.hpp"
#include "kernels/registry.hpp"
#include "mutation/kernelbench.hpp"
#include "mutation/self_test.hpp"
#include "pipeline/execute.hpp"

namespace kverify {
namespace {

// The short fuzz of one mutant: fuzz_run (the fuzz targets' harness and decoder without libFuzzer:
// the op's corpus, then mutations of it and random inputs) on the mutant's op target, pinned to
// the mutant, for at most --fuzz-time seconds.
struct ShortFuzz {
  std::string status = "not run";  // killed, survived, or "not run: <why>"
  long execs = 0;
  double seconds = 0;
  std::string case_line;  // the finding's decoded Case
};

namespace fs = std::filesystem;

// fuzz_run of this build tree (build/tools/kverify -> build/fuzz/fuzz_run), or KVERIFY_FUZZ_RUN.
fs::path fuzz_run_binary() {
  if (const char* p = std::getenv("KVERIFY_FUZZ_RUN"); p && *p) return p;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path("fuzz_run") : exe.parent_path().parent_path() / "fuzz" / "fuzz_run";
}

// The op's seed corpus (corpus/<op>/ of the source tree), when it is there.
fs::path corpus_of(const std::string& op) {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::is_directory(exe.parent_path().parent_path().parent_path() / "corpus" / op, ec))
    return exe.parent_path().parent_path().parent_path() / "corpus" / op;
#ifdef KVERIFY_SOURCE_DIR
  if (fs::is_directory(fs::path(KVERIFY_SOURCE_DIR) / "corpus" / op, ec))
    return fs::path(KVERIFY_SOURCE_DIR) / "corpus" / op;
#endif
  return {};
}

ShortFuzz short_fuzz(const Variant& v, Backend backend, std::uint64_t seed, int seconds, const fs::path& artifacts) {
  ShortFuzz f;
  const fs::path bin = fuzz_run_binary();
  std::error_code ec;
  if (!fs::exists(bin, ec)) {
    f.status = "not run: " + bin.string() + " is not built";
    return f;
  }
  std::vector<std::string> argv = {bin.string(), std::string(v.op),    "--backend",   std::string(name(backend)),
                                   "--variant",  std::string(v.name),  "--time",      std::to_string(seconds),
                                   "--seed",     std::to_string(seed), "--artifacts", artifacts.string()};
  if (const fs::path corpus = corpus_of(std::string(v.op)); !corpus.empty()) argv.push_back(corpus.string());
  ChildResult r;
  try {
    r = run_child(argv, {.time_limit = static_cast<double>(seconds) + 120});
  } catch (const std::exception& e) {
    f.status = std::string("not run: ") + e.what();
    return f;
  }
  const std::string& out = r.output;
  std::smatch m;
  if (r.exit_code == 1 &&
      std::regex_search(out, m, std::regex("FINDING in \\S+ after (\\d+) execs \\(([0-9.]+) s\\)"))) {
    f.status = "killed";
    f.execs = std::stol(m[1]);
    f.seconds = std::stod(m[2]);
    if (std::regex_search(out, m, std::regex("\n  case: ([^\n]*)"))) f.case_line = m[1];
  } else if (r.exit_code == 0 && std::regex_search(out, m, std::regex(": (\\d+) execs in ([0-9.]+) s"))) {
    f.status = "survived";
    f.execs = std::stol(m[1]);
    f.seconds = std::stod(m[2]);
  } else {
    const std::string last = out.substr(0, out.find('\n'));
    f.status = "not run: fuzz_run exit " + std::to_string(r.exit_code) + (last.empty() ? "" : ": " + last);
  }
  return f;
}

struct Row {
  std::string op, name, bug;
  properties::Kill kill;
  std::string shrunk;  // the failing Case line, pinned
  properties::KernelBenchResult kb_f32, kb_bf16;
  ShortFuzz fuzz;
};

std::string shrunk_case(const std::string& counterexample) {
  const std::string marker = "reproduce: ./kverify run '";
  const auto at = counterexample.find(marker);
  if (at == std::string::npos) return "";
  const auto start = at + marker.size();
  return counterexample.substr(start, counterexample.find('\'', start) - start);
}

}  // namespace

int run_mutants(const MutantsOptions& o) {
  const Backend backend = o.backend;
  const std::uint64_t seed = o.seed;
  const int budget = o.budget;
  const int fuzz_time = o.fuzz_time;
  std::string out_dir = o.out_dir;
  if (std::string why; !backend_available(backend, &why)) {
    std::printf("NOT RUN  %s: %s\n", std::string(name(backend)).c_str(), why.c_str());
    return 3;
  }
  if (out_dir.empty()) out_dir = "reports/" + std::string(backend == Backend::emu ? "emu" : "h200");
  {
    std::error_code ec;  // the outputs' folder, checked before the minutes of the self-test
    std::filesystem::create_directories(out_dir, ec);
    if (const auto problem = output_path_problem(out_dir + "/mutants.json")) throw InputError("--out: " + *problem);
  }

  std::vector<Row> rows;
  int survivors = 0, fuzz_killed = 0, fuzz_ran = 0;
  std::error_code tmp_ec;
  const fs::path artifacts = fs::temp_directory_path(tmp_ec) / ("kverify-mutants-fuzz-" + std::to_string(getpid()));
  std::vector<const Variant*> selected;
  for (const auto& v : mutant_variants())
    if (!killed_by_gpu_tools(v)) selected.push_back(&v);  // those: compute-sanitizer, fault isolation, huge Cases
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const Variant& v = *selected[i];
    Row row{std::string(v.op), std::string(v.name), std::string(v.strategy)};
    const double so_far = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string left =
        time_left(static_cast<std::int64_t>(i), static_cast<std::int64_t>(selected.size()), so_far);
    std::fprintf(stderr, "  [%zu/%zu%s%s] %s/%s ...", i + 1, selected.size(), left.empty() ? "" : ", ", left.c_str(),
                 row.op.c_str(), row.name.c_str());
    row.kill = properties::kill_mutant(v, backend, seed, budget);
    row.shrunk = shrunk_case(row.kill.counterexample);
    row.kb_f32 = properties::kernelbench_check(v, DType::f32, backend);
    row.kb_bf16 = properties::kernelbench_check(v, DType::bf16, backend);
    survivors += !row.kill.killed;
    std::fprintf(stderr, " %s", row.kill.killed ? ("killed by " + row.kill.property).c_str() : "SURVIVED");
    if (fuzz_time > 0) {
      std::fprintf(stderr, "; short fuzz ...");
      row.fuzz = short_fuzz(v, backend, seed, fuzz_time, artifacts);
      fuzz_ran += row.fuzz.status == "killed" || row.fuzz.status == "survived";
      fuzz_killed += row.fuzz.status == "killed";
      std::fprintf(stderr, " %s", row.fuzz.status.c_str());
    } else {
      row.fuzz.status = "not run: --fuzz-time 0";
    }
    std::fprintf(stderr, "\n");
    rows.push_back(row);
  }

  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));

  std::string md = "# Mutation self-test (" + std::string(name(backend)) + ", " + date + ", seed " +
                   std::to_string(seed) + ", " + std::to_string(budget) +
                   " cases per property)\n\n"
                   "| mutant | bug class | catalogue | first property to fail | cases | seconds | shrunk Case | "
                   "KernelBench-style f32 | KernelBench-style bf16 |\n|---|---|---|---|---|---|---|---|---|\n";
  int kb_caught_f32 = 0, kb_caught_bf16 = 0, kb_applies_f32 = 0, kb_applies_bf16 = 0;
  const auto kb_cell = [](const properties::KernelBenchResult& k) {
    return std::string(!k.applies ? "n/a" : k.caught ? "caught" : "**passed**");
  };
  for (const auto& r : rows) {
    char secs[16];
    std::snprintf(secs, sizeof secs, "%.2f", r.kill.seconds);
    kb_caught_f32 += r.kb_f32.caught;
    kb_caught_bf16 += r.kb_bf16.caught;
    kb_applies_f32 += r.kb_f32.applies;
    kb_applies_bf16 += r.kb_bf16.applies;
    md += "| " + r.op + "/" + r.name + " | " + r.bug + " | " + (r.kill.killed ? "killed" : "**survived**") + " | " +
          r.kill.property + " | " + std::to_string(r.kill.cases) + " | " + secs + " | `" + r.shrunk + "` | " +
          kb_cell(r.kb_f32) + " | " + kb_cell(r.kb_bf16) + " |\n";
  }
  md += "\nCatalogue: " + std::to_string(rows.size() - survivors) + " of " + std::to_string(rows.size()) +
        " killed. KernelBench-style check (5 random normal trials at one power-of-two shape, allclose 1e-4 f32 / "
        "1e-2 bf16): " +
        std::to_string(kb_caught_f32) + " of " + std::to_string(kb_applies_f32) + " caught in f32, " +
        std::to_string(kb_caught_bf16) + " of " + std::to_string(kb_applies_bf16) +
        " in bf16 (n/a: the mutant does not take that dtype).\n";

  md +=
      "\n## Short fuzz (" +
      (fuzz_time > 0 ? "fuzz_run, at most " + std::to_string(fuzz_time) + " s per mutant" : std::string("not run")) +
      ")\n\nThe mutant's op target of fuzz/ pinned to the mutant (fuzz_run --variant: the op's corpus, then mutations "
      "and random inputs, no coverage guidance), seed " +
      std::to_string(seed) +
      ".\n\n"
      "| mutant | short fuzz | execs | seconds | the finding's Case |\n|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    char secs[16];
    std::snprintf(secs, sizeof secs, "%.1f", r.fuzz.seconds);
    const bool ran = r.fuzz.status == "killed" || r.fuzz.status == "survived";
    md += "| " + r.op + "/" + r.name + " | " + (r.fuzz.status == "survived" ? "**survived**" : r.fuzz.status) + " | " +
          (ran ? std::to_string(r.fuzz.execs) : "") + " | " + (ran ? secs : "") + " | " +
          (r.fuzz.case_line.empty() ? "" : "`" + r.fuzz.case_line + "`") + " |\n";
  }
  md += "\nShort fuzz: " + std::to_string(fuzz_killed) + " of " + std::to_string(fuzz_ran) + " fuzzed mutants killed" +
        (fuzz_ran < static_cast<int>(rows.size()) ? " (" + std::to_string(rows.size() - fuzz_ran) + " not run)" : "") +
        ". Informational: the exit status is the catalogue's.\n";
  fs::remove_all(artifacts, tmp_ec);

  Json j = {{"backend", std::string(name(backend))},
            {"date", date},
            {"seed", seed},
            {"cases_per_property", budget},
            {"short_fuzz_seconds", fuzz_time}};
  const auto kb = [](const properties::KernelBenchResult& k) { return k.applies ? Json(k.caught) : Json(nullptr); };
  Json& list = j["mutants"] = Json::array();
  for (const auto& r : rows)
    list.push_back({{"op", r.op},
                    {"mutant", r.name},
                    {"bug", r.bug},
                    {"killed", r.kill.killed},
                    {"property", r.kill.property},
                    {"cases", r.kill.cases},
                    {"seconds", r.kill.seconds},
                    {"shrunk_case", r.shrunk},
                    {"kernelbench_f32_caught", kb(r.kb_f32)},
                    {"kernelbench_bf16_caught", kb(r.kb_bf16)},
                    {"short_fuzz",
                     {{"status", r.fuzz.status},
                      {"execs", r.fuzz.execs},
                      {"seconds", r.fuzz.seconds},
                      {"case", r.fuzz.case_line}}}});
  for (const auto& [file, text] :
       {std::pair{out_dir + "/mutants.md", md}, std::pair{out_dir + "/mutants.json", json_text(j)}})
    if (const auto error = write_output_file(file, text)) {
      std::fprintf(stderr, "kverify mutants: %s\n", error->c_str());
      return 2;
    }
  std::printf("%s\nwritten: %s/mutants.md, %s/mutants.json\n", md.c_str(), out_dir.c_str(), out_dir.c_str());
  return survivors > 0 ? 1 : 0;
}

}  // namespace kverify
