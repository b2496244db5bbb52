#include "pipeline/fault_report.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <utility>

namespace kverify {
namespace {

FaultReport& prepared() {
  static FaultReport r;
  return r;
}

void write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = write(fd, p, size);
    if (n <= 0) return;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

void on_fault(int sig) {
  // async-signal-safe: open(2), write(2) and close(2) of prepared bytes only
  const FaultReport& r = prepared();
  for (const FaultReport::File& f : r.files) {
    const int fd = open(f.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) continue;
    write_all(fd, f.bytes.data(), f.bytes.size());
    close(fd);
  }
  write_all(1, r.before.data(), r.before.size());
  if (const char* abbrev = sigabbrev_np(sig)) {
    write_all(1, "SIG", 3);
    write_all(1, abbrev, std::strlen(abbrev));
  }
  write_all(1, r.after.data(), r.after.size());
  _exit(1);
}

void install_handlers() {
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

}  // namespace

void report_faults(FaultReport report) {
  static const bool installed = (install_handlers(), true);
  (void)installed;
  prepared() = std::move(report);
}

void report_faults_of(const std::string& case_line, const std::string& alongside) {
  const std::string pair = alongside.empty() ? "" : "' --alongside '" + alongside;
  report_faults({.before = kCrashHeading,
                 .after = kCrashCauses + std::string("  the Case: ") + case_line +
                          (alongside.empty() ? "" : "\n  at once with: " + alongside) +
                          "\n  reproduce: ./kverify run '" + case_line + pair + "'\n"});
}

}  // namespace kverify
