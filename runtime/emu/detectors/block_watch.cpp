#include "runtime/emu/detectors/block_watch.hpp"

#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "runtime/emu/detectors/race_detector.hpp"

namespace kverify::emu::watch {
namespace {

constexpr int kSlots = 64;      // launches running at once (an OS thread each)
constexpr int kMaxFrames = 32;  // of the stuck thread's stack, sampled once

struct Slot {
  std::atomic<bool> used{false};
  // Set by the watchdog while it reports: the launch's thread then waits at its next block or at
  // the launch's end, so that what `describe` reads stays alive.
  std::atomic<bool> reporting{false};
  std::atomic<std::int64_t> block_started_ns{0};  // 0: between blocks
  pthread_t thread{};
  std::function<std::string(int)> describe;
  const int* running = nullptr;
  // Filled by the stuck thread itself, in the signal handler.
  void* frames[kMaxFrames] = {};
  int sampled_running = -1;
  std::atomic<int> frame_count{-1};
};
std::array<Slot, kSlots> slots;
std::mutex slots_mutex;
constinit thread_local Slot* t_slot = nullptr;

std::atomic<HangReporter> reporter{nullptr};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// On the stuck thread: its own stack, through the signal frame into the kernel's frames.
void sample_stack(int) {
  if (Slot* s = t_slot) {
    s->sampled_running = *s->running;
    s->frame_count.store(backtrace(s->frames, kMaxFrames), std::memory_order_release);
  }
}

// The innermost frame in the kernel's source: not emu's own code, not the system's headers.
std::string kernel_line(const Slot& s) {
  const int n = s.frame_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    const std::string line = race::source_line(s.frames[i]);
    const bool emu_itself =
        line.find("/runtime/emu/") != std::string::npos && line.find("/runtime/emu/tests/") == std::string::npos;
    if (emu_itself || line.starts_with("/usr/") || line.starts_with("an unknown place")) continue;
    return line;
  }
  return n < 0 ? std::string("(its stack could not be sampled)") : std::string("(no frame with a source line)");
}

// Asks the stuck thread for its stack and gives it a moment to answer. A sample taken while the
// scheduler hands over between two threads (its own frames only) is taken again: the report names
// a thread and its line.
void sample_running_thread(Slot& s) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    s.frame_count.store(-1);
    pthread_kill(s.thread, SIGURG);
    for (int i = 0; i < 50 && s.frame_count.load(std::memory_order_acquire) < 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (s.frame_count.load(std::memory_order_acquire) < 0 || s.sampled_running >= 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

[[noreturn]] void report_hang(Slot& s, double seconds) {
  sample_running_thread(s);
  char limit[96];
  std::snprintf(limit, sizeof limit, "%.1f s without ending (the limit: %g s, KVERIFY_EMU_BLOCK_SECONDS)", seconds,
                block_limit_seconds());
  const std::string report =
      s.describe(s.sampled_running) + " has run " + limit + "; the running thread is at " + kernel_line(s) +
      " (a loop that never yields: a spin-wait needs __nanosleep on emu, and a flag someone sets)";
  if (HangReporter r = reporter.load()) r(report);
  std::fprintf(stderr, "kverify emu: time limit: %s\n", report.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

void watchdog() {
  const double limit = block_limit_seconds();
  // A quarter of the limit, at most half a second (a short limit is seen soon after it passes).
  const auto period = std::chrono::microseconds(static_cast<long>(std::clamp(limit / 4, 1e-3, 0.5) * 1e6));
  for (;;) {
    std::this_thread::sleep_for(period);
    const std::int64_t now = now_ns();
    for (Slot& s : slots) {
      if (!s.used.load(std::memory_order_acquire)) continue;
      const std::int64_t started = s.block_started_ns.load(std::memory_order_relaxed);
      if (started == 0 || static_cast<double>(now - started) * 1e-9 <= limit) continue;
      s.reporting.store(true);
      // The block may have ended, or the launch, between the two reads: then there is nothing to report.
      if (s.used.load() && s.block_started_ns.load() == started)
        report_hang(s, static_cast<double>(now - started) * 1e-9);
      s.reporting.store(false);
    }
  }
}

void start_watchdog() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = &sample_stack;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGURG, &sa, nullptr);
    void* warm[1];
    backtrace(warm, 1);  // loads libgcc's unwinder now, not inside the signal handler
    std::thread(watchdog).detach();
  });
}

}  // namespace

double block_limit_seconds() {
  static const double limit = [] {
    const char* v = std::getenv("KVERIFY_EMU_BLOCK_SECONDS");
    char* end = nullptr;
    const double d = v ? std::strtod(v, &end) : 0.0;
    return v && end != v && *end == '\0' && d > 0 ? d : 60.0;
  }();
  return limit;
}

void set_hang_reporter(HangReporter r) { reporter.store(r); }

LaunchWatch::LaunchWatch(std::function<std::string(int)> describe, const int* running) : slot_(-1) {
  start_watchdog();
  std::lock_guard lock(slots_mutex);
  for (int i = 0; i < kSlots; ++i)
    if (!slots[i].used.load()) {
      Slot& s = slots[i];
      s.thread = pthread_self();
      s.describe = std::move(describe);
      s.running = running;
      s.block_started_ns.store(0);
      s.used.store(true, std::memory_order_release);
      slot_ = i;
      t_slot = &s;
      return;
    }
  // More launches at once than slots: this one goes unwatched (never a refusal).
}

namespace {
void wait_while_reported(const Slot& s) {
  while (s.reporting.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}
}  // namespace

LaunchWatch::~LaunchWatch() {
  if (slot_ < 0) return;
  std::lock_guard lock(slots_mutex);
  Slot& s = slots[slot_];
  wait_while_reported(s);
  s.block_started_ns.store(0);
  s.used.store(false, std::memory_order_release);
  s.describe = nullptr;
  t_slot = nullptr;
}

void LaunchWatch::block_started() {
  if (slot_ < 0) return;
  wait_while_reported(slots[slot_]);
  slots[slot_].block_started_ns.store(now_ns(), std::memory_order_relaxed);
}

}  // namespace kverify::emu::watch
