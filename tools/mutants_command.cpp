// `kverify mutants`: the option table and the adapter to mutation/mutants.hpp.
#include "bench/cheat_catalogue.hpp"
#include "mutation/mutants.hpp"
#include "tools/command.hpp"

namespace kverify::cli {
namespace {

constexpr Option kOptions[] = {
    {"--backend", "emu|cuda", ValueKind::choice, "where the mutants run", "emu", "emu|cuda"},
    {"--seed", "N", ValueKind::seed, "RapidCheck's seed", "2026"},
    {"--budget", "N", ValueKind::whole, "cases per property", "30", "", 1, 100000},
    {"--fuzz-time", "S", ValueKind::whole, "seconds of short fuzz per mutant (0: none)", "10", "", 0, 3600},
    {"--out", "DIR", ValueKind::text, "where mutants.md and mutants.json go", "reports/<backend>/"},
    {"--only", "OP/MUTANT", ValueKind::text, "only this mutant (repeatable; op/mutant or mutant)", "", "", 0, 0,
     nullptr, true},
    // A child process of `kverify mutants`: the one --only mutant, in this process.
    {"--here", "", ValueKind::flag, "", "", "", 0, 0, nullptr, false, true},
    {"--bench", "", ValueKind::flag,
     "the cheat catalogue instead (CHEAT registrations): each through kverify bench, whose timing must\n"
     "be refused (on a GPU; without one only the repetitions run, on emu); --only and --out apply"},
    {"--no-gpu-tools", "", ValueKind::flag,
     "cuda: leave out the GPU-side tools (compute-sanitizer memcheck, racecheck, synccheck, initcheck;\n"
     "kverify huge), which otherwise run in turn on each mutant the catalogue did not kill"},
    {"--gpus", "all|N", ValueKind::text,
     "run the mutants' processes on N GPUs of this host side by side (all: every visible one), each\n"
     "pinned with CUDA_VISIBLE_DEVICES; on emu N processes; the table is that of one at a time",
     "one process at a time", "all or N", 0, 0, &gpus_value_problem},
    kNoRaceDetector,
};

int mutants(const ParsedOptions& p) {
  if (p.has("--bench")) return run_cheat_catalogue({p.all("--only"), p.text("--out", "")});
  MutantsOptions o;
  if (p.text("--backend", "emu") == "cuda") o.backend = Backend::cuda;
  o.seed = p.seed("--seed", o.seed);
  o.budget = static_cast<int>(p.whole("--budget", o.budget));
  o.fuzz_time = static_cast<int>(p.whole("--fuzz-time", o.fuzz_time));
  o.out_dir = p.text("--out", "");
  o.only = p.all("--only");
  o.here = p.has("--here");
  o.gpu_tools = !p.has("--no-gpu-tools");
  o.gpus = p.text("--gpus", "");
  return run_mutants(o);
}

}  // namespace

const Command kMutantsCommand{
    "mutants",
    {"", 0, 0},
    "the mutation self-test: every mutant against the catalogue",
    "Runs the property catalogue against every mutant of kernels/<op>/mutants/ (deliberately wrong\n"
    "variants, one bug class each; registered with kverify_add_variant(... MUTANT \"<bug class>\")) until a\n"
    "property fails, each mutant in a child process of its own (a device fault or crash is its alone),\n"
    "judged as under --strict: a mutant seen only as an accuracy note is 'killed (accuracy note)'. On\n"
    "cuda the GPU-side tools follow, in turn, on what the catalogue did not kill: compute-sanitizer\n"
    "memcheck, racecheck, synccheck, initcheck (check --sanitize on one property's Cases) and kverify huge;\n"
    "a column each, and the first thing that killed the mutant. Beside them a KernelBench-style check (5\n"
    "random normal trials at one power-of-two shape, allclose 1e-4 for f32, 1e-2 for bf16; n/a for a dtype\n"
    "the mutant does not take) and, separately, a short fuzz: fuzz_run on the mutant's op target pinned to\n"
    "the mutant.\n"
    "With --bench: the cheat catalogue, kernels right on every call the gate makes that game the timing\n"
    "(kverify_add_kernel(... CHEAT \"<class>\"), bench/tests/cheats/), each through kverify bench.\n",
    kOptions,
    "0 every mutant killed (by the catalogue, or on cuda by a GPU-side tool; --bench: every cheat's timing\n"
    "refused), 1 a mutant survived or could not be judged, 2 bad input, 3 not run here",
    &mutants};

}  // namespace kverify::cli
