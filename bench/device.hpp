// The GPU side of the bench, behind a plain C++ interface (nvcc compiles timer.cu, ceiling.cu and
// the baseline_*.cu files; device_none.cpp stands in when the build has no CUDA).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "bench/stats.hpp"
#include "core/dtype.hpp"

namespace kverify::bench {

struct DeviceInfo {
  std::string name;
  int driver_version = 0, runtime_version = 0, sm_count = 0, l2_bytes = 0;
  std::size_t memory_bytes = 0;
};
DeviceInfo device_info();

// Device memory, freed on destruction.
struct DeviceMemory {
  explicit DeviceMemory(std::size_t bytes);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  void upload(const void* host, std::size_t bytes);
  void* data = nullptr;
  std::size_t bytes = 0;
};

// Times an operation on one stream with CUDA events: `warmup` untimed runs, then `reps` runs,
// each preceded (outside its events) by a write of the L2 flush buffer, so no input is served
// from L2 (H200: 60 MB L2; the buffer is >= 256 MB).
class Timer {
 public:
  explicit Timer(std::size_t flush_bytes);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  void* stream() const;  // a cudaStream_t
  Timing time(const std::function<void()>& op, int warmup, int reps);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), `bytes` copied per rep.
struct Ceiling {
  double gbps = 0;
  std::size_t bytes = 0;
  Timing timing;
};
Ceiling copy_ceiling(Timer& timer, std::size_t bytes, int reps);

// Baselines on the same device inputs (contiguous row-major), launched on timer.stream().
// Each returns a launcher to time; the constructor does any planning (outside the timing).
struct Baseline {
  std::string name;     // e.g. "cuBLASLt+ReLU"
  std::string detail;   // algorithm, compute type
  std::function<void()> run;
  std::shared_ptr<void> state;  // keeps plans/workspaces alive
};
// C = relu(A B), row-major, f32 with CUBLAS_COMPUTE_32F (no TF32), f16/bf16 with f32 accumulation.
Baseline cublaslt_matmul_relu(DType d, std::int64_t m, std::int64_t n, std::int64_t k, const void* a, const void* b,
                              void* c, void* stream);
// y[r] = sum x[r][:], cub::DeviceSegmentedReduce::Sum with f32 accumulation, f32 output.
Baseline cub_row_sum(DType d, std::int64_t rows, std::int64_t cols, const void* x, void* stream);
// Five kernels: row max, subtract, exp, row sum, divide; intermediates in the storage dtype.
Baseline eager_softmax(DType d, std::int64_t rows, std::int64_t cols, const void* x, void* y, void* stream);
// Composed elementwise kernels (x^3, *0.044715, +x, *sqrt(2/pi), tanh, +1, *x, *0.5).
Baseline eager_gelu_tanh(DType d, std::int64_t n, const void* x, void* y, void* stream);

}  // namespace kverify::bench
