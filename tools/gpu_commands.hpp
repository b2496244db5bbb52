// `kverify huge` (Cases with more than 2^31 elements) and `kverify agree` (emu against the GPU):
// README "GPU-side verification".
#pragma once

#include <span>
#include <string_view>

namespace kverify {

inline constexpr std::string_view kHugeUsage = "huge [--backend cuda|emu] [--op O] [--variant V] [--case LINE] [--plan]";
inline constexpr std::string_view kHugeSummary = "Cases past 2^31 elements and 4 GiB offsets, every op (32-bit index bugs)";
inline constexpr std::string_view kHugeHelp =
    "Runs the huge Cases (more than 2^31 elements, byte offsets past 4 GiB) on every production variant\n"
    "of each op that takes them. Each Case is checked completely for its guards (canaries and gaps of\n"
    "every buffer, every output element written: NaN poison, input bytes unchanged) and against the\n"
    "reference on sampled rows: the first two, the middle, the rows of element 2^31 and byte offset\n"
    "2^32 of each tensor, the last two, and 10 seeded random rows (a full float64 reference of 2^31\n"
    "elements would take the host minutes per variant). Inputs are materialised once per Case and\n"
    "shared by its variants, in parallel over the host's cores. The memory a Case needs is checked\n"
    "first (host: MemAvailable; device: cudaMemGetInfo); a Case that does not fit is NOT RUN with\n"
    "'needs X GiB ..., Y GiB free' (KVERIFY_MEMORY_LIMIT_GIB=N caps what counts as available).\n"
    "Options:\n"
    "  --backend cuda|emu   where to run (default cuda; emu needs the memory and hours of CPU time)\n"
    "  --op NAME            only this op's Cases\n"
    "  --variant NAME       only this variant (e.g. the 32-bit index mutant mutant_gpuv_int32_index,\n"
    "                       which must FAIL; a variant that faults the GPU ends the run: give it its own)\n"
    "  --case LINE          this Case instead of the built-in list (repeatable), e.g. a smaller one on emu\n"
    "  --plan               print each Case's elements, memory need, what is free, the sampled rows; run nothing\n"
    "Exit: 0 all passed (with --variant of a mutant: it was caught), 1 a kernel failed (or the mutant\n"
    "survived), 2 bad input, 3 nothing could run here (no GPU, or no Case fits in memory).\n";

inline constexpr std::string_view kAgreeUsage = "agree [--op O] [--dtype D] [--budget N] [--seed S] [--out DIR]";
inline constexpr std::string_view kAgreeSummary = "the same Cases on emu and cuda: both within policy, their largest differences";
inline constexpr std::string_view kAgreeHelp =
    "Runs the boundary Cases of `kverify check` and N random Cases per op and dtype on every production\n"
    "variant that runs on both backends. Each Case must pass on both (a full Verdict each); then the\n"
    "two outputs are compared element by element. Per op and dtype the report gives the largest\n"
    "difference between the backends: absolute, in ulps of the output dtype, and in units of the\n"
    "policy's bound at that element, each with the Case line of the worst one, and the share of\n"
    "elements that are bitwise equal. Writes DIR/agreement.md and DIR/agreement.json (DIR default:\n"
    "reports/<device>/, e.g. reports/h200/).\n"
    "Options:\n"
    "  --op NAME, --dtype f32|f16|bf16   filters\n"
    "  --budget N     random Cases per op and dtype (default 20)\n"
    "  --seed S       seed of the random Cases (default 2026)\n"
    "  --out DIR      where the report goes\n"
    "Exit: 0 both backends passed every Case, 1 a Case failed on one of them, 2 bad input, 3 not run\n"
    "here (no GPU: the agreement cannot be measured, and this is never a pass).\n";

int huge_command(std::span<const std::string_view> args);
int agree_command(std::span<const std::string_view> args);

}  // namespace kverify
