// softmax, one block per row: each thread strides over the row's columns, the block reduces the
// max (padding -inf) and then the sum of exp(x - max) (padding 0), and each thread writes its
// columns. Any width; the row is read three times from memory (the on-chip and streaming
// variants: softmax_block_on_chip.cuh, softmax_block_regs.cuh, softmax_online.cuh). Input and output
// have independent row and column strides. Out-of-domain rows (NaN, +inf, all -inf) come out NaN as
// ops/softmax/softmax.hpp states.
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T>
struct SoftmaxArgs {
  const T* x;
  T* y;
  long long rows, cols;
  long long x_row_stride, x_col_stride;
  long long y_row_stride, y_col_stride;
};

template <typename T>
__global__ void __launch_bounds__(1024) softmax_block_per_row(SoftmaxArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  T* y = a.y + row * a.y_row_stride;

  float max = MaxOp::identity();
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = block_reduce(max, MaxOp{}, scratch);

  float sum = 0.0f;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = block_reduce(sum, SumOp{}, scratch);

  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    y[c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

}  // namespace kverify::kernels
