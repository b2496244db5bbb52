// `kverify huge` and `kverify agree`: the option tables and the adapters to gpu/commands.hpp.
#include "core/error.hpp"
#include "gpu/commands.hpp"
#include "tools/command.hpp"

namespace kverify::cli {
namespace {

std::string case_check(std::string_view v) {
  try {
    parse_case(v);
    return "";
  } catch (const InputError& e) {
    return std::string("a Case line (") + e.what() + ")";
  }
}

constexpr Option kHugeOptions[] = {
    {"--backend", "cuda|emu", ValueKind::choice, "where to run (emu needs the memory and hours of CPU time)", "cuda",
     "cuda|emu"},
    {"--op", "NAME", ValueKind::op, "only this op's Cases"},
    {"--variant", "NAME", ValueKind::variant,
     "only this variant (e.g. the 32-bit index mutant mutant_gpuv_int32_index, which must FAIL; a variant\n"
     "that faults the GPU ends the run: give it its own)"},
    {"--case", "LINE", ValueKind::text,
     "this Case instead of the built-in list (repeatable), e.g. a smaller one on emu", "", "", 0, 0, &case_check, true},
    {"--plan", "", ValueKind::flag,
     "print each Case's elements, memory need, what is free, the sampled rows; run nothing"},
};

int huge(const ParsedOptions& p) {
  HugeOptions o;
  if (p.text("--backend", "cuda") == "emu") o.backend = Backend::emu;
  o.op = p.get("--op");
  o.variant = p.get("--variant");
  o.cases = p.all("--case");
  o.plan_only = p.has("--plan");
  return run_huge(o);
}

constexpr Option kAgreeOptions[] = {
    {"--op", "NAME", ValueKind::op, "only this op"},
    {"--dtype", "f32|f16|bf16", ValueKind::dtype, "only this dtype"},
    {"--budget", "N", ValueKind::whole, "random Cases per op and dtype", "20", "", 0, 100000},
    {"--seed", "S", ValueKind::seed, "seed of the random Cases", "2026"},
    {"--out", "DIR", ValueKind::text, "where agreement.md and agreement.json go", "reports/<device>/"},
};

int agree(const ParsedOptions& p) {
  AgreeOptions o;
  o.op = p.get("--op");
  if (const auto d = p.get("--dtype")) o.dtype = *parse_dtype(*d);
  o.budget = static_cast<int>(p.whole("--budget", o.budget));
  o.seed = p.seed("--seed", o.seed);
  o.out_dir = p.text("--out", "");
  return run_agree(o);
}

}  // namespace

const Command kHugeCommand{
    "huge",
    {"", 0, 0},
    "Cases past 2^31 elements and 4 GiB offsets, every op (32-bit index bugs)",
    "Runs the huge Cases (more than 2^31 elements, byte offsets past 4 GiB) on every production variant of\n"
    "each op that takes them. Each Case is checked completely for its guards (canaries and gaps of every\n"
    "buffer, every output element written: NaN poison, input bytes unchanged) and against the reference\n"
    "on sampled rows (the first two, the middle, the last four, the rows of element 2^31 and of the\n"
    "2^31- and 2^32-byte offsets of each tensor, and seeded random rows). Inputs are materialised once\n"
    "per Case and shared by its variants, in parallel over the host's cores. The memory a Case needs is\n"
    "checked first (host: MemAvailable; device: cudaMemGetInfo); a Case that does not fit is NOT RUN\n"
    "with 'needs X GiB ..., Y GiB free' (KVERIFY_MEMORY_LIMIT_GIB=N caps what counts as available).\n",
    kHugeOptions,
    "0 all passed (with --variant of a mutant: it was caught), 1 a kernel failed (or the mutant survived),\n"
    "2 bad input, 3 nothing could run here (no GPU, or no Case fits in memory)",
    &huge};

const Command kAgreeCommand{
    "agree",
    {"", 0, 0},
    "the same Cases on emu and cuda: both within policy, their largest differences",
    "Runs the boundary Cases of `kverify check` and N random Cases per op and dtype on every production\n"
    "variant that runs on both backends. Each Case must pass on both (a full Verdict each); then the two\n"
    "outputs are compared element by element. Per op and dtype the report gives the largest difference\n"
    "between the backends: absolute, in ulps of the output dtype, and in units of the policy's bound at\n"
    "that element, each with the Case line of the worst one, and the share of elements that are bitwise\n"
    "equal. Writes DIR/agreement.md and DIR/agreement.json.\n",
    kAgreeOptions,
    "0 both backends passed every Case, 1 a Case failed on one of them, 2 bad input, 3 not run here (no\n"
    "GPU: the agreement cannot be measured, and this is never a pass)",
    &agree};

}  // namespace kverify::cli
