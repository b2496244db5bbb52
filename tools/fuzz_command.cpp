// `kverify fuzz` and `kverify replay`: the option tables and the adapters to fuzz/driver.hpp.
#include "core/error.hpp"
#include "fuzz/driver.hpp"
#include "fuzz/target_names.hpp"
#include "tools/command.hpp"

namespace kverify::cli {
namespace {

std::string target_check(std::string_view v) { return fuzz::find_target_name(v) ? "" : target_list(); }

constexpr Option kFuzzOptions[] = {
    {"--time", "S", ValueKind::whole, "seconds to fuzz", "60", "", 1, 7 * 24 * 3600},
    {"--variant", "V", ValueKind::variant, "only this variant of the target's op (a mutant of it too)",
     "every production variant, and auto"},
    {"--jobs", "N", ValueKind::whole,
     "fuzzing processes on this machine sharing one corpus (libFuzzer -fork=N); with --backend cuda\n"
     "each on a GPU of its own (N <= the GPUs visible)",
     "1", "", 1, 256},
    {"--backend", "emu|cuda", ValueKind::choice,
     "where the Cases run (cuda: a build of the targets with the cuda backend)", "emu", "emu|cuda"},
    {"--work", "DIR", ValueKind::text, "working corpus, artifacts and logs", "build-fuzz/fuzz-work/<target>"},
    {"--keep", "DIR", ValueKind::text, "where a minimized finding is kept", "corpus/<target>/regressions"},
    kStrict,
    kNoRaceDetector,
};

int fuzz(const ParsedOptions& p) {
  if (const std::string accepted = target_check(p.operands[0]); !accepted.empty())
    throw InputError("unknown target " + shown(p.operands[0]) + " (accepted: " + accepted + ")");
  FuzzArgs a;
  a.target = p.operands[0];
  a.seconds = p.whole("--time", a.seconds);
  a.variant = p.get("--variant");
  a.jobs = p.whole("--jobs", a.jobs);
  a.backend = p.text("--backend", a.backend);
  a.work = p.get("--work");
  a.keep = p.get("--keep");
  a.passthrough = p.passthrough;
  return fuzz_command(std::move(a));
}

constexpr Option kReplayOptions[] = {
    {"--target", "T", ValueKind::text, "the target of every path (else each path's corpus/<target>/ folder names it)",
     "", "", 0, 0, &target_check},
    {"--backend", "emu|cuda", ValueKind::choice, "where the Cases run", "emu", "emu|cuda"},
    kStrict,
    kNoRaceDetector,
};

int replay(const ParsedOptions& p) {
  ReplayArgs a;
  a.target = p.get("--target");
  a.backend = p.text("--backend", a.backend);
  a.paths = p.operands;
  return replay_command(a);
}

}  // namespace

const Command kFuzzCommand{
    "fuzz",
    {"<target>", 1, 1, true},
    "coverage-guided fuzzing of one target (libFuzzer, ASan+UBSan)",
    "Runs build-fuzz/fuzz/fuzz_<target> with kverify's defaults: the target's generated dictionary and its\n"
    "options (fuzz/options/), the seeds and regressions of corpus/<target>/ (read only), a working corpus\n"
    "and the artifacts in --work, sanitizer options (ASAN_OPTIONS/UBSAN_OPTIONS from the environment\n"
    "win). Prints execs/s, coverage and corpus size at the end. A finding (a failing Verdict, a sanitizer\n"
    "report, a crash or a timeout) is minimized, kept in --keep with its Case line next to it\n"
    "(<name>.case), and printed as a Case line. After --, flags go to libFuzzer as they are.\n"
    "Targets: one per op (Cases on emu), case_parser, cli; softmax_planted (a planted tail bug: the demo\n"
    "that the fuzzer finds one).\n",
    kFuzzOptions,
    "0 no finding, 1 a finding, 2 bad input, 3 not run here (build-fuzz missing, no GPU)",
    &fuzz};

const Command kReplayCommand{
    "replay",
    {"<file|dir>...", 1, -1},
    "replay fuzz inputs and regression Case lines with their verdicts",
    "Runs every input once through its target (the fuzz tree's binary, ASan+UBSan) and prints the Case it\n"
    "decodes to and its verdict; <name>.case files are Case lines and run as they are. A path under\n"
    "corpus/<target>/ names its target; corpus/ itself replays every target's folder; anything else needs\n"
    "--target T.\n"
    "  ./kverify replay corpus                    every corpus (what ./kverify test does)\n"
    "  ./kverify replay corpus/softmax/regressions/crash-1a2b3c\n",
    kReplayOptions,
    "0 no finding, 1 a finding (FAIL, a sanitizer report, a crash), 2 bad input, 3 build-fuzz missing",
    &replay};

}  // namespace kverify::cli
