#include "mutation/mutants.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include "core/child_process.hpp"
#include "core/error.hpp"
#include "core/exit_codes.hpp"
#include "core/gpu_slots.hpp"
#include "core/home.hpp"
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

// argv[0] of its own children.
std::string program() {
  const std::string exe = this_program();
  return exe.empty() ? "kverify" : exe;
}

// fuzz_run of this build, or KVERIFY_FUZZ_RUN.
fs::path fuzz_run_binary() {
  if (const char* p = std::getenv("KVERIFY_FUZZ_RUN"); p && *p) return p;
  return fuzz_run_of_this_build();
}

// The op's seed corpus (corpus/<op>/ of kverify's files: core/home.hpp), when it is there.
fs::path corpus_of(const std::string& op) {
  std::error_code ec;
  const fs::path corpus = home().data / "corpus" / op;
  return !home().data.empty() && fs::is_directory(corpus, ec) ? corpus : fs::path();
}

ShortFuzz short_fuzz(const Variant& v, const MutantsOptions& o, const fs::path& artifacts) {
  ShortFuzz f;
  if (o.fuzz_time <= 0) {
    f.status = "not run: --fuzz-time 0";
    return f;
  }
  const Backend backend = o.backend;
  const std::uint64_t seed = o.seed;
  const int seconds = o.fuzz_time;
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
    // A mutant seen only as an accuracy note is a finding of the short fuzz too (as in the catalogue).
    r = run_child(argv, {.env = {"KVERIFY_STRICT=1"}, .time_limit = static_cast<double>(seconds) + 120});
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

// What one GPU-side tool did to a mutant: "killed", "passed", "values" (its Cases failed on values
// while the tool itself reported nothing), "not run: <why>", or "" (not tried: something before
// it killed the mutant).
struct ToolRun {
  std::string status, detail;
};

struct Row {
  std::string op, name, bug;
  properties::Kill kill;
  std::string shrunk;  // the failing Case line, pinned
  properties::KernelBenchResult kb_f32, kb_bf16;
  ShortFuzz fuzz;
  std::vector<ToolRun> tools;  // one per kGpuTools entry
  std::string first_kill;      // "catalogue", a tool's name, or "" (survived everything tried)
  bool finished = true;        // false: its process ended before its row was complete
};

std::string shrunk_case(const std::string& counterexample) {
  const std::string marker = "reproduce: ./kverify run '";
  const auto at = counterexample.find(marker);
  if (at == std::string::npos) return "";
  const auto start = at + marker.size();
  return counterexample.substr(start, counterexample.find('\'', start) - start);
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// A compute-sanitizer tool on the mutant: one property's Cases (the op's reference agreement, in
// the mutant's first dtype) through `kverify check --sanitize`, whose failures say which were the
// tool's.
constexpr int kToolCases = 3;
ToolRun sanitizer_run(const Variant& v, std::string_view tool, std::uint64_t seed, const fs::path& scratch) {
  DType dtype = DType::f32;
  for (const DType d : {DType::f32, DType::bf16, DType::f16})
    if (v.supports(d)) {
      dtype = d;
      break;
    }
  const fs::path json = scratch / (std::string(v.name) + "-" + std::string(tool) + ".json");
  const std::vector<std::string> argv = {program(),
                                         "check",
                                         "--backend",
                                         "cuda",
                                         "--sanitize",
                                         std::string(tool),
                                         "--variant",
                                         std::string(v.name),
                                         "--dtype",
                                         std::string(name(dtype)),
                                         "--property",
                                         std::string(v.op) + ".reference_agreement",
                                         "--properties-only",
                                         "--budget",
                                         std::to_string(kToolCases),
                                         "--seed",
                                         std::to_string(seed),
                                         "--json",
                                         json.string()};
  ChildResult r;
  try {
    r = run_child(argv, {.time_limit = 600});
  } catch (const std::exception& e) {
    return {"not run: " + std::string(e.what()), ""};
  }
  if (r.exit_code == 0) return {"passed", ""};
  if (r.exit_code != 1) {
    const std::string last = first_line(r.output);
    return {"not run: check exit " + std::to_string(r.exit_code) + (last.empty() ? "" : ": " + last), ""};
  }
  std::string values;
  try {
    std::ifstream in(json);
    const Json j = Json::parse(in);
    for (const auto& f : j.at("failures")) {
      const std::string what = f.at("what").get<std::string>(), message = f.at("message").get<std::string>();
      if (what == "compute-sanitizer " + std::string(tool)) {
        const auto bar = message.find("\n  | ");
        return {"killed", bar == std::string::npos ? first_line(message) : first_line(message.substr(bar + 5))};
      }
      if (values.empty()) values = first_line(message);
    }
  } catch (const std::exception& e) {
    return {"not run: " + json.string() + " unreadable (" + e.what() + ")", ""};
  }
  return {"values", values};
}

// `kverify huge --variant <mutant>`: exit 0 when the mutant was caught, 1 when it survived.
ToolRun huge_run(const Variant& v) {
  ChildResult r;
  try {
    r = run_child({program(), "huge", "--backend", "cuda", "--variant", std::string(v.name)}, {.time_limit = 900});
  } catch (const std::exception& e) {
    return {"not run: " + std::string(e.what()), ""};
  }
  std::smatch m;
  if (r.exit_code == 0) return {"killed", ""};
  if (r.exit_code == 1) return {"passed", ""};
  const std::string why =
      std::regex_search(r.output, m, std::regex("NOT RUN[^\n]*")) ? m[0].str() : first_line(r.output);
  return {"not run: huge exit " + std::to_string(r.exit_code) + (why.empty() ? "" : ": " + why), ""};
}

// One mutant, here.
Row run_here(const Variant& v, const MutantsOptions& o, const fs::path& scratch) {
  Row row{std::string(v.op), std::string(v.name), std::string(v.strategy)};
  row.kill = properties::kill_mutant(v, o.backend, o.seed, o.budget);
  row.shrunk = shrunk_case(row.kill.counterexample);
  row.kb_f32 = properties::kernelbench_check(v, DType::f32, o.backend);
  row.kb_bf16 = properties::kernelbench_check(v, DType::bf16, o.backend);
  if (row.kill.killed) row.first_kill = "catalogue";
  for (const GpuTool& tool : kGpuTools) {
    ToolRun t;
    if (o.backend != Backend::cuda)
      t.status = "n/a";
    else if (!o.gpu_tools)
      t.status = "not run: --no-gpu-tools";
    else if (row.first_kill.empty()) {
      t = tool.name == "huge" ? huge_run(v) : sanitizer_run(v, tool.name, o.seed, scratch);
      if (t.status == "killed") row.first_kill = std::string(tool.name);
    }
    row.tools.push_back(t);
  }
  row.fuzz = short_fuzz(v, o, scratch / "fuzz");
  return row;
}

Json row_json(const Row& r) {
  const auto kb = [](const properties::KernelBenchResult& k) { return k.applies ? Json(k.caught) : Json(nullptr); };
  Json tools = Json::object();
  for (std::size_t i = 0; i < r.tools.size(); ++i)
    tools[std::string(kGpuTools[i].name)] = {{"status", r.tools[i].status}, {"detail", r.tools[i].detail}};
  return {
      {"op", r.op},
      {"mutant", r.name},
      {"bug", r.bug},
      {"killed", r.kill.killed},
      {"killed_by_accuracy_note", r.kill.by_note},
      {"property", r.kill.property},
      {"cases", r.kill.cases},
      {"seconds", r.kill.seconds},
      {"shrunk_case", r.shrunk},
      {"kernelbench_f32_caught", kb(r.kb_f32)},
      {"kernelbench_bf16_caught", kb(r.kb_bf16)},
      {"gpu_tools", tools},
      {"first_kill", r.first_kill},
      {"finished", r.finished},
      {"short_fuzz",
       {{"status", r.fuzz.status}, {"execs", r.fuzz.execs}, {"seconds", r.fuzz.seconds}, {"case", r.fuzz.case_line}}}};
}

Row row_from_json(const Json& j) {
  Row r{j.at("op"), j.at("mutant"), j.at("bug")};
  r.kill.killed = j.at("killed");
  r.kill.by_note = j.value("killed_by_accuracy_note", false);
  r.kill.property = j.at("property");
  r.kill.cases = j.at("cases");
  r.kill.seconds = j.at("seconds");
  r.shrunk = j.at("shrunk_case");
  for (auto [key, kb] :
       {std::pair{"kernelbench_f32_caught", &r.kb_f32}, std::pair{"kernelbench_bf16_caught", &r.kb_bf16}}) {
    kb->applies = !j.at(key).is_null();
    kb->caught = kb->applies && j.at(key).get<bool>();
  }
  for (const GpuTool& tool : kGpuTools) {
    const Json& t = j.at("gpu_tools").at(std::string(tool.name));
    r.tools.push_back({t.at("status"), t.at("detail")});
  }
  r.first_kill = j.at("first_kill");
  const Json& f = j.at("short_fuzz");
  r.fuzz = {f.at("status"), f.at("execs"), f.at("seconds"), f.at("case")};
  return r;
}

// One mutant in a child process (`kverify mutants --here --only op/name`): its row from the child's JSON;
// a child that dies says how, in the catalogue's cell (a mutant that faults the GPU or crashes the
// program is killed: the catalogue's own isolation turns the same into a failing Verdict).
Row run_isolated(const Variant& v, const MutantsOptions& o, const fs::path& scratch,
                 const std::vector<std::string>& env) {
  const fs::path dir = scratch / std::string(v.name);
  std::vector<std::string> argv = {program(),
                                   "mutants",
                                   "--here",
                                   "--only",
                                   std::string(v.op) + "/" + std::string(v.name),
                                   "--backend",
                                   std::string(name(o.backend)),
                                   "--seed",
                                   std::to_string(o.seed),
                                   "--budget",
                                   std::to_string(o.budget),
                                   "--fuzz-time",
                                   std::to_string(o.fuzz_time),
                                   "--out",
                                   dir.string()};
  if (!o.gpu_tools) argv.push_back("--no-gpu-tools");
  ChildResult r;
  std::string how;
  try {
    r = run_child(argv, {.env = env, .time_limit = 3600});
    if (r.exit_code == 0 || r.exit_code == 1) {
      std::ifstream in(dir / "mutants.json");
      const Json j = Json::parse(in);
      return row_from_json(j.at("mutants").at(0));
    }
    how = r.timed_out ? "timed out after 3600 s"
          : r.signal  ? "ended by signal " + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")"
                      : "exit " + std::to_string(r.exit_code);
  } catch (const std::exception& e) {
    how = std::string("no report: ") + e.what();
  }
  Row row{std::string(v.op), std::string(v.name), std::string(v.strategy)};
  std::string said;
  for (std::size_t at = 0; at < r.output.size();) {  // the child's last non-progress line
    const std::size_t end = std::min(r.output.find('\n', at), r.output.size());
    const std::string line = r.output.substr(at, end - at);
    if (!line.empty() && !line.starts_with("  [")) said = line;
    at = end + 1;
  }
  // A signal is the mutant's doing (a device fault the driver turned into one, an assert); any other
  // end means the self-test could not judge it, which is not a kill.
  row.kill.killed = r.signal != 0 && !r.timed_out;
  row.kill.property = "its process " + how + (said.empty() ? "" : ": " + said);
  if (row.kill.killed) row.first_kill = "process ended";
  row.finished = false;
  row.tools.assign(std::size(kGpuTools), ToolRun{});
  // The short fuzz runs in a process of its own: what ended this one does not keep it from running.
  row.fuzz = short_fuzz(v, o, scratch / "fuzz");
  return row;
}

std::string markdown(const std::vector<Row>& rows, const MutantsOptions& o, const std::string& date,
                     const std::vector<std::string>& elsewhere) {
  std::string md = "# Mutation self-test (" + std::string(name(o.backend)) + ", " + date + ", seed " +
                   std::to_string(o.seed) + ", " + std::to_string(o.budget) +
                   " cases per property)\n\n"
                   "| mutant | bug class | catalogue | first property to fail | cases | seconds | shrunk Case |";
  std::string rule = "|---|---|---|---|---|---|---|";
  const bool tools = o.backend == Backend::cuda;  // on emu the tools' columns would all be n/a
  if (tools) {
    for (const GpuTool& tool : kGpuTools) md += " " + std::string(tool.name) + " |", rule += "---|";
    md += " first to kill |", rule += "---|";
  }
  md += " KernelBench-style f32 | KernelBench-style bf16 |\n" + rule + "---|---|\n";
  int survivors = 0, kb_caught_f32 = 0, kb_caught_bf16 = 0, kb_applies_f32 = 0, kb_applies_bf16 = 0;
  const auto kb_cell = [](const properties::KernelBenchResult& k) {
    return std::string(!k.applies ? "n/a" : k.caught ? "caught" : "**passed**");
  };
  const auto tool_cell = [](const ToolRun& t) {
    if (t.status.empty()) return std::string("");
    if (t.status == "killed") return "killed" + (t.detail.empty() ? "" : ": " + t.detail);
    if (t.status == "passed") return std::string("passed");
    if (t.status == "values")
      return "values failed, no " + std::string("report") + (t.detail.empty() ? "" : ": " + t.detail);
    return t.status;
  };
  for (const auto& r : rows) {
    char secs[16];
    std::snprintf(secs, sizeof secs, "%.2f", r.kill.seconds);
    survivors += r.first_kill.empty();
    if (r.finished) {
      kb_caught_f32 += r.kb_f32.caught;
      kb_caught_bf16 += r.kb_bf16.caught;
      kb_applies_f32 += r.kb_f32.applies;
      kb_applies_bf16 += r.kb_bf16.applies;
    }
    md += "| " + r.op + "/" + r.name + " | " + r.bug + " | " +
          (r.kill.by_note  ? "killed (accuracy note)"
           : r.kill.killed ? "killed"
           : r.finished    ? "**survived**"
                           : "**not run**") +
          " | " + r.kill.property + " | " + std::to_string(r.kill.cases) + " | " + secs + " | " +
          (r.shrunk.empty() ? "" : "`" + r.shrunk + "`") + " |";
    if (tools) {
      for (const ToolRun& t : r.tools) md += " " + tool_cell(t) + " |";
      md += " " + (r.first_kill.empty() ? std::string("**nothing**") : r.first_kill) + " |";
    }
    md += r.finished ? " " + kb_cell(r.kb_f32) + " | " + kb_cell(r.kb_bf16) + " |\n" : " not run | not run |\n";
  }
  const long catalogue = std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.kill.killed; });
  md += "\nCatalogue: " + std::to_string(catalogue) + " of " + std::to_string(rows.size()) + " killed";
  if (const long by_note = std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.kill.by_note; }))
    md += " (" + std::to_string(by_note) +
          " by an accuracy note alone: a PASS (accuracy note) in `kverify check`, a FAIL under --strict)";
  if (o.backend == Backend::cuda)
    md += "; with the GPU-side tools after it (each tried in turn, on one property's " + std::to_string(kToolCases) +
          " Cases, until one kills the mutant): " + std::to_string(rows.size() - survivors) + " of " +
          std::to_string(rows.size());
  else
    md += " (the GPU-side tools run on cuda only)";
  md +=
      ". KernelBench-style check (5 random normal trials at one power-of-two shape, allclose 1e-4 f32 / "
      "1e-2 bf16): " +
      std::to_string(kb_caught_f32) + " of " + std::to_string(kb_applies_f32) + " caught in f32, " +
      std::to_string(kb_caught_bf16) + " of " + std::to_string(kb_applies_bf16) +
      " in bf16 (n/a: the mutant does not take that dtype). Each mutant ran in a process of its own.\n";
  if (!elsewhere.empty()) {
    md += "\nNot run on " + std::string(name(o.backend)) +
          ", where their variant does not run (neither killed nor survived):";
    for (const auto& m : elsewhere) md += "\n- " + m;
    md += "\n";
  }

  md +=
      "\n## Short fuzz (" +
      (o.fuzz_time > 0 ? "fuzz_run, at most " + std::to_string(o.fuzz_time) + " s per mutant"
                       : std::string("not run")) +
      ")\n\nThe mutant's op target of fuzz/ pinned to the mutant (fuzz_run --variant: the op's corpus, then mutations "
      "and random inputs, no coverage guidance), seed " +
      std::to_string(o.seed) +
      ".\n\n"
      "| mutant | short fuzz | execs | seconds | the finding's Case |\n|---|---|---|---|---|\n";
  int fuzz_killed = 0, fuzz_ran = 0;
  for (const auto& r : rows) {
    char secs[16];
    std::snprintf(secs, sizeof secs, "%.1f", r.fuzz.seconds);
    const bool ran = r.fuzz.status == "killed" || r.fuzz.status == "survived";
    fuzz_ran += ran;
    fuzz_killed += r.fuzz.status == "killed";
    md += "| " + r.op + "/" + r.name + " | " + (r.fuzz.status == "survived" ? "**survived**" : r.fuzz.status) + " | " +
          (ran ? std::to_string(r.fuzz.execs) : "") + " | " + (ran ? secs : "") + " | " +
          (r.fuzz.case_line.empty() ? "" : "`" + r.fuzz.case_line + "`") + " |\n";
  }
  md += "\nShort fuzz: " + std::to_string(fuzz_killed) + " of " + std::to_string(fuzz_ran) + " fuzzed mutants killed" +
        (fuzz_ran < static_cast<int>(rows.size()) ? " (" + std::to_string(rows.size() - fuzz_ran) + " not run)" : "") +
        ". Informational: the exit status is the catalogue's and the GPU-side tools'.\n";
  return md;
}

}  // namespace

