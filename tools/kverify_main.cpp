// The kverify command line. Every command is a row of kCommands (name, usage, summary, help);
// `kverify help` and `kverify <command> --help` come from that table.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"
#include "core/error.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"
#include "properties/catalogue.hpp"
#include "tools/check_catalogue.hpp"
#include "tools/fault_report.hpp"
#include "tools/fuzz_commands.hpp"
#include "tools/gpu_commands.hpp"
#include "tools/mutants_command.hpp"
#include "bench/bench_command.hpp"
#include "tools/report_command.hpp"

namespace {

using Args = std::span<const std::string_view>;

// Exit codes, the same for every command.
constexpr int kPass = 0, kFail = 1, kBadInput = 2, kNotRun = 3;

struct Command {
  std::string_view name;
  std::string_view usage;
  std::string_view summary;
  std::string_view help;
  int (*run)(Args args);
};

int cmd_run(Args args);
int cmd_check(Args args);
int cmd_list(Args args);
int cmd_help(Args args);

const Command kCommands[] = {
    {"run", "run '<case line>'", "check one Case and print its Verdict",
     "The Case is one line of key=value tokens (quote it, or pass the tokens as separate arguments):\n"
     "  kverify run 'op=softmax dtype=f32 shape=3x1000 backend=emu'\n"
     "Prints PASS/FAIL, the error statistics against the reference, the tolerance in force, the first\n"
     "mismatches, every violated guard, and the reproduce line.\n"
     "Exit: 0 pass, 1 the kernel failed, 2 bad input, 3 not run here (e.g. backend=cuda without a GPU).\n"
     "Case fields (`kverify help case`):\n",
     cmd_run},
    {"check", "check [--backend B] [--op O] [--variant V] [--dtype D] [--property P] [--seed N] [--budget N|Ns]",
     "the main job: boundary Cases and the property catalogue, with summary tables",
     "On each backend (default: emu, and cuda too when a GPU is present):\n"
     "  1. the boundary Cases: a fixed list per op (tail widths, layouts, recipes incl. out-of-domain\n"
     "     rows, schedule seeds) on every production variant; table per op/variant/dtype: worst ulp,\n"
     "     margin (largest |error|/bound) and baseline (share of the baseline rule's allowance);\n"
     "  2. the property catalogue (--list) through RapidCheck; table per property x variant.\n"
     "Options:\n"
     "  --backend emu|cuda|all   where to run (a backend that cannot run here is NOT RUN, with the reason)\n"
     "  --op NAME, --variant NAME, --dtype f32|f16|bf16, --property NAME   filters (a mutant by name too)\n"
     "  --seed N                 RapidCheck's seed (default 2026)\n"
     "  --budget N | Ns          N cases per property (default 30), or Ns seconds for all properties\n"
     "  --json PATH              where the summary JSON goes (default kverify-check.json)\n"
     "  --properties-only        skip the boundary Cases\n"
     "  --sanitize TOOL          with --backend cuda: run the children under compute-sanitizer --tool TOOL\n"
     "                           (memcheck, racecheck, initcheck, synccheck); each report is a failing\n"
     "                           Verdict of the Case that was running (NOT RUN, exit 3, without the tool)\n"
     "  --no-isolate             run every Case in this process (default: a child process per backend x\n"
     "                           variant, so that a device fault or a crash becomes a failing Verdict\n"
     "                           'device fault: ...' of the Case that was running, and the rest goes on)\n"
     "  --list                   list the properties and exit\n"
     "A failure prints the shrunk Case (replay it with ./kverify run '<line>') and the command that\n"
     "re-runs the property with the same seed and budget.\n"
     "Exit: 0 all passed, 1 something failed, 2 bad input, 3 a requested backend could not run.\n",
     cmd_check},
    {"list", "list", "print the registry of kernel variants", "One row per variant: op, name, dtypes, backends, limits, strategy.\n",
     cmd_list},
    {"fuzz", kverify::kFuzzUsage, kverify::kFuzzSummary, kverify::kFuzzHelp, kverify::fuzz_command},
    {"replay", kverify::kReplayUsage, kverify::kReplaySummary, kverify::kReplayHelp, kverify::replay_command},
    {"huge", kverify::kHugeUsage, kverify::kHugeSummary, kverify::kHugeHelp, kverify::huge_command},
    {"agree", kverify::kAgreeUsage, kverify::kAgreeSummary, kverify::kAgreeHelp, kverify::agree_command},
    {"mutants", kverify::kMutantsUsage, kverify::kMutantsSummary, kverify::kMutantsHelp, kverify::mutants_command},
    {"bench", kverify::kBenchUsage, kverify::kBenchSummary, kverify::kBenchHelp, kverify::bench_command},
    {"report", kverify::kReportUsage, kverify::kReportSummary, kverify::kReportHelp, kverify::report_command},
    {"help", "help [command | case [--markdown] | values]", "this overview, a command's help, the Case fields, the value recipes", "",
     cmd_help},
};

void print_overview() {
  std::printf(
      "kverify - checks CUDA kernels against float64 references, on the GPU or on the CPU (emu)\n\n"
      "usage: ./kverify <command> [arguments]   (./kverify test runs the test suite)\n\ncommands:\n");
  for (const auto& c : kCommands) {
    const std::string usage(c.usage);
    if (usage.size() <= 48) std::printf("  %-48s %s\n", usage.c_str(), std::string(c.summary).c_str());
    else std::printf("  %s\n  %-48s %s\n", usage.c_str(), "", std::string(c.summary).c_str());  // long usage: summary below
  }
  std::printf("\n`./kverify <command> --help` for one command; `./kverify help case` for the Case fields.\n");
}

void print_command_help(const Command& c) {
  std::printf("usage: ./kverify %s\n\n%s\n%s", std::string(c.usage).c_str(), std::string(c.summary).c_str(),
              std::string(c.help).c_str());
  if (c.name == "run") std::printf("%s", kverify::case_fields_help(false).c_str());
}

bool wants_help(Args args) {
  for (auto a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

int cmd_run(Args args) {
  std::string line;
  for (auto a : args) line += (line.empty() ? "" : " ") + std::string(a);
  if (line.empty()) {
    std::fprintf(stderr, "kverify run: no Case given (e.g. ./kverify run 'op=softmax shape=3x1000')\n");
    return kBadInput;
  }
  const kverify::Case c = kverify::parse_case(line);
  kverify::report_faults_of(c.to_text());  // a crashing kernel still ends in a FAIL line, exit 1
  const kverify::Verdict v = kverify::run_case(c);
  std::printf("%s\n", format(v).c_str());
  if (std::string why; v.outcome == kverify::Outcome::fail && kverify::device_context_lost(kverify::resolve_backend(c.backend), &why))
    std::printf("device fault: %s: the kernel faulted and the CUDA context is lost\n", why.c_str());
  switch (v.outcome) {
    case kverify::Outcome::pass: return kPass;
    case kverify::Outcome::fail: return kFail;
    case kverify::Outcome::skipped: return kNotRun;
  }
  return kFail;
}

int cmd_check(Args args) {
  kverify::CheckOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto value = [&](std::string_view flag) -> std::string_view {
      if (i + 1 >= args.size()) throw kverify::InputError("option " + std::string(flag) + " needs a value");
      return args[++i];
    };
    const std::string_view arg = args[i];
    if (arg == "--backend") {
      const auto b = value(arg);
      if (b == "emu") options.backends = {kverify::Backend::emu};
      else if (b == "cuda") options.backends = {kverify::Backend::cuda};
      else if (b == "all") options.backends = {kverify::Backend::emu, kverify::Backend::cuda};
      else throw kverify::InputError("option --backend " + std::string(b) + ": accepted emu, cuda, all");
      options.backends_requested = true;
    } else if (arg == "--op") {
      const auto op = value(arg);
      if (!kverify::find_op(op))
        throw kverify::InputError("option --op " + std::string(op) + ": unknown op (accepted: " + kverify::op_names() + ")");
      options.op = std::string(op);
    } else if (arg == "--variant") {
      const auto v = value(arg);
      bool known = false;
      for (const auto& variant : kverify::all_variants()) known = known || variant.name == v;
      if (!known) throw kverify::InputError("option --variant " + std::string(v) + ": no such variant (see ./kverify list)");
      options.variant = std::string(v);
    } else if (arg == "--dtype") {
      const auto d = value(arg);
      const auto dtype = kverify::parse_dtype(d);
      if (!dtype || *dtype == kverify::DType::f64)
        throw kverify::InputError("option --dtype " + std::string(d) + ": accepted f32, f16, bf16");
      options.dtype = *dtype;
    } else if (arg == "--property") {
      const auto p = value(arg);
      if (!kverify::properties::find_property(p))
        throw kverify::InputError("option --property " + std::string(p) + ": no such property (see ./kverify check --list)");
      options.property = std::string(p);
    } else if (arg == "--seed") {
      const auto v = value(arg);
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), options.seed);
      if (ec != std::errc() || end != v.data() + v.size())
        throw kverify::InputError("option --seed " + std::string(v) + ": accepted an unsigned 64-bit whole number");
    } else if (arg == "--budget") {
      const auto v = value(arg);
      const bool in_seconds = !v.empty() && v.back() == 's';
      const auto digits = in_seconds ? v.substr(0, v.size() - 1) : v;
      long n = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (ec != std::errc() || end != digits.data() + digits.size() || n < 1 || n > 1000000)
        throw kverify::InputError("option --budget " + std::string(v) +
                                  ": accepted N cases per property (1..1000000) or Ns seconds in all, e.g. 50 or 120s");
      if (in_seconds) options.seconds = static_cast<double>(n);
      else options.cases = static_cast<int>(n);
    } else if (arg == "--json") {
      options.json_path = std::string(value(arg));
    } else if (arg == "--properties-only") {
      options.boundary_cases = false;
    } else if (arg == "--no-isolate") {
      options.isolate = false;
    } else if (arg == "--sanitize") {
      const auto t = value(arg);
      if (t != "memcheck" && t != "racecheck" && t != "initcheck" && t != "synccheck")
        throw kverify::InputError("option --sanitize " + std::string(t) + ": accepted memcheck, racecheck, initcheck, synccheck");
      options.sanitize = std::string(t);
    } else if (arg == "--child") {  // internal: a child process of an isolated check
      options.child = true;
    } else if (arg == "--first-part" || arg == "--skip-cases") {  // internal, for children
      const auto v = value(arg);
      int n = 0;
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size() || n < 0)
        throw kverify::InputError("option " + std::string(arg) + " " + std::string(v) + ": accepted a whole number >= 0");
      (arg == "--first-part" ? options.first_part : options.skip_cases) = n;
    } else if (arg == "--list") {
      for (const auto& p : kverify::properties::all_properties())
        std::printf("%-44s %s\n", std::string(p.name).c_str(), std::string(p.checks).c_str());
      return kPass;
    } else {
      throw kverify::InputError("kverify check: unknown argument '" + std::string(arg) + "' (see ./kverify check --help)");
    }
  }
  return kverify::run_check_catalogue(options);
}

