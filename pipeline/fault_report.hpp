// `kverify run` of a Case whose kernel crashes the process (emu: a wild write is a SIGSEGV in this
// very process): print a clear failing Verdict line with the Case and exit 1 instead of dying
// silently. (On cuda a fault is a CUDA error, which the pipeline already turns into a failing
// Verdict; `kverify check` isolates faults in child processes, check/isolation.hpp.)
#pragma once

#include <string>

namespace kverify {

// Installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT (on an alternate stack: the
// fault may be on an emulated thread's fiber stack) that report `case_line` and _exit(1).
void report_faults_of(const std::string& case_line);

}  // namespace kverify
