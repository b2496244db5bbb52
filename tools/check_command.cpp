// `kverify check`: the option table and the adapter to the check engine (check/catalogue.hpp).
#include <charconv>
#include <cstdio>

#include <cstdlib>

#include "check/catalogue.hpp"
#include "core/error.hpp"
#include "kernels/registry.hpp"
#include "properties/catalogue.hpp"
#include "tools/command.hpp"

namespace kverify::cli {
namespace {

// N cases per property, or Ns seconds for all of them.
struct Budget {
  int cases = 30;
  double seconds = 0;
};

std::optional<Budget> parse_budget(std::string_view v) {
  const bool in_seconds = !v.empty() && v.back() == 's';
  const auto digits = in_seconds ? v.substr(0, v.size() - 1) : v;
  long n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n < 1 || n > 1000000)
    return std::nullopt;
  Budget b;
  if (in_seconds)
    b.seconds = static_cast<double>(n);
  else
    b.cases = static_cast<int>(n);
  return b;
}

std::string budget_check(std::string_view v) {
  return parse_budget(v) ? "" : "N cases per property (1..1000000) or Ns seconds in all, e.g. 50 or 120s";
}

std::string property_check(std::string_view v) {
  return properties::find_property(v) ? "" : "a property of `kverify check --list`";
}

constexpr Option kOptions[] = {
    {"--backend", "emu|cuda|all", ValueKind::choice,
     "where to run (a backend that cannot run here is NOT RUN, with the reason)", "emu, and cuda when a GPU is present",
     "emu|cuda|all"},
    {"--op", "NAME", ValueKind::op, "only this op"},
    {"--variant", "NAME", ValueKind::variant, "only this variant (a mutant by name too)"},
    {"--dtype", "f32|f16|bf16", ValueKind::dtype, "only this storage dtype"},
    {"--property", "NAME", ValueKind::text, "only this property of the catalogue (--list)", "", "", 0, 0,
     &property_check},
    {"--seed", "N", ValueKind::seed, "RapidCheck's seed", "2026"},
    {"--budget", "N|Ns", ValueKind::text, "N cases per property, or Ns seconds for all properties", "30",
     "N (1..1000000) or Ns", 0, 0, &budget_check},
    {"--json", "PATH", ValueKind::text, "where the summary JSON goes", "kverify-check.json"},
    {"--junit", "PATH", ValueKind::text,
     "also write JUnit XML there (a testsuite per backend x variant, a testcase per boundary Case and\n"
     "property; failures carry the Verdict and the reproduce line); with GITHUB_ACTIONS=true, failures\n"
     "are printed as ::error annotations too"},
    {"--properties-only", "", ValueKind::flag, "skip the boundary Cases"},
    {"--quick", "", ValueKind::flag,
     "emu: leave out the boundary Cases with a dimension past 65535 (grid limits: seconds each on emu,\n"
     "milliseconds on the GPU); each is counted SKIPPED with the reason, never passed"},
    {"--sanitize", "TOOL", ValueKind::choice,
     "the children run under compute-sanitizer --tool TOOL on the GPU (it implies --backend cuda;\n"
     "with --backend emu it is bad input: emu has its own ASan/TSan flavors); each report is a failing\n"
     "Verdict of the Case that was running (NOT RUN, exit 3, without the tool or a GPU)",
     "", "memcheck|racecheck|initcheck|synccheck"},
    {"--no-isolate", "", ValueKind::flag,
     "run every Case in this process (default: a child process per backend x variant, so that a device\n"
     "fault or a crash becomes a failing Verdict 'device fault: ...' of the Case that was running)"},
    {"--gpus", "all|N", ValueKind::text,
     "shard the backend x variant runs over N GPUs of this host (all: every visible one), one\n"
     "process per GPU pinned with CUDA_VISIBLE_DEVICES; on emu N processes side by side; the tables\n"
     "and the JSON are those of a run one process at a time",
     "one process at a time", "all or N", 0, 0, &gpus_value_problem},
    {"--list", "", ValueKind::flag, "list the properties and exit"},
    // A child process of an isolated check (check/isolation.hpp): protocol lines, where to start.
    {"--child", "", ValueKind::flag, "", "", "", 0, 0, nullptr, false, true},
    {"--first-part", "N", ValueKind::whole, "", "", "", 0, 1000000, nullptr, false, true},
    {"--skip-cases", "N", ValueKind::whole, "", "", "", 0, 100000000, nullptr, false, true},
    kStrict,
    kNoRaceDetector,
};

int check(const ParsedOptions& p) {
  if (p.has("--list")) {
    for (const auto& prop : properties::all_properties())
      std::printf("%-44s %s\n", prop.name.c_str(), std::string(prop.checks).c_str());
    return kPass;
  }
  CheckOptions o;
  if (const auto b = p.get("--backend")) {
    if (*b == "emu")
      o.backends = {Backend::emu};
    else if (*b == "cuda")
      o.backends = {Backend::cuda};
    else
      o.backends = {Backend::emu, Backend::cuda};
    o.backends_requested = true;
  } else if (p.has("--sanitize")) {  // compute-sanitizer checks GPU kernels: --sanitize means --backend cuda
    o.backends = {Backend::cuda};
    o.backends_requested = true;
  }
  o.op = p.get("--op");
  o.variant = p.get("--variant");
  if (o.op && o.variant && !find_variant(*o.op, *o.variant)) {  // the filters would select nothing
    std::string theirs;
    for (const auto& v : all_variants())
      if (v.op == *o.op && !v.mutant) theirs += (theirs.empty() ? "" : ", ") + std::string(v.name);
    throw InputError("option --variant '" + *o.variant + "': not a variant of " + *o.op + " (accepted with --op " +
                     *o.op + ": " + theirs + ", or one of its mutants of `kverify list`)");
  }
  if (const auto d = p.get("--dtype")) o.dtype = *parse_dtype(*d);
  o.property = p.get("--property");
  if (o.op && o.property && o.property->rfind(*o.op + ".", 0) != 0)
    throw InputError("option --property '" + *o.property + "': not a property of " + *o.op + " (accepted with --op " +
                     *o.op + ": " + *o.op + ".<name>, listed by `kverify check --list`)");
  // A property is one op's: it selects that op, so that a --variant named alike in another op
  // (warp_per_row of softmax and of row_sum) is not run against it.
  if (o.property && !o.op) o.op = properties::find_property(*o.property)->op->name;
  o.seed = p.seed("--seed", o.seed);
  if (const auto b = p.get("--budget")) {
    const Budget budget = *parse_budget(*b);
    o.cases = budget.cases;
    o.seconds = budget.seconds;
  }
  o.json_path = p.text("--json", o.json_path);
  o.junit_path = p.text("--junit", "");
  o.boundary_cases = !p.has("--properties-only");
  o.quick = p.has("--quick");
  o.isolate = !p.has("--no-isolate");
  o.sanitize = p.text("--sanitize", "");
  o.gpus = p.text("--gpus", "");
  if (!o.gpus.empty() && !o.isolate)
    throw InputError("option --gpus needs the child processes that --no-isolate turns off (accepted: one of them)");
  o.child = p.has("--child");
  if (o.child && (!o.backends_requested || o.backends.size() != 1 || !o.op || !o.variant))
    throw InputError(
        "option --child is kverify check's own, for the child processes it starts (each with one --backend, --op "
        "and --variant) (accepted: kverify check without it)");
  o.first_part = static_cast<int>(p.whole("--first-part", 0));
  o.skip_cases = static_cast<int>(p.whole("--skip-cases", 0));
  return run_check_catalogue(o);
}

}  // namespace

const Command kCheckCommand{
    "check",
    {"", 0, 0},
    "the main job: boundary Cases and the property catalogue, with summary tables",
    "On each backend:\n"
    "  1. the boundary Cases: a fixed list per op (tail widths, layouts, recipes incl. out-of-domain\n"
    "     rows, schedule seeds) on every production variant; table per op/variant/dtype: worst ulp,\n"
    "     margin (largest |error|/bound) and baseline (share of the baseline rule's allowance);\n"
    "  2. the property catalogue (--list) through RapidCheck; table per property x variant.\n"
    "A failure prints the shrunk Case (replay it with ./kverify run '<line>') and the command that\n"
    "re-runs the property with the same seed and budget.\n",
    kOptions,
    "0 all passed, 1 something failed, 2 bad input, 3 a requested backend could not run",
    &check};

}  // namespace kverify::cli