int cmd_list(Args args) {
  if (!args.empty()) throw kverify::InputError("kverify list takes no arguments");
  std::printf("%-12s %-26s %-14s %-10s %-12s %-10s %s\n", "op", "variant", "dtypes", "backends", "max rows", "max cols",
              "strategy");
  for (const auto& v : kverify::all_variants()) {
    std::string dtypes = std::string(v.f32 ? "f32 " : "") + (v.f16 ? "f16 " : "") + (v.bf16 ? "bf16" : "");
    std::string backends = std::string(v.on_emu ? "emu " : "") + (v.launch_cuda ? "cuda" : "");
    const std::string max_cols = v.max_cols == INT64_MAX ? "any" : std::to_string(v.max_cols);
    const std::string max_rows = v.max_rows == INT64_MAX ? "any" : std::to_string(v.max_rows);
    std::printf("%-12s %-26s %-14s %-10s %-12s %-10s %s%s\n", std::string(v.op).c_str(), std::string(v.name).c_str(),
                dtypes.c_str(), backends.c_str(), max_rows.c_str(), max_cols.c_str(),
                std::string(v.strategy).c_str(), v.mutant ? " [mutant]" : "");
  }
  for (const kverify::OpSpec* op : kverify::all_ops()) {
    bool any = false;
    for (const auto& v : kverify::all_variants()) any = any || v.op == op->name;
    if (!any) std::printf("%-12s (no variants registered yet)\n", std::string(op->name).c_str());
  }
  return kPass;
}

