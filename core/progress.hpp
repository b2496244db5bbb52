// A progress line on stderr for a step that can take minutes: nothing for the first `after` seconds
// (most Cases take milliseconds), then every `every` seconds what is running and, where the step can
// say, how far it is and an estimate of the time left. Stops when it goes out of scope.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace kverify {

// The step in flight ("the exact reference", "run 1 of 2 of the kernel") and, where it counts its
// work (rows, say), how much of it is done: what a ProgressWatch line reports. One process-wide
// step; relaxed stores, cheap enough for a row loop.
struct StepCounter {
  std::atomic<const char*> name{""};  // a string literal
  std::atomic<std::int64_t> done{0}, total{0};
  std::atomic<std::int64_t> started_ns{0};  // steady_clock, when the step or its count began
};
StepCounter& current_step();
std::int64_t steady_now_ns();
inline void begin_step(const char* name, std::int64_t total = 0) {
  StepCounter& s = current_step();
  s.total.store(total, std::memory_order_relaxed);
  s.done.store(0, std::memory_order_relaxed);
  s.started_ns.store(steady_now_ns(), std::memory_order_relaxed);
  s.name.store(name, std::memory_order_relaxed);
}
// For code that knows the step's size only once it runs (a reference that counts its rows).
inline void size_step(std::int64_t total) {
  StepCounter& s = current_step();
  s.done.store(0, std::memory_order_relaxed);
  s.started_ns.store(steady_now_ns(), std::memory_order_relaxed);
  s.total.store(total, std::memory_order_relaxed);
}
inline void advance_step(std::int64_t units = 1) { current_step().done.fetch_add(units, std::memory_order_relaxed); }
double seconds_in_step();  // since begin_step or size_step

// "about N s left at the pace so far" (empty when nothing or everything is done): for a loop over
// items of unequal cost, a pace, not a promise.
std::string time_left(std::int64_t done, std::int64_t total, double seconds);

// "<done> of <total> <unit> (x %), about N s left" from a count and the seconds it has taken so far.
std::string fraction_with_estimate(std::int64_t done, std::int64_t total, const char* unit, double seconds);

class ProgressWatch {
 public:
  // "run 1 of 2 of the kernel: 3 of 9 blocks (33 %), ..."; "" prints nothing this time (nothing
  // worth a line: the watched work says enough itself).
  using Describe = std::function<std::string()>;

  ProgressWatch(std::string prefix, Describe describe, double after_seconds = 5, double every_seconds = 10);
  ~ProgressWatch();
  ProgressWatch(const ProgressWatch&) = delete;
  ProgressWatch& operator=(const ProgressWatch&) = delete;

 private:
  void watch();

  std::string prefix_;
  Describe describe_;
  double after_, every_;
  std::mutex mutex_;
  std::condition_variable stop_signal_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace kverify
