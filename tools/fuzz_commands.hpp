// `kverify fuzz` and `kverify replay`: the command-line side of fuzz/. Both run the libFuzzer
// binaries of the fuzz tree (build-fuzz/fuzz/fuzz_<target>, built by ./kverify with the fuzz
// preset); the Case work happens there, under ASan and UBSan.
#pragma once

#include <span>
#include <string_view>

namespace kverify {

inline constexpr std::string_view kFuzzUsage = "fuzz <target> [--time S] [--variant V] [--jobs N] [...]";
inline constexpr std::string_view kFuzzSummary = "coverage-guided fuzzing of one target (libFuzzer, ASan+UBSan)";
inline constexpr std::string_view kFuzzHelp =
    "Runs build-fuzz/fuzz/fuzz_<target> with kverify's defaults: the target's dictionary and options\n"
    "(fuzz/options/<target>.options), the seeds and regressions of corpus/<target>/ (read only), a\n"
    "working corpus and the artifacts in --work, sanitizer options (ASAN_OPTIONS/UBSAN_OPTIONS from\n"
    "the environment win). Prints execs/s, coverage and corpus size at the end. A finding (a failing\n"
    "Verdict, a sanitizer report, a crash or a timeout) is minimized, kept in --keep with its Case\n"
    "line next to it (<name>.case), and printed as a Case line.\n"
    "Targets: softmax, gelu_tanh, row_sum, matmul_relu (Cases on emu), case_parser, cli;\n"
    "softmax_planted (a planted tail bug: the demo that the fuzzer finds one).\n"
    "Options (all of them: fuzz <target> [--time S] [--variant V] [--jobs N] [--backend emu|cuda]\n"
    "         [--work DIR] [--keep DIR] [-- libFuzzer flags]):\n"
    "  --time S          seconds to fuzz (default 60)\n"
    "  --variant V       only this variant of the target's op (default: every production variant and auto)\n"
    "  --jobs N          N fuzzing processes on this machine sharing one corpus (libFuzzer -fork=N; default 1)\n"
    "  --backend B       emu (default) or cuda (a build of the targets with the cuda backend, on a GPU)\n"
    "  --work DIR        working corpus, artifacts and logs (default build-fuzz/fuzz-work/<target>)\n"
    "  --keep DIR        where a minimized finding is kept (default corpus/<target>/regressions)\n"
    "  -- FLAGS...       passed to libFuzzer as they are (e.g. -- -use_value_profile=1)\n"
    "Exit: 0 no finding, 1 a finding, 2 bad input, 3 not run here (build-fuzz missing, no GPU).\n";

inline constexpr std::string_view kReplayUsage = "replay <file|dir>... [--target T] [--backend B]";
inline constexpr std::string_view kReplaySummary = "replay fuzz inputs and regression Case lines with their verdicts";
inline constexpr std::string_view kReplayHelp =
    "Runs every input once through its target (the fuzz tree's binary, ASan+UBSan) and prints the\n"
    "Case it decodes to and its verdict; <name>.case files are Case lines and run as they are.\n"
    "A path under corpus/<target>/ names its target; corpus/ itself replays every target's folder;\n"
    "anything else needs --target T.\n"
    "  ./kverify replay corpus                    every corpus (what ./kverify test does)\n"
    "  ./kverify replay corpus/softmax/regressions/crash-1a2b3c\n"
    "Exit: 0 no finding, 1 a finding (FAIL, a sanitizer report, a crash), 2 bad input, 3 build-fuzz missing.\n";

// The `fuzz` and `replay` commands of tools/kverify_main.cpp.
int fuzz_command(std::span<const std::string_view> args);
int replay_command(std::span<const std::string_view> args);

// Set by the cli fuzz target: parse and validate the arguments, then start nothing.
extern bool fuzz_commands_dry_run;

}  // namespace kverify
