// Summary of repeated timings: median and the 10th/90th percentiles (never a mean alone). The
// functions have internal linkage: a kernel's source that defines the same names cannot take their
// place in the bench (an inline function with external linkage is one entity across the program,
// and the linker would keep either definition).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kverify::bench {

struct Timing {
  std::vector<double> ms;  // one per repetition, in order
  double median = 0, p10 = 0, p90 = 0, min = 0;
  // Per repetition, how long the device stayed busy after the stop event had completed (work the
  // events did not see: another stream, a host thread's launches), and its median.
  std::vector<double> busy_after_ms;
  double busy_after_median = 0;
  // The wall-clock cross-check: per extra repetition, the host's time from the operation's call
  // (the flush done, the device idle) to the whole device idle, and its median; and the flush's
  // own median, which hides up to that much of a launcher's host time from the events.
  std::vector<double> wall_ms;
  double wall_median = NAN, flush_ms = 0;
  // The most L2 set aside for persisting accesses, and the widest access-policy window on the
  // timer's stream, seen after any repetition (0: none; the timer leaves neither in place).
  std::size_t persisting_l2_bytes = 0, policy_window_bytes = 0;
};

// Percentile by linear interpolation between closest ranks (p in [0, 1]).
static inline double percentile(std::vector<double> sorted, double p) {
  if (sorted.empty()) return NAN;
  std::sort(sorted.begin(), sorted.end());
  const double pos = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

static inline Timing summarize(std::vector<double> ms) {
  Timing t;
  t.ms = std::move(ms);
  t.median = percentile(t.ms, 0.5);
  t.p10 = percentile(t.ms, 0.1);
  t.p90 = percentile(t.ms, 0.9);
  t.min = t.ms.empty() ? NAN : *std::min_element(t.ms.begin(), t.ms.end());
  return t;
}

}  // namespace kverify::bench
