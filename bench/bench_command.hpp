// `kverify bench`: timing gated behind correctness (README: Bench).
#pragma once

#include <span>
#include <string_view>

namespace kverify {

int bench_command(std::span<const std::string_view> args);
inline constexpr std::string_view kBenchUsage =
    "bench [--op O] [--variant V|all] [--dtype D] [--shape RxC|MxNxK] [--reps N] [--json F] [--md F] [--quick]";
inline constexpr std::string_view kBenchSummary = "time kernels on the GPU, each only after its correctness gate passed";
inline constexpr std::string_view kBenchHelp =
    "1. The gate: every Case to be timed (and --gate-extra random-value Cases of its shape) is checked\n"
    "   first: reference agreement under the policy (sampled by rows on big Cases: it says so),\n"
    "   canaries, NaN/random poison, input immutability, two runs bitwise. A failing Case gets no time,\n"
    "   only its Verdict with the reproduce line.\n"
    "2. Timing (cuda): warm-up, CUDA events on one stream, inputs made before, an L2 flush (256 MiB\n"
    "   write) before each repetition; median, p10, p90. The device-to-device copy bandwidth of the same\n"
    "   run is the ceiling; baselines in the same run: cuBLASLt+ReLU epilogue (matmul_relu), CUB\n"
    "   segmented sum (row_sum), eager multi-kernel softmax and gelu_tanh.\n"
    "Default Cases: the shapes of the performance issue (#11), variant=auto. Without a GPU the gate runs\n"
    "on emu with the --quick shapes and the bench says it cannot time.\n"
    "Options:\n"
    "  --op NAME             softmax, gelu_tanh, row_sum, matmul_relu (default: all)\n"
    "  --variant V           auto (default), all (every production variant that takes the shape), or a name\n"
    "  --dtype f32|f16|bf16  only this dtype\n"
    "  --shape RxC|MxNxK     only this shape (needs --op or a variant of one op)\n"
    "  --reps N              timed repetitions (default 50), --warmup N (default 3)\n"
    "  --gate-extra N        extra random-value gate Cases per timed Case (default 2)\n"
    "  --seed N              seed of the extra Cases and of the sampled rows (default: from the clock, printed)\n"
    "  --reference-budget N reference work done in full per Case (elements, matmul: multiply-adds; default\n"
    "                        2^24); beyond it the reference runs on sampled rows (always first, last, 2^31/2^32-byte rows)\n"
    "  --quick               small shapes (a fast check of the whole path)\n"
    "  --json F, --md F      outputs (default on a GPU: reports/h200/bench.json and .md when the device is\n"
    "                        an H200, else reports/cuda/; without a GPU only when given)\n"
    "Exit: 0 all timed, 1 a gate failed (those Cases untimed), 2 bad input, 3 not timed here (no GPU).\n";

}  // namespace kverify
