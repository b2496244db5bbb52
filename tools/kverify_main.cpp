// The kverify command line. Every command is a row of kCommands (name, usage, summary, help);
// `kverify help` and `kverify <command> --help` come from that table.
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
#include "tools/check_catalogue.hpp"

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
    {"check", "check [--backend emu|cuda|all] [--op NAME]", "run the check catalogue and print a summary",
     "Runs every registered production variant over the catalogue of Cases (tail widths, dtypes,\n"
     "strided/transposed/offset layouts, value recipes including out-of-domain rows, schedule seeds)\n"
     "on the chosen backends. Default: emu, and cuda too when a GPU is present.\n"
     "A backend that cannot run here is reported as NOT RUN with the reason (exit 3 if it was asked for).\n"
     "Exit: 0 all passed, 1 something failed, 2 bad input, 3 a requested backend could not run.\n",
     cmd_check},
    {"list", "list", "print the registry of kernel variants", "One row per variant: op, name, dtypes, backends, limits, strategy.\n",
     cmd_list},
    {"help", "help [command | case [--markdown] | values]", "this overview, a command's help, the Case fields, the value recipes", "",
     cmd_help},
};

void print_overview() {
  std::printf(
      "kverify - checks CUDA kernels against float64 references, on the GPU or on the CPU (emu)\n\n"
      "usage: ./kverify <command> [arguments]   (./kverify test runs the test suite)\n\ncommands:\n");
  for (const auto& c : kCommands) std::printf("  %-48s %s\n", std::string(c.usage).c_str(), std::string(c.summary).c_str());
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
  const kverify::Verdict v = kverify::run_case(c);
  std::printf("%s\n", format(v).c_str());
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
    if (args[i] == "--backend") {
      const auto b = value("--backend");
      if (b == "emu") options.backends = {kverify::Backend::emu};
      else if (b == "cuda") options.backends = {kverify::Backend::cuda};
      else if (b == "all") options.backends = {kverify::Backend::emu, kverify::Backend::cuda};
      else throw kverify::InputError("option --backend " + std::string(b) + ": accepted emu, cuda, all");
      options.backends_requested = true;
    } else if (args[i] == "--op") {
      const auto op = value("--op");
      if (!kverify::find_op(op)) throw kverify::InputError("option --op " + std::string(op) + ": unknown op (accepted: softmax, gelu_tanh, row_sum, matmul_relu)");
      options.op = std::string(op);
    } else {
      throw kverify::InputError("kverify check: unknown argument '" + std::string(args[i]) + "' (see ./kverify check --help)");
    }
  }
  return kverify::run_check_catalogue(options);
}

int cmd_list(Args args) {
  if (!args.empty()) throw kverify::InputError("kverify list takes no arguments");
  std::printf("%-12s %-16s %-14s %-10s %-12s %-10s %s\n", "op", "variant", "dtypes", "backends", "max rows", "max cols",
              "strategy");
  for (const auto& v : kverify::all_variants()) {
    std::string dtypes = std::string(v.f32 ? "f32 " : "") + (v.f16 ? "f16 " : "") + (v.bf16 ? "bf16" : "");
    std::string backends = std::string(v.on_emu ? "emu " : "") + (v.launch_cuda ? "cuda" : "");
    const std::string max_cols = v.max_cols == INT64_MAX ? "any" : std::to_string(v.max_cols);
    const std::string max_rows = v.max_rows == INT64_MAX ? "any" : std::to_string(v.max_rows);
    std::printf("%-12s %-16s %-14s %-10s %-12s %-10s %s%s\n", std::string(v.op).c_str(), std::string(v.name).c_str(),
                dtypes.c_str(), backends.c_str(), max_rows.c_str(), max_cols.c_str(),
                std::string(v.strategy).c_str(), v.mutant ? " [mutant]" : "");
  }
  for (const auto& op : kverify::kOps) {
    bool any = false;
    for (const auto& v : kverify::all_variants()) any = any || v.op == op.name;
    if (!any) std::printf("%-12s (no variants registered yet)\n", std::string(op.name).c_str());
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
  std::fprintf(stderr, "kverify: unknown command '%s' (accepted: run, check, list, help; ./kverify --help)\n",
               std::string(args[0]).c_str());
  return kBadInput;
}
