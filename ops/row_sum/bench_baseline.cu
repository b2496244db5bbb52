// row_sum's bench baseline: CUB's segmented reduction, one segment per row, f32 accumulation for
// every storage dtype (the input read through a converting iterator), f32 results.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_segmented_reduce.cuh>

#include "bench/device.hpp"
#include "kernels/common/backend_launch.hpp"  // with_storage_type, kv::to_f32 / from_f32
#include "runtime/cuda/check.hpp"

namespace kverify::ops::row_sum {
namespace {

using namespace kverify::bench;

template <typename T>
struct ToF32 {
  __host__ __device__ float operator()(T v) const { return kv::to_f32(v); }
};
struct RowStart {
  long long cols;
  __host__ __device__ long long operator()(long long r) const { return r * cols; }
};

struct CubState {
  DeviceMemory out, temp;
  CubState(std::size_t rows, std::size_t temp_bytes) : out(rows * 4), temp(temp_bytes) {}
};

}  // namespace

Baseline device_baseline(const BaselineInputs& input) {
  const DType d = input.dtype;
  const std::int64_t rows = input.shape[0], cols = input.shape[1];
  const void* x = input.inputs[0];
  void* stream = input.stream;
  Baseline b{"CUB segmented sum", "cub::DeviceSegmentedReduce::Sum, f32 accumulation, f32 output", {}, nullptr};
  auto s = static_cast<cudaStream_t>(stream);
  with_storage_type(d, [&]<typename T>() {
    auto in = thrust::make_transform_iterator(static_cast<const T*>(x), ToF32<T>{});
    auto begin = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), RowStart{cols});
    auto end = begin + 1;
    std::size_t temp_bytes = 0;
    kverify::cuda::check(
        cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, in, static_cast<float*>(nullptr), rows, begin, end, s),
        "cub::DeviceSegmentedReduce::Sum (temp size)");
    auto st = std::make_shared<CubState>(static_cast<std::size_t>(rows), temp_bytes);
    b.state = st;
    b.run = [=] {
      std::size_t bytes = temp_bytes;
      kverify::cuda::check(cub::DeviceSegmentedReduce::Sum(st->temp.data, bytes, in, static_cast<float*>(st->out.data),
                                                           rows, begin, end, s),
                           "cub::DeviceSegmentedReduce::Sum");
    };
  });
  return b;
}

}  // namespace kverify::ops::row_sum
