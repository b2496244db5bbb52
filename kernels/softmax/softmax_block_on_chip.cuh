// softmax, rows that fit on chip: one block per row; the row is read from memory once into
// dynamic shared memory (as f32), and the max, the exponentials, the sum and the division all
// work on that copy; the only other memory traffic is the final store. Rows up to
// kMaxOnChipColumns (launchers.inl: the shared memory of one H100/H200 block, 227 KiB, less the
// scratch).
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/softmax/softmax_block_per_row.cuh"  // SoftmaxArgs
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T>
__global__ void __launch_bounds__(1024) softmax_block_on_chip(SoftmaxArgs<T> a) {
  __shared__ float scratch[32];
  extern __shared__ float row_values[];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  T* y = a.y + row * a.y_row_stride;

  float max = MaxOp::identity();
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) {
    const float v = kv::to_f32(x[c * a.x_col_stride]);
    row_values[c] = v;
    max = fmaxf(max, v);
  }
  max = block_reduce(max, MaxOp{}, scratch);  // its barrier also publishes row_values

  float sum = 0.0f;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) {
    const float e = expf(row_values[c] - max);
    row_values[c] = e;  // each thread rewrites only its own columns
    sum += e;
  }
  sum = block_reduce(sum, SumOp{}, scratch);

  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    y[c * a.y_col_stride] = kv::from_f32<T>(row_values[c] / sum);
}

}  // namespace kverify::kernels
