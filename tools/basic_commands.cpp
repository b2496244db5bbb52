// `kverify run`, `kverify list` and `kverify help`.
#include <cstdio>

#include "core/case.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/fault_report.hpp"
#include "pipeline/run_at_once.hpp"
#include "pipeline/run_case.hpp"
#include "runtime/emu/detectors/race_detector.hpp"
#include "tools/command.hpp"
#include "tools/environment.hpp"

namespace kverify::cli {
namespace {

int outcome_exit(Outcome outcome) {
  switch (outcome) {
    case Outcome::pass:
      return kPass;
    case Outcome::fail:
      return kFail;
    case Outcome::skipped:
      return kNotRun;
  }
  return kFail;
}

// One Case's Verdict printed; its exit code.
int run_and_print(const Case& c) {
  report_faults_of(c.to_text());  // a crashing kernel still ends in a FAIL line, exit 1
  const Verdict v = [&] {
    const ProgressWatch progress("kverify run", &case_progress);  // silent unless the Case takes > 5 s
    return run_case(c);
  }();
  std::printf("%s\n", format(v).c_str());
  if (std::string why; v.outcome == Outcome::fail && device_context_lost(resolve_backend(c.backend), &why))
    std::printf("device fault: %s: the kernel faulted and the CUDA context is lost\n", why.c_str());
  return outcome_exit(v.outcome);
}

int worse(int worst, int code) { return code == kFail || (code == kNotRun && worst == kPass) ? code : worst; }

// The Case and the --alongside one at the same time (run_at_once), each Verdict printed.
int run_pair_and_print(const Case& c, const Case& alongside) {
  report_faults_of(c.to_text(), alongside.to_text());
  const auto verdicts = [&] {
    const ProgressWatch progress("kverify run", &case_progress);
    return run_at_once(c, alongside);
  }();
  int worst = kPass;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    std::printf("[%zu of 2 at once] %s\n%s\n", i + 1, (i == 0 ? c : alongside).to_text().c_str(),
                format(verdicts[i]).c_str());
    worst = worse(worst, outcome_exit(verdicts[i].outcome));
  }
  return worst;
}

int run_one(const ParsedOptions& o) {
  std::string line;
  for (const auto& a : o.operands) line += (line.empty() ? "" : " ") + a;
  // Every Case parsed before any runs: a bad --then line is bad input, not a failure after a pass.
  std::vector<Case> sequence{parse_case(line)};
  for (const auto& then : o.all("--then")) sequence.push_back(parse_case(then));
  if (o.has("--alongside")) {
    if (sequence.size() > 1)
      throw InputError(
          "--alongside and --then together (accepted: one of them: --then runs Cases one after "
          "another, --alongside two at once)");
    return run_pair_and_print(sequence[0], parse_case(*o.get("--alongside")));
  }
  int worst = kPass;
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    if (sequence.size() > 1) std::printf("[%zu/%zu] %s\n", i + 1, sequence.size(), sequence[i].to_text().c_str());
    worst = worse(worst, run_and_print(sequence[i]));
  }
  return worst;
}

int list(const ParsedOptions&) {
  std::printf("%-12s %-26s %-14s %-10s %-12s %-10s %s\n", "op", "variant", "dtypes", "backends", "max rows", "max cols",
              "strategy");
  for (const auto& v : all_variants()) {
    const std::string dtypes = std::string(v.f32 ? "f32 " : "") + (v.f16 ? "f16 " : "") + (v.bf16 ? "bf16" : "");
    const std::string backends = std::string(v.on_emu ? "emu " : "") + (v.launch_cuda ? "cuda" : "");
    const std::string max_cols = v.max_cols == INT64_MAX ? "any" : std::to_string(v.max_cols);
    const std::string max_rows = v.max_rows == INT64_MAX ? "any" : std::to_string(v.max_rows);
    std::string notes;
    if (domain_of(v).declared()) notes += " [accepts " + domain_of(v).text + "]";
    if (!v.policy.empty()) notes += " [policy " + std::string(v.policy) + "]";
    std::printf("%-12s %-26s %-14s %-10s %-12s %-10s %s%s%s\n", std::string(v.op).c_str(), std::string(v.name).c_str(),
                dtypes.c_str(), backends.c_str(), max_rows.c_str(), max_cols.c_str(), std::string(v.strategy).c_str(),
                notes.c_str(),
                !v.cheat.empty() ? " [cheat]"
                : v.mutant       ? " [mutant]"
                                 : "");
  }
  for (const OpSpec* op : all_ops()) {
    bool any = false;
    for (const auto& v : all_variants()) any = any || v.op == op->name;
    if (!any) std::printf("%-12s (no variants registered yet)\n", std::string(op->name).c_str());
  }
  return kPass;
}

