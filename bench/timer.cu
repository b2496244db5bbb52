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
  int flushes = 0;
};

Timer::Timer(std::size_t flush_bytes) : impl_(std::make_unique<Impl>()) {
  check(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  impl_->flush_bytes = flush_bytes;
  check(cudaMalloc(&impl_->flush, flush_bytes), "cudaMalloc of the L2 flush buffer");
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
    // A different byte each time, so the write cannot be elided; it evicts the inputs from L2.
    check(cudaMemsetAsync(impl_->flush, ++impl_->flushes & 0xff, impl_->flush_bytes, s), "cudaMemsetAsync (L2 flush)");
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
