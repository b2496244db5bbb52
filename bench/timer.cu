// CUDA events on one stream, the L2 flush between repetitions, device memory and device facts.
#include <cuda_runtime.h>

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

struct Timer::Impl {
  cudaStream_t stream = nullptr;
  void* flush = nullptr;
  std::size_t flush_bytes = 0;
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

Timer::Timer(std::size_t flush_bytes) : impl_(std::make_unique<Impl>()) {
  check(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  impl_->flush_bytes = flush_bytes;
  check(cudaMalloc(&impl_->flush, flush_bytes), "cudaMalloc of the L2 flush buffer");
  // Every int4 of zeros: the XOR of the read is 0, never 1.
  check(cudaMemset(impl_->flush, 0, flush_bytes), "cudaMemset of the L2 flush buffer");
}

Timer::~Timer() {
  cudaFree(impl_->flush);
  cudaStreamDestroy(impl_->stream);
}

void* Timer::stream() const { return impl_->stream; }

Timing Timer::time(const std::function<void()>& op, int warmup, int reps) {
  cudaStream_t s = impl_->stream;
  for (int i = 0; i < warmup; ++i) op();
  std::vector<cudaEvent_t> start(reps), stop(reps);
  for (int i = 0; i < reps; ++i) {
    check(cudaEventCreate(&start[i]), "cudaEventCreate");
    check(cudaEventCreate(&stop[i]), "cudaEventCreate");
  }
  for (int i = 0; i < reps; ++i) {
    read_flush_buffer<<<kFlushBlocks, 256, 0, s>>>(static_cast<const int4*>(impl_->flush), impl_->flush_bytes / 16,
                                                   static_cast<int*>(impl_->flush));
    check(cudaGetLastError(), "the L2 flush kernel");
    check(cudaEventRecord(start[i], s), "cudaEventRecord");
    op();
    check(cudaEventRecord(stop[i], s), "cudaEventRecord");
  }
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize after the timed repetitions");
  std::vector<double> ms(reps);
  for (int i = 0; i < reps; ++i) {
    float t = 0;
    check(cudaEventElapsedTime(&t, start[i], stop[i]), "cudaEventElapsedTime");
    ms[i] = t;
    cudaEventDestroy(start[i]);
    cudaEventDestroy(stop[i]);
  }
  return summarize(std::move(ms));
}

}  // namespace kverify::bench
