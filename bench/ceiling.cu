// The ceiling measured in the same run: device-to-device copy bandwidth, counting bytes read
// plus bytes written (a copy of B bytes moves 2B).
#include <cuda_runtime.h>

#include "bench/device.hpp"
#include "runtime/cuda/check.hpp"

namespace kverify::bench {

Ceiling copy_ceiling(Timer& timer, std::size_t bytes, int reps) {
  DeviceMemory src(bytes), dst(bytes);
  kverify::cuda::check(cudaMemset(src.data, 1, bytes), "cudaMemset");
  auto s = static_cast<cudaStream_t>(timer.stream());
  Ceiling c;
  c.bytes = bytes;
  c.timing = timer.time(
      [&] {
        kverify::cuda::check(cudaMemcpyAsync(dst.data, src.data, bytes, cudaMemcpyDeviceToDevice, s),
                             "cudaMemcpyAsync D2D");
      },
      3, reps);
  c.gbps = 2.0 * static_cast<double>(bytes) / (c.timing.median * 1e-3) / 1e9;
  return c;
}

}  // namespace kverify::bench