int run_mutants(const MutantsOptions& o) {
  if (std::string why; !backend_available(o.backend, &why)) {
    std::printf("NOT RUN  %s: %s\n", std::string(name(o.backend)).c_str(), why.c_str());
    return kNotRun;
  }
  const std::string out_dir =
      !o.out_dir.empty() ? o.out_dir : "reports/" + std::string(o.backend == Backend::emu ? "emu" : "h200");
  // The outputs' folder, checked (not made) before the minutes of the self-test.
  if (const auto problem = output_folder_problem(out_dir)) throw InputError("--out: " + *problem);
  std::vector<const Variant*> selected;
  for (const std::string& wanted : o.only) {
    const Variant* found = nullptr;
    for (const auto& v : mutant_variants())
      if (std::string(v.op) + "/" + std::string(v.name) == wanted || v.name == wanted) found = &v;
    if (!found) {
      std::string known;
      for (const auto& v : mutant_variants())
        known += (known.empty() ? "" : ", ") + std::string(v.op) + "/" + std::string(v.name);
      throw InputError("--only: no mutant '" + wanted + "' (accepted: op/mutant or mutant, one of " + known + ")");
    }
    selected.push_back(found);
  }
  if (o.only.empty())
    for (const auto& v : mutant_variants()) selected.push_back(&v);
  // A mutant planted in a variant this backend cannot run (a cuda-only kernel on emu) is listed as
  // such, never counted as killed or survived.
  std::vector<std::string> elsewhere;
  std::erase_if(selected, [&](const Variant* v) {
    const auto why = not_on_backend(*v, o.backend);
    if (why) elsewhere.push_back(std::string(v->op) + "/" + std::string(v->name) + " (" + *why + ")");
    return why.has_value();
  });
  if (selected.empty()) {
    std::printf("NOT RUN  %s: no selected mutant runs there: %s\n", std::string(name(o.backend)).c_str(),
                elsewhere.empty() ? "none selected" : elsewhere.front().c_str());
    return kNotRun;
  }
  if (o.here && selected.size() != 1) throw InputError("--here: needs exactly one --only mutant");

  std::error_code tmp_ec;
  const fs::path scratch = fs::temp_directory_path(tmp_ec) / ("kverify-mutants-" + std::to_string(getpid()));
  fs::create_directories(scratch, tmp_ec);
  // A process per mutant, one at a time or on --gpus devices side by side; rows in mutant order.
  const GpuSlots slots =
      o.here ? gpu_slots(1, {}, false)
             : slots_for_option(o.gpus, o.backend == Backend::cuda && backend_available(Backend::cuda, nullptr),
                                cuda_device_count());
  std::vector<Row> rows(selected.size());
  const auto start = std::chrono::steady_clock::now();
  std::mutex progress;
  std::size_t finished = 0;
  run_on_slots(selected.size(), slots, [&](std::size_t i, std::size_t slot) {
    const Variant& v = *selected[i];
    if (o.here) {
      rows[i] = run_here(v, o, scratch);
      return;
    }
    rows[i] = run_isolated(v, o, scratch, slots.env(slot));
    const Row& row = rows[i];
    std::lock_guard lock(progress);
    const double so_far = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string left =
        time_left(static_cast<std::int64_t>(++finished), static_cast<std::int64_t>(selected.size()), so_far);
    std::fprintf(stderr, "  [%zu/%zu%s%s] %s/%s%s: %s%s\n", finished, selected.size(), left.empty() ? "" : ", ",
                 left.c_str(), std::string(v.op).c_str(), std::string(v.name).c_str(),
                 slots.devices[slot].empty() ? "" : (" on gpu " + slots.devices[slot]).c_str(),
                 row.first_kill.empty() ? "SURVIVED"
                 : row.kill.killed      ? ("killed by " + row.kill.property).c_str()
                                        : ("killed by " + row.first_kill).c_str(),
                 row.fuzz.status.starts_with("not run") ? "" : ("; short fuzz " + row.fuzz.status).c_str());
  });
  fs::remove_all(scratch, tmp_ec);

  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  const std::string md = markdown(rows, o, date, elsewhere);
  Json j = {{"backend", std::string(name(o.backend))},
            {"date", date},
            {"seed", o.seed},
            {"cases_per_property", o.budget},
            {"short_fuzz_seconds", o.fuzz_time},
            {"gpu_tool_cases", kToolCases}};
  Json& list = j["mutants"] = Json::array();
  for (const auto& r : rows) list.push_back(row_json(r));
  j["not_on_backend"] = elsewhere;
  std::error_code made;
  std::filesystem::create_directories(out_dir, made);  // commit() says why if this failed
  OutputFiles files;  // both or neither: never a new mutants.md beside an old mutants.json
  files.add(out_dir + "/mutants.md", md);
  files.add(out_dir + "/mutants.json", json_text(j));
  if (const auto error = files.commit()) {
    std::fprintf(stderr, "kverify mutants: %s\n", error->c_str());
    return kBadInput;
  }
  std::printf("%s\nwritten: %s/mutants.md, %s/mutants.json\n", md.c_str(), out_dir.c_str(), out_dir.c_str());
  const bool survived = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.first_kill.empty(); });
  return survived ? kFail : kPass;
}

}  // namespace kverify
