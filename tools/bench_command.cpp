// `kverify bench`: the option table and the adapter to bench/bench_command.hpp.
#include "bench/bench_command.hpp"
#include "core/error.hpp"
#include "tools/command.hpp"

namespace kverify::cli {
namespace {

std::string shape_check(std::string_view v) {
  try {
    bench::parse_bench_shape(v);
    return "";
  } catch (const InputError&) {
    return "RxC or MxNxK with sizes >= 1, e.g. 4096x1024, or the op's dims NAME:N,..., e.g. N:4096,C:1024";
  }
}

std::string variant_check(std::string_view v) {
  if (v == "auto" || v == "all") return "";
  for (const auto& x : all_variants())
    if (x.name == v) return "";
  return "auto, all, or a variant of `kverify list`";
}

constexpr Option kOptions[] = {
    {"--op", "NAME", ValueKind::op, "only this op", "every op"},
    {"--variant", "V", ValueKind::text, "auto, all (every production variant that takes the shape), or a name", "auto",
     "", 0, 0, &variant_check},
    {"--dtype", "f32|f16|bf16", ValueKind::dtype, "only this dtype"},
    {"--shape", "RxC|MxNxK|NAME:N,...", ValueKind::text, "only this shape (needs --op or a variant of one op)", "", "",
     0, 0, &shape_check},
    {"--reps", "N", ValueKind::whole, "timed repetitions", "50", "", 1, 100000},
    {"--warmup", "N", ValueKind::whole, "untimed repetitions first", "3", "", 0, 1000},
    {"--gate-extra", "N", ValueKind::whole, "extra random-value gate Cases per timed Case", "2", "", 0, 100},
    {"--seed", "N", ValueKind::seed, "seed of the extra Cases and of the sampled rows", "from the clock, printed"},
    {"--reference-budget", "N", ValueKind::whole,
     "reference work done in full per Case (output elements x reduction length); beyond it the\n"
     "reference runs on sampled rows (always the first, middle, last, 2^31/2^32-byte rows)",
     "16777216", "", 1, INT64_MAX},
    {"--quick", "", ValueKind::flag, "small shapes (a fast check of the whole path)"},
    {"--json", "F", ValueKind::text, "the JSON output",
     "on a GPU: reports/h200/bench.json on an H200, else reports/cuda/"},
    {"--md", "F", ValueKind::text, "the Markdown output", "beside the JSON"},
    kStrict,
};

int bench(const ParsedOptions& p) {
  BenchOptions o;
  o.plan.op = p.text("--op", "");
  o.plan.variant = p.text("--variant", "auto");
  if (const auto d = p.get("--dtype")) o.plan.dtype = *parse_dtype(*d);
  if (const auto s = p.get("--shape")) o.plan.shape = bench::parse_bench_shape(*s);
  o.reps = static_cast<int>(p.whole("--reps", o.reps));
  o.warmup = static_cast<int>(p.whole("--warmup", o.warmup));
  o.plan.gate_extra = static_cast<int>(p.whole("--gate-extra", o.plan.gate_extra));
  o.seed_given = p.has("--seed");
  o.plan.seed = p.seed("--seed", o.plan.seed);
  o.reference_budget =
      static_cast<std::uint64_t>(p.whole("--reference-budget", static_cast<long long>(o.reference_budget)));
  o.plan.quick = p.has("--quick");
  o.json_path = p.text("--json", "");
  o.md_path = p.text("--md", "");
  return run_bench(o);
}

}  // namespace

const Command kBenchCommand{
    "bench",
    {"", 0, 0},
    "time kernels on the GPU, each only after its correctness gate passed",
    "1. The gate: every Case to be timed (and --gate-extra random-value Cases of its shape) is checked\n"
    "   first: reference agreement under the policy (sampled by rows on big Cases: it says so), canaries,\n"
    "   NaN/random poison, input immutability, two runs bitwise. A failing Case gets no time, only its\n"
    "   Verdict with the reproduce line.\n"
    "2. Timing (cuda): warm-up, CUDA events on one stream, inputs made before, an L2 flush (a 256 MiB\n"
    "   read: no input in L2, no dirty line) before each repetition; median, p10, p90. The\n"
    "   device-to-device copy bandwidth of the same run is the ceiling; each op's baseline runs in the\n"
    "   same run (OpSpec::bench_baseline_name).\n"
    "3. What a time must survive: each repetition starts from poisoned outputs on the gate's own device\n"
    "   images (its rows rotated by a secret shift where the op's rows are independent) and must end\n"
    "   with the gate's bytes, rotated alike (outputs, inputs, canaries); the device must be idle\n"
    "   when the stop event completes (no work left on another stream or by a host thread); no L2 may\n"
    "   be kept persisting across repetitions; 5 more repetitions timed by the host's clock alone must\n"
    "   agree with the events; the rate must stay under the device's DRAM and tensor-core peaks. A\n"
    "   timing that fails one is REFUSED with the cheat class (docs/bench.md, what the bench refuses).\n"
    "Default Cases: each op's bench shapes, variant=auto. Without a GPU the gate runs on emu with the\n"
    "--quick shapes and the bench says it cannot time.\n",
    kOptions,
    "0 all timed, 1 a gate failed or a timing was refused (those Cases untimed), 2 bad input, 3 not timed here (no "
    "GPU)",
    &bench};

}  // namespace kverify::cli
