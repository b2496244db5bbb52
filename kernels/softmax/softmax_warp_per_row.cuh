// softmax, narrow rows: one warp per row, several rows per block, the row held in registers
// (kPerLane values per lane, lanes interleaved so loads are coalesced). Padding: -inf for the max
// (a lane with no column must lose every max) and 0 for the sum. Rows up to 32 * kPerLane wide.
// Out-of-domain rows come out NaN by IEEE arithmetic (ops/softmax/softmax.hpp).
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/softmax/softmax_block_per_row.cuh"  // SoftmaxArgs
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T, int kPerLane>
__global__ void __launch_bounds__(256) softmax_warp_per_row(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;  // whole warps leave together
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  T* y = a.y + row * a.y_row_stride;

  float v[kPerLane];
  float max = MaxOp::identity();
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    v[i] = c < a.cols ? kv::to_f32(x[c * a.x_col_stride]) : MaxOp::identity();
    max = fmaxf(max, v[i]);
  }
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    v[i] = c < a.cols ? expf(v[i] - max) : 0.0f;
    sum += v[i];
  }
  sum = warp_reduce(sum, SumOp{});
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    if (c < a.cols) y[c * a.y_col_stride] = kv::from_f32<T>(v[i] / sum);
  }
}

}  // namespace kverify::kernels
