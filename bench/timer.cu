// CUDA events on one stream, the L2 flush between repetitions, device memory and device facts.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "bench/device.hpp"
#include "runtime/cuda/check.hpp"

namespace kverify::bench {

using kverify::cuda::check;

DeviceInfo device_info() {
  DeviceInfo info;
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
  info.name = p.name;
  info.sm_count = p.multiProcessorCount;
  info.l2_bytes = p.l2CacheSize;
  info.memory_bytes = p.totalGlobalMem;
  info.compute_major = p.major;
  info.compute_minor = p.minor;
  int memory_khz = 0, bus_bits = 0, sm_khz = 0;
  check(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, dev), "cudaDevAttrMemoryClockRate");
  check(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev), "cudaDevAttrGlobalMemoryBusWidth");
  check(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, dev), "cudaDevAttrClockRate");
  info.dram_peak_gbps = 2.0 * memory_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  // Dense 16-bit tensor-core FLOP per SM per clock (the whitepapers' peaks over SMs x boost
  // clock): A100 312 TFLOP/s, GA10x/AD10x 1024, H100 989, B200 ~2250.
  const int cc = p.major * 10 + p.minor;
  const double per_sm_clock = cc == 80                             ? 2048
                              : (cc == 86 || cc == 87 || cc == 89) ? 1024
                              : cc == 90                           ? 4096
                              : cc >= 100                          ? 8192
                                                                   : 0;
  info.tensor_peak_tflops = per_sm_clock * p.multiProcessorCount * sm_khz * 1e3 / 1e12;
  check(cudaDriverGetVersion(&info.driver_version), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&info.runtime_version), "cudaRuntimeGetVersion");
  return info;
}

