// What the bench refuses a timing for, once every repetition gave the gated result: each rule a
// cheat class (docs/bench.md, the threat model), each refusal a tag in square brackets that names
// it. Plain C++ on a Timing and the device's facts, so every rule is tested without a GPU.
#pragma once

#include <string>

#include "bench/device.hpp"

namespace kverify::bench {

// A timing is refused as [unseen work] when the device stayed busy after its stop event (the
// median over repetitions) for longer than both: an honest launch leaves the device idle, and
// what the host needs to see that (~0.01 ms) stays well under the slack.
inline constexpr double kBusyAfterSlackMs = 0.05, kBusyAfterFraction = 0.05;
// The wall-clock cross-check allows the host's clock this much more than the events, beyond the
// flush's own time (up to which a launcher's host time overlaps the flush, outside the window):
// what the host needs to call a launcher and see the device idle.
inline constexpr double kWallSlackMs = 0.05, kWallFraction = 0.25;

// What `who` ("variant x", "the baseline cuBLASLt") read and computed in one call: the bytes an
// ideal kernel reads from DRAM and its FLOP (0: not modelled).
struct WorkModel {
  double read_bytes = 0, flops = 0;
};

// Empty: the timing stands; else the refusal, "[tag] who ...".
std::string timing_refusal(const std::string& who, const Timing& t, const WorkModel& work, const DeviceInfo& info);

}  // namespace kverify::bench
