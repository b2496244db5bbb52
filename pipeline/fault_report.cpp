#include "pipeline/fault_report.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>
#include <vector>

namespace kverify {
namespace {

std::string& message() {
  static std::string m;
  return m;
}

void on_fault(int sig) {
  // async-signal-safe: write(2) of prepared text only
  const char* head = "FAIL  device fault: the kernel crashed the process with signal ";
  (void)!write(1, head, std::strlen(head));
  const char* abbrev = sigabbrev_np(sig);
  if (abbrev) {
    (void)!write(1, "SIG", 3);
    (void)!write(1, abbrev, std::strlen(abbrev));
  }
  (void)!write(1, message().data(), message().size());
  _exit(1);
}

}  // namespace

void report_faults_of(const std::string& case_line) {
  message() = " (" +
              std::string("a wild memory access, a trap or an abort in the launcher, the kernel or the emulator") +
              ")\n  the Case: " + case_line + "\n  reproduce: ./kverify run '" + case_line + "'\n";
  static std::vector<char> alt(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = &on_fault;
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace kverify
