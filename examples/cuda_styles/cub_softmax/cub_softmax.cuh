// Row softmax on cub::BlockReduce: a block of 256 threads per row, each thread's strided max and
// sum combined by CUB (the result is defined in thread 0 only, so thread 0 shares it through
// shared memory), three reads of the row. kZeroPadding plants the bug of its mutant: each
// thread's running max starts at 0 instead of -inf.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cub/cub.cuh>
#include <cuda/functional>
#include <stdexcept>
#include <string>

#include "kernels/common/backend_launch.hpp"  // with_storage_type: T from the Case's dtype

namespace cub_softmax {
namespace {  // compiled once per backend into one binary: the copies stay apart

constexpr int kThreads = 256;
using BlockReduce = cub::BlockReduce<float, kThreads>;

// A value of thread 0 for the whole block.
__device__ float broadcast(float v, float* slot) {
  if (threadIdx.x == 0) *slot = v;
  __syncthreads();
  const float shared = *slot;
  __syncthreads();
  return shared;
}

// fmaxf drops a NaN from the max, but exp(NaN - max) brings it back into the sum, and a +inf or a
// row of only -inf gives inf - inf = NaN there: such rows come out all NaN, as the contract says.
template <typename T, bool kZeroPadding>
__global__ void __launch_bounds__(kThreads)
    softmax_rows(const T* x, T* y, long long cols, long long xrs, long long xcs, long long yrs, long long ycs) {
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float slot;
  const T* xr = x + blockIdx.x * xrs;
  T* yr = y + blockIdx.x * yrs;
  float max = kZeroPadding ? 0.0f : -INFINITY;
  for (long long c = threadIdx.x; c < cols; c += kThreads) max = fmaxf(max, static_cast<float>(xr[c * xcs]));
  max = broadcast(BlockReduce(temp).Reduce(max, ::cuda::maximum<>{}), &slot);
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < cols; c += kThreads) sum += expf(static_cast<float>(xr[c * xcs]) - max);
  sum = broadcast(BlockReduce(temp).Sum(sum), &slot);
  for (long long c = threadIdx.x; c < cols; c += kThreads)
    yr[c * ycs] = static_cast<T>(expf(static_cast<float>(xr[c * xcs]) - max) / sum);
}

template <bool kZeroPadding = false>
void launch(const kverify::LaunchRequest& r) {
  const kverify::Layout2D& xl = r.tensors[0].layout;
  const kverify::Layout2D& yl = r.tensors[1].layout;
  const auto stream = static_cast<cudaStream_t>(r.stream);
  kverify::with_storage_type(r.dtype, [&]<typename T>() {
    softmax_rows<T, kZeroPadding><<<static_cast<unsigned>(xl.rows), kThreads, 0, stream>>>(
        static_cast<const T*>(r.tensors[0].data), static_cast<T*>(r.tensors[1].data), xl.cols, xl.row_stride,
        xl.col_stride, yl.row_stride, yl.col_stride);
  });
  kverify::check_launch("cub_softmax");
}

}  // namespace
}  // namespace cub_softmax
