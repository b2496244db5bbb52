#include "core/progress.hpp"

#include <chrono>
#include <cstdio>

namespace kverify {

StepCounter& current_step() {
  static StepCounter step;
  return step;
}

std::int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double seconds_in_step() {
  return static_cast<double>(steady_now_ns() - current_step().started_ns.load(std::memory_order_relaxed)) * 1e-9;
}

std::string fraction_with_estimate(std::int64_t done, std::int64_t total, const char* unit, double seconds) {
  char line[160];
  std::snprintf(line, sizeof line, "%lld of %lld %s (%.1f %%)", static_cast<long long>(done),
                static_cast<long long>(total), unit, total > 0 ? 100.0 * static_cast<double>(done) / total : 0.0);
  std::string out = line;
  if (done > 0 && done < total)
    out += ", about " + std::to_string(static_cast<long long>(seconds * (total - done) / done + 0.5)) +
           " s left in this step";
  return out;
}

std::string time_left(std::int64_t done, std::int64_t total, double seconds) {
  if (done <= 0 || done >= total) return "";
  return "about " + std::to_string(static_cast<long long>(seconds * (total - done) / done + 0.5)) +
         " s left at the pace so far";
}

ProgressWatch::ProgressWatch(std::string prefix, Describe describe, double after_seconds, double every_seconds)
    : prefix_(std::move(prefix)), describe_(std::move(describe)), after_(after_seconds), every_(every_seconds) {
  thread_ = std::thread([this] { watch(); });
}

ProgressWatch::~ProgressWatch() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_signal_.notify_all();
  thread_.join();
}

void ProgressWatch::watch() {
  using seconds = std::chrono::duration<double>;
  const auto start = std::chrono::steady_clock::now();
  double wait = after_;
  std::unique_lock lock(mutex_);
  while (!stop_signal_.wait_for(lock, seconds(wait), [this] { return stop_; })) {
    if (const std::string now = describe_(); !now.empty())
      std::fprintf(stderr, "%s: %.0f s so far: %s\n", prefix_.c_str(),
                   seconds(std::chrono::steady_clock::now() - start).count(), now.c_str());
    wait = every_;
  }
}

}  // namespace kverify