std::string topic_check(std::string_view topic) {
  if (topic == "case" || topic == "values" || topic == "accepts" || topic == "signatures" || topic == "tolerance" ||
      topic == "environment" || find_command(topic))
    return "";
  std::string names;
  for (const Command* c : all_commands()) names += std::string(c->name) + ", ";
  return names + "case, values, accepts, signatures, tolerance, environment";
}

// The tiers, then each op's policies as its first boundary Case in f32 states them (a Case's own
// Verdict prints the policy for its dtype and sizes).
void print_tolerance_help() {
  std::printf(
      "Verdict tiers:\n"
      "  PASS                  every element within its derived bound (the op's policy below) and every guard held\n"
      "  PASS (accuracy note)  every guard held (the baseline rule too), and the elements outside the derived\n"
      "                        bound are each within the bound of the formula eager frameworks compute (below):\n"
      "                        as accurate as the framework's own kernel. Counted and listed apart by check,\n"
      "                        report and mutants (JSON: accuracy_notes, noted); a FAIL under --strict\n"
      "  FAIL                  anything else\n"
      "POLICY fast_math (a kernel built with --use_fast_math) takes the op's fast-math policy.\n"
      "Per op (f32, at its first boundary Case's sizes):\n");
  for (const OpSpec* op : all_ops()) {
    const Case c = parse_case(boundary_case_lines(*op).at(0));  // the f32 lines come first
    const auto outputs = op->outputs();
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      const auto derived = op->tolerance(c, static_cast<int>(k));
      std::string formula = derived->framework_formula();
      if (formula.empty()) {  // a tier of the 16-bit outputs only (rmsnorm's double rounding)
        Case sixteen = c;
        sixteen.dtype = DType::bf16;
        if (const std::string f = op->tolerance(sixteen, static_cast<int>(k))->framework_formula(); !f.empty())
          formula = "f16/bf16: " + f;
      }
      std::printf(
          "  %s %s\n    derived:    %s\n    framework:  %s\n    fast_math:  %s\n", std::string(op->name).c_str(),
          std::string(op->tensors[static_cast<std::size_t>(outputs[k])].name).c_str(), derived->describe().c_str(),
          formula.empty()
              ? "none declared: no accuracy-note tier (docs/tolerance.md: the built-in ops' frameworks compute their "
                "derived policy's arithmetic)"
              : formula.c_str(),
          op->fast_math_tolerance ? op->fast_math_tolerance(c, static_cast<int>(k))->describe().c_str()
                                  : "none derived: POLICY fast_math is refused for this op");
    }
  }
}