DeviceMemory::DeviceMemory(std::size_t n) : bytes(n) {
  check(cudaMalloc(&data, n ? n : 1), ("cudaMalloc of " + std::to_string(n) + " bytes").c_str());
}
DeviceMemory::~DeviceMemory() { cudaFree(data); }
void DeviceMemory::upload(const void* host, std::size_t n) {
  check(cudaMemcpy(data, host, n, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}
void DeviceMemory::copy_from_device(const void* device, std::size_t n) { device_copy(data, device, n); }
void device_copy(void* to, const void* from, std::size_t n) {
  if (n) check(cudaMemcpy(to, from, n, cudaMemcpyDeviceToDevice), "cudaMemcpy on the device");
}
void device_synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

struct Timer::Impl {
  cudaStream_t stream = nullptr;
  void* flush = nullptr;
  std::size_t flush_bytes = 0;
  double flush_ms = 0;
  bool persisting_l2 = false;  // the device can set L2 aside for persisting accesses
};

constexpr unsigned kFlushBlocks = 132 * 8;  // any grid that fills the GPU reads at full bandwidth

// The L2 flush: a read of the whole flush buffer, so the timed operation starts with no input or
// output of its own in L2 and with no dirty line to write back. A write of the buffer (cudaMemset,
// what this timer did first) left up to an L2 of dirty lines whose write-back fell inside the next
// timed window: ~9 us on the H200, 7 % of a 512 MiB read (reports/h200/perf.md, Version 8).
// The XOR cannot be known in advance and is stored only if it equals a value the buffer's bytes
// never make, so the loads stay and nothing is written.
__global__ void read_flush_buffer(const int4* buffer, std::size_t n, int* never_written) {
  int seen = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    seen ^= buffer[i].x ^ buffer[i].w;
  if (seen == 1) *never_written = seen;
}

namespace {

void flush_l2(const Timer::Impl& t) {
  read_flush_buffer<<<kFlushBlocks, 256, 0, t.stream>>>(static_cast<const int4*>(t.flush), t.flush_bytes / 16,
                                                        static_cast<int*>(t.flush));
  check(cudaGetLastError(), "the L2 flush kernel");
}

// Lines marked persisting stay in L2 through the flush, so every run starts with none; a whole
// timing also starts with no set-aside and no window on the stream (a gate or an earlier timing
// may have left them).
void clear_l2_residency(const Timer::Impl& t, bool set_aside_too) {
  if (!t.persisting_l2) return;
  if (set_aside_too) {
    check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0),
          "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0)");
    cudaStreamAttrValue none{};
    check(cudaStreamSetAttribute(t.stream, cudaStreamAttributeAccessPolicyWindow, &none),
          "cudaStreamSetAttribute(cudaStreamAttributeAccessPolicyWindow)");
  }
  check(cudaCtxResetPersistingL2Cache(), "cudaCtxResetPersistingL2Cache");
}

void note_l2_residency(const Timer::Impl& t, Timing& timing) {
  if (!t.persisting_l2) return;
  std::size_t set_aside = 0;
  check(cudaDeviceGetLimit(&set_aside, cudaLimitPersistingL2CacheSize), "cudaDeviceGetLimit");
  cudaStreamAttrValue window{};
  check(cudaStreamGetAttribute(t.stream, cudaStreamAttributeAccessPolicyWindow, &window), "cudaStreamGetAttribute");
  timing.persisting_l2_bytes = std::max(timing.persisting_l2_bytes, set_aside);
  timing.policy_window_bytes = std::max(timing.policy_window_bytes, window.accessPolicyWindow.num_bytes);
}

// How long one flush takes: the most host time a launcher can spend while its window has not yet
// begun (the wall-clock cross-check allows for it).
double flush_median_ms(const Timer::Impl& t) {
  std::vector<double> ms;
  cudaEvent_t a = nullptr, b = nullptr;
  check(cudaEventCreate(&a), "cudaEventCreate");
  check(cudaEventCreate(&b), "cudaEventCreate");
  for (int i = 0; i < kWallRepetitions; ++i) {
    check(cudaEventRecord(a, t.stream), "cudaEventRecord");
    flush_l2(t);
    check(cudaEventRecord(b, t.stream), "cudaEventRecord");
    check(cudaEventSynchronize(b), "cudaEventSynchronize");
    float elapsed = 0;
    check(cudaEventElapsedTime(&elapsed, a, b), "cudaEventElapsedTime");
    ms.push_back(elapsed);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return percentile(ms, 0.5);
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

Timer::Timer(std::size_t flush_bytes) : impl_(std::make_unique<Impl>()) {
  check(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  impl_->flush_bytes = flush_bytes;
  check(cudaMalloc(&impl_->flush, flush_bytes), "cudaMalloc of the L2 flush buffer");
  // Every int4 of zeros: the XOR of the read is 0, never 1.
  check(cudaMemset(impl_->flush, 0, flush_bytes), "cudaMemset of the L2 flush buffer");
  int dev = 0, persisting_max = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&persisting_max, cudaDevAttrMaxPersistingL2CacheSize, dev),
        "cudaDevAttrMaxPersistingL2CacheSize");
  impl_->persisting_l2 = persisting_max > 0;
  impl_->flush_ms = flush_median_ms(*impl_);
}

Timer::~Timer() {
  cudaFree(impl_->flush);
  cudaStreamDestroy(impl_->stream);
}

void* Timer::stream() const { return impl_->stream; }

Timing Timer::time(const std::function<void()>& op, int warmup, int reps, Repetitions* each) {
  const Impl& t = *impl_;
  cudaStream_t s = t.stream;
  clear_l2_residency(t, true);
  for (int i = 0; i < warmup; ++i) op();
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the warm-up runs");
  std::vector<cudaEvent_t> start(reps), stop(reps);
  for (int i = 0; i < reps; ++i) {
    check(cudaEventCreate(&start[i]), "cudaEventCreate");
    check(cudaEventCreate(&stop[i]), "cudaEventCreate");
  }
  // One repetition at a time, the device idle between them: the flush is queued before the
  // operation, so the host's launch of it overlaps the flush and never enters the window.
  Timing timing;
  std::vector<double> busy_after, wall;
  const int runs = reps + (reps > 0 ? kWallRepetitions : 0);
  int timed = reps;
  for (int i = 0; i < runs; ++i) {
    if (each && each->before) each->before(i);
    clear_l2_residency(t, false);
    flush_l2(t);
    if (i < reps) {
      check(cudaEventRecord(start[i], s), "cudaEventRecord");
      op();
      check(cudaEventRecord(stop[i], s), "cudaEventRecord");
      check(cudaEventSynchronize(stop[i]), "cudaEventSynchronize on the stop event");
      const auto stopped = std::chrono::steady_clock::now();
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize after a timed repetition");
      busy_after.push_back(ms_since(stopped));
    } else {
      check(cudaStreamSynchronize(s), "cudaStreamSynchronize after the L2 flush");
      const auto called = std::chrono::steady_clock::now();
      op();
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize after a repetition of the wall-clock cross-check");
      wall.push_back(ms_since(called));
    }
    note_l2_residency(t, timing);
    if (each && each->check)
      if (std::string problem = each->check(i); !problem.empty()) {
        each->problem = "repetition " + std::to_string(i + 1) + " of " + std::to_string(runs) + ": " + problem;
        timed = std::min(timed, i + 1);
        break;
      }
  }
  std::vector<double> ms(static_cast<std::size_t>(timed));
  for (int i = 0; i < timed; ++i) {
    float elapsed = 0;
    check(cudaEventElapsedTime(&elapsed, start[i], stop[i]), "cudaEventElapsedTime");
    ms[static_cast<std::size_t>(i)] = elapsed;
  }
  for (std::size_t i = 0; i < start.size(); ++i) {
    cudaEventDestroy(start[i]);
    cudaEventDestroy(stop[i]);
  }
  const Timing summary = summarize(std::move(ms));
  timing.ms = summary.ms;
  timing.median = summary.median;
  timing.p10 = summary.p10;
  timing.p90 = summary.p90;
  timing.min = summary.min;
  timing.busy_after_median = percentile(busy_after, 0.5);
  timing.busy_after_ms = std::move(busy_after);
  timing.wall_median = percentile(wall, 0.5);
  timing.wall_ms = std::move(wall);
  timing.flush_ms = t.flush_ms;
  return timing;
}

}  // namespace kverify::bench
