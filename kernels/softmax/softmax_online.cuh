// softmax, wide rows of any width: one block per row, streaming. Pass 1 reads the row once,
// keeping per thread a running max m and a sum s rescaled whenever m grows (online softmax); the
// block then combines the (m, s) pairs. Pass 2 reads the row again and writes exp(x - m) / s.
// Two reads and one write per element, no limit on the width, nothing truncated.
//
// Out-of-domain rows must come out NaN like every other variant: a NaN input makes s NaN and an
// all -inf row gives exp(-inf - -inf) = NaN in pass 2, but the rescaling would turn a +inf row into
// zeros and a lone NaN, so a row whose max is +inf gets s = NaN explicitly.
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/softmax/softmax_block_per_row.cuh"  // SoftmaxArgs
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

struct MaxSum {
  float max, sum;
};

// Combines two partial (max, sum) pairs. A pair whose max is -inf has seen only -inf (sum 0) or
// NaN (sum NaN): its sum is added as it is, never rescaled by exp(-inf - -inf).
__device__ __forceinline__ MaxSum combine(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.max, b.max);
  const float sa = a.max == -INFINITY ? a.sum : a.sum * expf(a.max - m);
  const float sb = b.max == -INFINITY ? b.sum : b.sum * expf(b.max - m);
  return {m, sa + sb};
}

template <typename T>
__global__ void __launch_bounds__(1024) softmax_online(SoftmaxArgs<T> a) {
  __shared__ float scratch_max[32];
  __shared__ float scratch_sum[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  T* y = a.y + row * a.y_row_stride;

  MaxSum mine{-INFINITY, 0.0f};
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) {
    const float v = kv::to_f32(x[c * a.x_col_stride]);
    if (v > mine.max) {
      mine.sum = (mine.max == -INFINITY ? mine.sum : mine.sum * expf(mine.max - v)) + 1.0f;
      mine.max = v;
    } else if (v != -INFINITY) {
      mine.sum += expf(v - mine.max);  // a NaN input turns the sum NaN here; -inf adds nothing
    }
  }
  // Warp butterfly over pairs, then the warps' pairs through shared memory.
  for (int offset = 16; offset > 0; offset /= 2)
    mine = combine(
        mine, MaxSum{__shfl_xor_sync(0xffffffffu, mine.max, offset), __shfl_xor_sync(0xffffffffu, mine.sum, offset)});
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) {
    scratch_max[warp] = mine.max;
    scratch_sum[warp] = mine.sum;
  }
  __syncthreads();
  mine = lane < blockDim.x / 32 ? MaxSum{scratch_max[lane], scratch_sum[lane]} : MaxSum{-INFINITY, 0.0f};
  for (int offset = 16; offset > 0; offset /= 2)
    mine = combine(
        mine, MaxSum{__shfl_xor_sync(0xffffffffu, mine.max, offset), __shfl_xor_sync(0xffffffffu, mine.sum, offset)});
  const float max = mine.max;
  const float sum = max == INFINITY ? NAN : mine.sum;

  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    y[c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

}  // namespace kverify::kernels
