// The GPU side of the bench, behind a plain C++ interface (nvcc compiles timer.cu, ceiling.cu,
// baselines.cu and each op's ops/<op>/bench_baseline.cu; device_none.cpp stands in when the build
// has no CUDA).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bench/stats.hpp"
#include "core/dtype.hpp"
#include "core/op_spec.hpp"

namespace kverify::bench {

struct DeviceInfo {
  std::string name;
  int driver_version = 0, runtime_version = 0, sm_count = 0, l2_bytes = 0;
  int compute_major = 0, compute_minor = 0;
  std::size_t memory_bytes = 0;
  // What no honest timing can exceed, from the device's own attributes: the DRAM's peak (memory
  // clock x bus width x 2 transfers per clock) and the dense 16-bit tensor-core peak at the top SM
  // clock (0: an architecture the bench has no per-SM rate for).
  double dram_peak_gbps = 0, tensor_peak_tflops = 0;
};
DeviceInfo device_info();

// A device-to-device copy, finished when it returns; and the whole device idle.
void device_copy(void* to, const void* from, std::size_t bytes);
void device_synchronize();

// Device memory, freed on destruction.
struct DeviceMemory {
  explicit DeviceMemory(std::size_t bytes);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  void upload(const void* host, std::size_t bytes);
  void copy_from_device(const void* device, std::size_t bytes);
  void* data = nullptr;
  std::size_t bytes = 0;
};

// What the timer does around every timed repetition, outside its events: `before` (e.g. poison
// the outputs) before the L2 flush, `check` once the whole device is idle after the repetition
// (empty: nothing wrong, else what was). The timer stops at the first problem and keeps it.
struct Repetitions {
  std::function<void(int rep)> before;
  std::function<std::string(int rep)> check;
  std::string problem;  // set by Timer::time: "repetition 7 of 50: <what check said>"
};

// Times an operation on one stream with CUDA events: `warmup` untimed runs, then `reps` runs,
// each preceded (outside its events) by a read of the L2 flush buffer, so no input is served
// from L2 and no dirty line is left to write back inside the timed window (H200: 60 MB L2; the
// buffer is >= 256 MB). After each repetition's stop event has completed the timer waits for the
// whole device to be idle and records how long that took (Timing::busy_after_ms): work the
// operation left running where the events cannot see it. Then kWallRepetitions more runs, timed
// by the host's clock alone from the call to the device idle (Timing::wall_ms): a cross-check of
// the events that does not go through them. Every run starts with no L2 set aside for persisting
// accesses, no access-policy window on the stream and no persisting line, and the timer notes
// what the operation set (Timing::persisting_l2_bytes, policy_window_bytes). `each` sees every
// run but the warm-up ones, the cross-check's included, numbered on from the timed ones.
inline constexpr int kWallRepetitions = 5;
class Timer {
 public:
  explicit Timer(std::size_t flush_bytes);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  void* stream() const;  // a cudaStream_t
  Timing time(const std::function<void()>& op, int warmup, int reps, Repetitions* each = nullptr);
  struct Impl;  // timer.cu's

 private:
  std::unique_ptr<Impl> impl_;
};

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), `bytes` copied per rep.
struct Ceiling {
  double gbps = 0;
  std::size_t bytes = 0;
  Timing timing;
};
Ceiling copy_ceiling(Timer& timer, std::size_t bytes, int reps);

// An op's baseline on the same device inputs (contiguous row-major), launched on timer.stream():
// each op's ops/<op>/bench_baseline.cu. It returns a launcher to time; building it does any
// planning and allocates its own outputs (outside the timing).
struct Baseline {
  std::string name;    // e.g. "cuBLASLt+ReLU"
  std::string detail;  // algorithm, compute type
  std::function<void()> run;
  std::shared_ptr<void> state;  // keeps plans, workspaces and outputs alive
};
struct BaselineInputs {
  DType dtype;
  std::span<const std::int64_t> shape;
  std::vector<const void*> inputs;  // the op's input tensors in tensor order
  void* stream;                     // a cudaStream_t
  std::vector<double> params;       // the op's scalar parameters in order
};
Baseline op_baseline(const OpSpec& op, const BaselineInputs& in);

}  // namespace kverify::bench
