// `kverify mutants`: the option table and the adapter to mutation/mutants.hpp.
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
    kNoRaceDetector,
};

int mutants(const ParsedOptions& p) {
  MutantsOptions o;
  if (p.text("--backend", "emu") == "cuda") o.backend = Backend::cuda;
  o.seed = p.seed("--seed", o.seed);
  o.budget = static_cast<int>(p.whole("--budget", o.budget));
  o.fuzz_time = static_cast<int>(p.whole("--fuzz-time", o.fuzz_time));
  o.out_dir = p.text("--out", "");
  return run_mutants(o);
}

}  // namespace

const Command kMutantsCommand{
    "mutants",
    {"", 0, 0},
    "the mutation self-test: every mutant against the catalogue",
    "Runs the property catalogue against every mutant of kernels/<op>/mutants/ (deliberately wrong\n"
    "variants, one bug class each; registered with kverify_add_variant(... MUTANT \"<bug class>\")) until a\n"
    "property fails, a KernelBench-style check (5 random normal trials at one power-of-two shape,\n"
    "allclose 1e-4 for f32, 1e-2 for bf16; n/a for a dtype the mutant does not take) beside it, and,\n"
    "separately, a short fuzz: fuzz_run on the mutant's op target pinned to the mutant. The mutant_gpuv_*\n"
    "ones are left to the GPU-side tools that kill them (check --sanitize, huge, fault isolation).\n",
    kOptions,
    "0 every mutant killed by the catalogue, 1 a mutant survived, 2 bad input, 3 not run here",
    &mutants};

}  // namespace kverify::cli