int help(const ParsedOptions& o) {
  const bool markdown = o.has("--markdown");
  if (o.operands.empty()) {
    std::printf("%s", markdown ? commands_markdown().c_str() : overview().c_str());
    return kPass;
  }
  if (const std::string accepted = topic_check(o.operands[0]); !accepted.empty())
    throw InputError("unknown topic " + shown(o.operands[0]) + " (accepted: " + accepted + ")");
  const std::string& topic = o.operands[0];
  if (topic == "case") {
    if (markdown)
      std::printf("%s", case_fields_help(true).c_str());  // the README's table
    else {
      std::printf("Case fields (key=value tokens, any order; omitted fields take their default):\n%s",
                  case_fields_help(false).c_str());
      std::printf("Ops (their dimensions, tensors and parameters name the fields above):\n");
      for (const OpSpec* op : all_ops()) std::printf("%s", op_help(*op).c_str());
    }
    return kPass;
  }
  if (topic == "tolerance") {
    print_tolerance_help();
    return kPass;
  }
  if (topic == "environment") {
    std::printf("%s", environment_help(markdown).c_str());
    return kPass;
  }
  if (topic == "values") {
    std::printf(
        "Value recipes (values=RECIPE[:P]; drawn per logical element from seed, then rounded once to\n"
        "the storage dtype):\n");
    for (const auto& r : kRecipes) std::printf("  %s\n", std::string(r.meaning).c_str());
    return kPass;
  }
  if (topic == "accepts") {
    if (!markdown)
      std::printf(
          "What a variant may declare it accepts (ACCEPTS of kverify_add_kernel / kverify_add_variant); outside it\n"
          "a Case is SKIPPED with the token named, and the generators and the fuzz decoder draw inside it:\n");
    std::printf("%s", preconditions_help(markdown).c_str());
    return kPass;
  }
  if (topic == "signatures") {
    if (!markdown) std::printf("Launcher signatures kverify_add_kernel calls (SIGNATURE <name> FUNCTION <fn>):\n");
    std::printf("%s", signatures_help(markdown).c_str());
    return kPass;
  }
  std::printf("%s", command_help(*find_command(topic)).c_str());
  return kPass;
}

constexpr Option kRunOptions[] = {
    {"--then", "'<case line>'", ValueKind::text,
     "then this Case, in the same process (repeatable, in order): a failure that needs the Cases\n"
     "run before it (state a kernel or launcher keeps between calls) reproduces this way",
     "", "", 0, 0, nullptr, true},
    {"--alongside", "'<case line>'", ValueKind::text,
     "this Case at the same time as the first, each on a host thread and stream of its own (on emu\n"
     "their launches take turns): a failure that needs two calls at once (state a launcher shares\n"
     "between calls) reproduces this way"},
    kStrict,
    kNoRaceDetector};

constexpr Option kHelpOptions[] = {
    {"--markdown", "", ValueKind::flag,
     "the overview as the README's command list, `help case` as its Case table, `help environment` as\n"
     "docs/environment.md's table"},
};

}  // namespace

const Command kRunCommand{
    "run",
    {"'<case line>'", 1, -1},
    "check one Case and print its Verdict",
    "The Case is one line of key=value tokens (quote it, or pass the tokens as separate arguments):\n"
    "  kverify run 'op=softmax dtype=f32 shape=3x1000 backend=emu'\n"
    "Prints PASS, PASS (accuracy note) or FAIL, the error statistics against the reference, the tolerance\n"
    "in force, the first mismatches, every violated guard, and the reproduce line. The Case fields:\n"
    "`kverify help case`; the tolerance tiers: `kverify help tolerance`.\n",
    kRunOptions,
    "0 pass (an accuracy note too, unless --strict), 1 the kernel failed, 2 bad input, 3 not run here (e.g.\n"
    "backend=cuda without a GPU); with --then or --alongside, the worst of the Cases",
    &run_one};

const Command kListCommand{"list",
                           {"", 0, 0},
                           "print the registry of kernel variants (mutants marked)",
                           "One row per variant: op, name, dtypes, backends, limits, strategy.\n",
                           {},
                           "0",
                           &list};

const Command kHelpCommand{"help",
                           {"[command | case | values | accepts | signatures | tolerance | environment]", 0, 1},
                           "this overview, or a command's help, the Case fields, value recipes, declarations, "
                           "tolerance tiers, KVERIFY_* variables",
                           "",
                           kHelpOptions,
                           "0, 2 an unknown topic",
                           &help,
                           /*runs_kernels=*/false};  // its topics read tables outside the kernels' library

}  // namespace kverify::cli
