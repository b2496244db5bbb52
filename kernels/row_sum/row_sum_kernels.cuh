// row_sum kernels: y[r] = sum_c x[r][c], f32 accumulation for every storage dtype, the result
// stored once in the storage dtype. Contract and tolerance: ops/row_sum/row_sum.hpp.
//
//   warp_per_row   narrow rows: one warp per row, several rows per block, lanes stride the row,
//                  a butterfly reduction
//   block_per_row  one block per row: each thread accumulates a strided tile of the row, then a
//                  block reduction (padding 0)
//   split_row      few wide rows: stage 1 splits each row over many blocks, each writing one
//                  partial to the workspace; stage 2 adds a row's partials in a fixed order, so
//                  the result has the same bits on every run (no atomics)
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T>
struct RowSumArgs {
  const T* x;
  T* y;
  long long rows, cols;
  long long x_row_stride, x_col_stride;
  long long y_row_stride;
};

template <typename T>
__global__ void __launch_bounds__(256) row_sum_warp_per_row(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;  // whole warps leave together
  const unsigned lane = threadIdx.x % 32;
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += kv::to_f32(x[c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// Sums columns [begin, end) of `row` over the block; every thread gets the result.
template <typename T>
__device__ __forceinline__ float block_sum_range(const RowSumArgs<T>& a, long long row, long long begin, long long end,
                                                 float* scratch) {
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  for (long long c = begin + threadIdx.x; c < end; c += blockDim.x) sum += kv::to_f32(x[c * a.x_col_stride]);
  return block_reduce(sum, SumOp{}, scratch);
}

template <typename T>
__global__ void __launch_bounds__(1024) row_sum_block_per_row(RowSumArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const float sum = block_sum_range(a, row, 0, a.cols, scratch);
  if (threadIdx.x == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// Stage 1: block (s, r) sums chunk s of row r into partials[r * splits + s].
template <typename T>
__global__ void __launch_bounds__(1024) row_sum_split_partials(RowSumArgs<T> a, long long chunk, float* partials) {
  __shared__ float scratch[32];
  const long long split = blockIdx.x;
  const long long row = blockIdx.y;
  const long long begin = split * chunk;
  const long long end = begin + chunk < a.cols ? begin + chunk : a.cols;
  const float sum = block_sum_range(a, row, begin, end, scratch);
  if (threadIdx.x == 0) partials[row * gridDim.x + split] = sum;
}

// Stage 2: one warp per row adds the row's partials in a fixed order.
template <typename T>
__global__ void __launch_bounds__(256) row_sum_split_combine(RowSumArgs<T> a, long long splits, const float* partials) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  float sum = 0.0f;
  for (long long s = lane; s < splits; s += 32) sum += partials[row * splits + s];
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

}  // namespace kverify::kernels
