// The bench's refusal rules on timings made up to sit just inside and just outside each rule, as
// the GPU measures them (what a cheat leaves in a Timing: the device busy after the stop event, a
// host clock far above the events, L2 kept persisting, a rate past the device's peaks), so each
// rule is tested without a GPU; the planted cheats that produce such timings run on one
// (`kverify mutants --bench`, gpu/run.sh bench_cheats).
#include <gtest/gtest.h>

#include <string>

#include "bench/timing_rules.hpp"

namespace kverify::bench {
namespace {

// An H100 SXM's peaks, as device_info() computes them from its attributes.
DeviceInfo h100() {
  DeviceInfo info;
  info.name = "H100";
  info.dram_peak_gbps = 3352;
  info.tensor_peak_tflops = 1071;
  return info;
}

// An honest 1 ms timing: the device idle at the stop event, the host's clock a little above the
// events, the flush 0.09 ms.
Timing honest(double median_ms = 1.0) {
  Timing t;
  t.median = median_ms;
  t.busy_after_median = 0.004;
  t.flush_ms = 0.09;
  t.wall_ms = {median_ms + 0.02, median_ms + 0.03, median_ms + 0.02};
  t.wall_median = median_ms + 0.02;
  return t;
}

std::string refusal(const Timing& t, WorkModel work = {}) { return timing_refusal("variant v", t, work, h100()); }

TEST(TimingRules, AnHonestTimingStands) {
  EXPECT_EQ(refusal(honest()), "");
  EXPECT_EQ(refusal(honest(0.002)), "") << "a tiny kernel: the host's own calls dwarf it, within the slack";
  Timing no_cross_check = honest();
  no_cross_check.wall_median = NAN;
  no_cross_check.wall_ms.clear();
  EXPECT_EQ(refusal(no_cross_check), "");
}

TEST(TimingRules, WorkLeftRunningAfterTheStopEventIsUnseenWork) {
  Timing t = honest(0.0016);
  t.busy_after_median = 0.876;  // the side-stream GELU on the H100
  const std::string r = refusal(t);
  EXPECT_NE(r.find("[unseen work] variant v left work running on the device 0.8760 ms"), std::string::npos) << r;
  t.busy_after_median = 0.049;  // under the 0.05 ms slack
  EXPECT_EQ(refusal(t), "");
  t = honest(10.0);
  t.busy_after_median = 0.45;  // under 5 % of a 10 ms timing
  EXPECT_EQ(refusal(t), "");
  t.busy_after_median = 0.55;
  EXPECT_NE(refusal(t).find("[unseen work]"), std::string::npos);
}

TEST(TimingRules, AHostClockFarAboveTheEventsIsATimerThatUnderReports) {
  Timing t = honest(0.001);  // the events say 0.001 ms ...
  t.wall_median = 0.93;      // ... the host saw the GELU's real 0.93 ms
  t.wall_ms = {0.93, 0.94, 0.93};
  const std::string r = refusal(t);
  EXPECT_NE(r.find("[timer disagrees] variant v: the host's clock saw 0.9300 ms"), std::string::npos) << r;
  // Allowed: the events, the flush (a launcher's host time hides behind it), and the larger of
  // 0.05 ms and a quarter of the events.
  t = honest(1.0);
  t.wall_median = 1.0 + 0.09 + 0.25 - 0.001;
  EXPECT_EQ(refusal(t), "");
  t.wall_median = 1.0 + 0.09 + 0.25 + 0.001;
  EXPECT_NE(refusal(t).find("[timer disagrees]"), std::string::npos);
  t = honest(0.01);
  t.wall_median = 0.01 + 0.09 + 0.05 - 0.001;
  EXPECT_EQ(refusal(t), "");
  t.wall_median = 0.01 + 0.09 + 0.05 + 0.001;
  EXPECT_NE(refusal(t).find("[timer disagrees]"), std::string::npos);
}

TEST(TimingRules, L2KeptPersistingIsRefusedWhateverTheTime) {
  Timing t = honest();
  t.persisting_l2_bytes = 39321600;
  std::string r = refusal(t);
  EXPECT_NE(r.find("[L2 persistence] variant v set aside 39321600 bytes of L2"), std::string::npos) << r;
  t = honest();
  t.policy_window_bytes = 1 << 20;
  r = refusal(t);
  EXPECT_NE(r.find("[L2 persistence]"), std::string::npos) << r;
  EXPECT_NE(r.find("1048576-byte access-policy window"), std::string::npos) << r;
}

TEST(TimingRules, ARatePastTheDevicesPeaksIsImpossible) {
  // 64 MiB of inputs in 0.01 ms: 6711 GB/s, twice the DRAM peak.
  std::string r = refusal(honest(0.01), {64.0 * (1 << 20), 0});
  EXPECT_NE(r.find("[impossible] variant v: 6.71e+07 bytes of inputs read in 0.0100 ms: 6711 GB/s, above this "
                   "device's DRAM peak of 3352 GB/s"),
            std::string::npos)
      << r;
  EXPECT_EQ(refusal(honest(0.03), {64.0 * (1 << 20), 0}), "") << "2237 GB/s is within the peak";
  // The memoized 4096^3 SGEMM: 2 * 4096^3 FLOP in 0.0437 ms.
  r = refusal(honest(0.0437), {0, 2.0 * 4096 * 4096 * 4096});
  EXPECT_NE(r.find("TFLOP/s, above this device's dense tensor-core peak of 1071 TFLOP/s"), std::string::npos) << r;
  EXPECT_EQ(refusal(honest(21.9), {0, 2.0 * 4096 * 4096 * 4096}), "");
  DeviceInfo unknown = h100();
  unknown.tensor_peak_tflops = 0;  // an architecture without a known peak: no rate is refused for it
  EXPECT_EQ(timing_refusal("variant v", honest(0.0437), {0, 2.0 * 4096 * 4096 * 4096}, unknown), "");
}

TEST(TimingRules, TheFirstRuleBrokenIsTheOneNamed) {
  Timing t = honest(0.001);
  t.persisting_l2_bytes = 1;
  t.busy_after_median = 1.0;
  EXPECT_EQ(refusal(t).rfind("[L2 persistence]", 0), 0u);
  t.persisting_l2_bytes = 0;
  EXPECT_EQ(refusal(t).rfind("[unseen work]", 0), 0u);
}

}  // namespace
}  // namespace kverify::bench
