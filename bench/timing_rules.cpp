#include "bench/timing_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kverify::bench {
namespace {

std::string printed(const char* format, auto... args) {
  char b[400];
  std::snprintf(b, sizeof b, format, args...);
  return b;
}

std::string l2_residency(const std::string& who, const Timing& t) {
  if (t.persisting_l2_bytes == 0 && t.policy_window_bytes == 0) return "";
  return printed(
      "[L2 persistence] %s set aside %zu bytes of L2 for persisting accesses and a %zu-byte access-policy window on "
      "the bench's stream: lines kept that way stay in L2 through the flush between repetitions, so its time would "
      "depend on what earlier calls left there",
      who.c_str(), t.persisting_l2_bytes, t.policy_window_bytes);
}

std::string unseen_work(const std::string& who, const Timing& t) {
  if (!(t.busy_after_median > std::max(kBusyAfterSlackMs, kBusyAfterFraction * t.median))) return "";
  return printed(
      "[unseen work] %s left work running on the device %.4f ms (median) after its stop event, against %.4f ms "
      "timed: another stream or a host thread the events do not see",
      who.c_str(), t.busy_after_median, t.median);
}

std::string timer_disagrees(const std::string& who, const Timing& t) {
  if (std::isnan(t.wall_median)) return "";
  const double allowed = t.median + t.flush_ms + std::max(kWallSlackMs, kWallFraction * t.median);
  if (t.wall_median <= allowed) return "";
  return printed(
      "[timer disagrees] %s: the host's clock saw %.4f ms from the call to the device idle (median of %zu), the "
      "events %.4f ms, more than the %.4f ms the flush and the host's own calls explain: a timer that under-reports",
      who.c_str(), t.wall_median, t.wall_ms.size(), t.median, allowed);
}

// A rate past a peak: `amount` of `what` in the median, per `scale` units.
std::string past_peak(const std::string& who, const Timing& t, double amount, const char* what, double scale,
                      const char* unit, double peak, const char* peak_name) {
  const double rate = amount / (t.median * 1e-3) / scale;
  if (peak <= 0 || amount <= 0 || rate <= peak) return "";
  return printed(
      "[impossible] %s: %.3g %s in %.4f ms: %.0f %s, above this device's %s of %.0f %s; the timing missed work "
      "(memoized results, work outside the window)",
      who.c_str(), amount, what, t.median, rate, unit, peak_name, peak, unit);
}

}  // namespace

std::string timing_refusal(const std::string& who, const Timing& t, const WorkModel& work, const DeviceInfo& info) {
  for (std::string r :
       {l2_residency(who, t), unseen_work(who, t), timer_disagrees(who, t),
        past_peak(who, t, work.read_bytes, "bytes of inputs read", 1e9, "GB/s", info.dram_peak_gbps, "DRAM peak"),
        past_peak(who, t, work.flops, "FLOP", 1e12, "TFLOP/s", info.tensor_peak_tflops, "dense tensor-core peak")})
    if (!r.empty()) return r;
  return "";
}

}  // namespace kverify::bench
