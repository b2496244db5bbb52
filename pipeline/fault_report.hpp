// A process whose kernel crashes it (emu: a wild write is a SIGSEGV in this very process) ends
// with a clear report instead of dying silently: `kverify run` prints a failing Verdict line with
// the Case and exits 1; fuzz_run prints its finding and keeps the input that crashed, as libFuzzer
// does. (On cuda a fault is a CUDA error, which the pipeline already turns into a failing Verdict;
// `kverify check` isolates faults in child processes, check/isolation.hpp.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kverify {

// What the handlers do when a fatal signal ends the process: write each file, then print
// `before`, the signal's name and `after`, and _exit(1). Prepared before each run: a handler may
// only write(2) what is already there.
struct FaultReport {
  std::string before, after;
  struct File {
    std::string path;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<File> files;
};

// Sets the report; the first call installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and
// SIGABRT (on an alternate stack: the fault may be on an emulated thread's fiber stack).
void report_faults(FaultReport report);

// `kverify run`'s report: the Verdict line of `case_line` and its reproduce line (with the Case run
// at the same time, when there is one).
void report_faults_of(const std::string& case_line, const std::string& alongside = "");

// The line every crash report starts with, up to the signal's name.
inline constexpr const char* kCrashHeading = "FAIL  device fault: the kernel crashed the process with signal ";
// What follows the signal's name.
inline constexpr const char* kCrashCauses =
    " (a wild memory access, a trap or an abort in the launcher, the kernel or the emulator)\n";

}  // namespace kverify