int cmd_help(Args args) {
  if (args.empty()) {
    print_overview();
    return kPass;
  }
  if (args[0] == "case") {
    if (args.size() > 1 && args[1] == "--markdown") {
      std::printf("%s", kverify::case_fields_help(true).c_str());  // the README's table
      return kPass;
    }
    std::printf("Case fields (key=value tokens, any order; omitted fields take their default):\n%s",
                kverify::case_fields_help(false).c_str());
    return kPass;
  }
  if (args[0] == "values") {
    std::printf("Value recipes (values=RECIPE[:P]; drawn per logical element from seed, then rounded once to\n"
                "the storage dtype):\n");
    for (const auto& r : kverify::kRecipes) std::printf("  %s\n", std::string(r.meaning).c_str());
    return kPass;
  }
  for (const auto& c : kCommands)
    if (c.name == args[0]) {
      print_command_help(c);
      return kPass;
    }
  throw kverify::InputError("kverify help: unknown topic '" + std::string(args[0]) +
                            "' (accepted: a command name, 'case' or 'values')");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    print_overview();
    return args.empty() ? kBadInput : kPass;
  }
  for (const auto& c : kCommands) {
    if (c.name != args[0]) continue;
    const Args rest(args.data() + 1, args.size() - 1);
    if (wants_help(rest)) {
      print_command_help(c);
      return kPass;
    }
    try {
      return c.run(rest);
    } catch (const kverify::InputError& e) {
      std::fprintf(stderr, "kverify %s: %s\n", std::string(c.name).c_str(), e.what());
      return kBadInput;
    }
  }
  std::fprintf(stderr, "kverify: unknown command '%s' (accepted: run, check, list, fuzz, replay, mutants, huge, agree, help; ./kverify --help)\n",
               std::string(args[0]).c_str());
  return kBadInput;
}
