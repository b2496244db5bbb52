#include "tools/mutants_command.hpp"

#include <charconv>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "properties/kernelbench.hpp"
#include "properties/mutation.hpp"

namespace kverify {
namespace {

struct Row {
  std::string op, name, bug;
  properties::Kill kill;
  std::string shrunk;  // the failing Case line, pinned
  properties::KernelBenchResult kb_f32, kb_bf16;
};

std::string shrunk_case(const std::string& counterexample) {
  const std::string marker = "reproduce: ./kverify run '";
  const auto at = counterexample.find(marker);
  if (at == std::string::npos) return "";
  const auto start = at + marker.size();
  return counterexample.substr(start, counterexample.find('\'', start) - start);
}

std::string escape_json(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += ch;
  }
  return out;
}

}  // namespace

int mutants_command(std::span<const std::string_view> args) {
  Backend backend = Backend::emu;
  std::uint64_t seed = 2026;
  int budget = 30;
  std::string out_dir;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw InputError("option " + std::string(args[i]) + " needs a value");
      return args[++i];
    };
    const auto number = [&](std::string_view flag, std::string_view v, auto& into) {
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), into);
      if (ec != std::errc() || end != v.data() + v.size())
        throw InputError("option " + std::string(flag) + " " + std::string(v) + ": accepted a whole number");
    };
    if (args[i] == "--backend") {
      const auto b = value();
      if (b == "emu") backend = Backend::emu;
      else if (b == "cuda") backend = Backend::cuda;
      else throw InputError("option --backend " + std::string(b) + ": accepted emu, cuda");
    } else if (args[i] == "--seed") {
      number("--seed", value(), seed);
    } else if (args[i] == "--budget") {
      number("--budget", value(), budget);
      if (budget < 1) throw InputError("option --budget: accepted a number of cases >= 1");
    } else if (args[i] == "--out") {
      out_dir = std::string(value());
    } else {
      throw InputError("kverify mutants: unknown argument '" + std::string(args[i]) + "' (see ./kverify mutants --help)");
    }
  }
  if (std::string why; !backend_available(backend, &why)) {
    std::printf("NOT RUN  %s: %s\n", std::string(name(backend)).c_str(), why.c_str());
    return 3;
  }
  if (out_dir.empty()) out_dir = "reports/" + std::string(backend == Backend::emu ? "emu" : "h200");

  std::vector<Row> rows;
  int survivors = 0;
  for (const auto& v : mutant_variants()) {
    Row row{std::string(v.op), std::string(v.name), std::string(v.strategy)};
    std::fprintf(stderr, "  %s/%s ...", row.op.c_str(), row.name.c_str());
    row.kill = properties::kill_mutant(v, backend, seed, budget);
    row.shrunk = shrunk_case(row.kill.counterexample);
    row.kb_f32 = properties::kernelbench_check(v, DType::f32, backend);
    row.kb_bf16 = properties::kernelbench_check(v, DType::bf16, backend);
    survivors += !row.kill.killed;
    std::fprintf(stderr, " %s\n", row.kill.killed ? ("killed by " + row.kill.property).c_str() : "SURVIVED");
    rows.push_back(row);
  }

  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));

  std::string md = "# Mutation self-test (" + std::string(name(backend)) + ", " + date + ", seed " +
                   std::to_string(seed) + ", " + std::to_string(budget) + " cases per property)\n\n"
                   "| mutant | bug class | catalogue | first property to fail | cases | seconds | shrunk Case | "
                   "KernelBench-style f32 | KernelBench-style bf16 |\n|---|---|---|---|---|---|---|---|---|\n";
  int kb_caught_f32 = 0, kb_caught_bf16 = 0;
  for (const auto& r : rows) {
    char secs[16];
    std::snprintf(secs, sizeof secs, "%.2f", r.kill.seconds);
    kb_caught_f32 += r.kb_f32.caught;
    kb_caught_bf16 += r.kb_bf16.caught;
    md += "| " + r.op + "/" + r.name + " | " + r.bug + " | " + (r.kill.killed ? "killed" : "**survived**") + " | " +
          r.kill.property + " | " + std::to_string(r.kill.cases) + " | " + secs + " | `" + r.shrunk + "` | " +
          (r.kb_f32.caught ? "caught" : "**passed**") + " | " + (r.kb_bf16.caught ? "caught" : "**passed**") + " |\n";
  }
  md += "\nCatalogue: " + std::to_string(rows.size() - survivors) + " of " + std::to_string(rows.size()) +
        " killed. KernelBench-style check (5 random normal trials at one power-of-two shape, allclose 1e-4 f32 / "
        "1e-2 bf16): " + std::to_string(kb_caught_f32) + " of " + std::to_string(rows.size()) + " caught in f32, " +
        std::to_string(kb_caught_bf16) + " in bf16.\n";

  std::string json = "{\n  \"backend\": \"" + std::string(name(backend)) + "\", \"date\": \"" + date +
                     "\", \"seed\": " + std::to_string(seed) + ", \"cases_per_property\": " + std::to_string(budget) +
                     ",\n  \"mutants\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    json += std::string(i ? ",\n    " : "\n    ") + "{\"op\": \"" + r.op + "\", \"mutant\": \"" + r.name +
            "\", \"bug\": \"" + escape_json(r.bug) + "\", \"killed\": " + (r.kill.killed ? "true" : "false") +
            ", \"property\": \"" + r.kill.property + "\", \"cases\": " + std::to_string(r.kill.cases) +
            ", \"seconds\": " + std::to_string(r.kill.seconds) + ", \"shrunk_case\": \"" + escape_json(r.shrunk) +
            "\", \"kernelbench_f32_caught\": " + (r.kb_f32.caught ? "true" : "false") +
            ", \"kernelbench_bf16_caught\": " + (r.kb_bf16.caught ? "true" : "false") + "}";
  }
  json += "\n  ]\n}\n";
  std::ofstream(out_dir + "/mutants.md") << md;
  std::ofstream(out_dir + "/mutants.json") << json;
  std::printf("%s\nwritten: %s/mutants.md, %s/mutants.json\n", md.c_str(), out_dir.c_str(), out_dir.c_str());
  return survivors > 0 ? 1 : 0;
}

}  // namespace kverify
