// std::thread helpers for host work over many elements (the pipeline's images and guards with
// threads > 1, the bench's gate, reference and timed inputs).
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kverify {

// fn(begin, end) over [0, n) in `threads` contiguous chunks; the first exception is rethrown.
template <typename F>
void parallel_for(std::int64_t n, unsigned threads, F&& fn) {
  const std::int64_t t = std::max<std::int64_t>(1, std::min<std::int64_t>(threads, n));
  if (t <= 1) {
    if (n > 0) fn(std::int64_t{0}, n);
    return;
  }
  std::exception_ptr error;
  std::mutex m;
  std::vector<std::thread> pool;
  for (std::int64_t i = 0; i < t; ++i)
    pool.emplace_back([&, i] {
      try {
        fn(n * i / t, n * (i + 1) / t);
      } catch (...) {
        std::lock_guard lock(m);
        if (!error) error = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

inline unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace kverify
