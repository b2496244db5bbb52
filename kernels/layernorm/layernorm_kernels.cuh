// layernorm kernels: mean[r] = sum_c x[r, c] / C, rstd[r] = 1 / sqrt(sum_c (x - mean)^2 / C + eps),
// y[r, c] = (x[r, c] - mean[r]) * rstd[r] * w[c] + b[c]; f32 arithmetic for every storage dtype, y
// rounded once. Contract and tolerance: ops/layernorm/layernorm.hpp (the policy counts on at least
// 32 threads per row, as each has). Every variant takes the variance in a second pass over the
// deviations from the mean: never E[x^2] - E[x]^2, which cancels for a large mean.
//
//   warp_per_row   narrow rows: a warp per row, 8 rows per block, lanes stride the row; butterflies
//                  give every lane the sum, then the sum of squared deviations; each lane writes
//                  the columns it read
//   block_per_row  a block per row: strided per-thread sums and block reductions, then every
//                  thread writes its columns
// Both read x three times (the second and third mostly from L1/L2) and take any strides.
//   block_vec      a block per row holding the row in registers: P vectors of V elements per
//                  thread, every load issued before any arithmetic, each vector's terms added as a
//                  tree; x read once (kernels/common/vec_io.cuh: V = 16 bytes where x, y, w and b
//                  allow, else V = 1 through the strides). The padding past the row is left out of
//                  the deviations (a padded zero would add mean^2 / C to the variance).
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/common/vec_io.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T>
struct LayernormArgs {
  const T* x;
  const T* w;
  const T* b;
  T* y;
  float* mean;
  float* rstd;
  long long rows, cols;
  long long x_row_stride, x_col_stride, w_stride, b_stride;
  long long y_row_stride, y_col_stride, mean_stride, rstd_stride;
  float eps;
};

// The sum of this thread's columns first, first + step, ... of x, or of their squared deviations
// from `mean`.
template <typename T>
__device__ __forceinline__ float layernorm_sum(const LayernormArgs<T>& a, long long row, long long first,
                                               long long step) {
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  for (long long c = first; c < a.cols; c += step) sum += kv::to_f32(x[c * a.x_col_stride]);
  return sum;
}
template <typename T>
__device__ __forceinline__ float layernorm_squared_deviations(const LayernormArgs<T>& a, long long row, float mean,
                                                              long long first, long long step) {
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  for (long long c = first; c < a.cols; c += step) {
    const float d = kv::to_f32(x[c * a.x_col_stride]) - mean;
    sum += d * d;
  }
  return sum;
}

template <typename T>
__device__ __forceinline__ float layernorm_rstd(const LayernormArgs<T>& a, float sum_of_squared_deviations) {
  return rsqrtf(sum_of_squared_deviations / static_cast<float>(a.cols) + a.eps);
}

template <typename T>
__device__ __forceinline__ void layernorm_write(const LayernormArgs<T>& a, long long row, float mean, float rstd,
                                                long long first, long long step) {
  const T* x = a.x + row * a.x_row_stride;
  T* y = a.y + row * a.y_row_stride;
  for (long long c = first; c < a.cols; c += step)
    y[c * a.y_col_stride] =
        kv::from_f32<T>((kv::to_f32(x[c * a.x_col_stride]) - mean) * rstd * kv::to_f32(a.w[c * a.w_stride]) +
                        kv::to_f32(a.b[c * a.b_stride]));
}

template <typename T>
__device__ __forceinline__ void layernorm_store_statistics(const LayernormArgs<T>& a, long long row, float mean,
                                                           float rstd) {
  a.mean[row * a.mean_stride] = mean;
  a.rstd[row * a.rstd_stride] = rstd;
}

template <typename T>
__global__ void __launch_bounds__(256) layernorm_warp_per_row(LayernormArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;  // whole warps leave together
  const unsigned lane = threadIdx.x % 32;
  const float mean = warp_reduce(layernorm_sum(a, row, lane, 32), SumOp{}) / static_cast<float>(a.cols);
  const float rstd = layernorm_rstd(a, warp_reduce(layernorm_squared_deviations(a, row, mean, lane, 32), SumOp{}));
  if (lane == 0) layernorm_store_statistics(a, row, mean, rstd);
  layernorm_write(a, row, mean, rstd, lane, 32);
}

template <typename T>
__global__ void __launch_bounds__(1024) layernorm_block_per_row(LayernormArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const float mean =
      block_reduce(layernorm_sum(a, row, threadIdx.x, blockDim.x), SumOp{}, scratch) / static_cast<float>(a.cols);
  const float rstd = layernorm_rstd(
      a, block_reduce(layernorm_squared_deviations(a, row, mean, threadIdx.x, blockDim.x), SumOp{}, scratch));
  if (threadIdx.x == 0) layernorm_store_statistics(a, row, mean, rstd);
  layernorm_write(a, row, mean, rstd, threadIdx.x, blockDim.x);
}

// Row r's P vectors of V elements per thread: thread t holds columns (p * blockDim.x + t) * V ...
// One vector per thread (P = 1) asks for two resident 1024-thread blocks per SM (at most 32
// registers a thread): with one, the SM idles while its only block waits in the two reductions
// (bf16 4096x8192 on an H100 took twice rmsnorm's time at 39 registers).
template <typename T, int V, int P>
__global__ void __launch_bounds__(1024, P == 1 ? 2 : 1) layernorm_block_vec(LayernormArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  float v[P][V];
#pragma unroll
  for (int p = 0; p < P; ++p)
    load_vec<T, V>(x, a.x_col_stride, a.cols, (static_cast<long long>(p) * blockDim.x + threadIdx.x) * V, 0.0f, v[p]);
  float sum = 0.0f;
#pragma unroll
  for (int p = 0; p < P; ++p) sum += tree_sum<V>(v[p]);
  const float mean = block_reduce(sum, SumOp{}, scratch) / static_cast<float>(a.cols);
  float squares = 0.0f;
#pragma unroll
  for (int p = 0; p < P; ++p) {
    const long long c = (static_cast<long long>(p) * blockDim.x + threadIdx.x) * V;
    float d[V];
#pragma unroll
    for (int k = 0; k < V; ++k) d[k] = c + k < a.cols ? (v[p][k] - mean) * (v[p][k] - mean) : 0.0f;
    squares += tree_sum<V>(d);
  }
  const float rstd = layernorm_rstd(a, block_reduce(squares, SumOp{}, scratch));
  if (threadIdx.x == 0) layernorm_store_statistics(a, row, mean, rstd);
  T* y = a.y + row * a.y_row_stride;
#pragma unroll
  for (int p = 0; p < P; ++p) {
    const long long c = (static_cast<long long>(p) * blockDim.x + threadIdx.x) * V;
    if (c >= a.cols) break;
    float w[V], b[V];
    load_vec<T, V>(a.w, a.w_stride, a.cols, c, 0.0f, w);
    load_vec<T, V>(a.b, a.b_stride, a.cols, c, 0.0f, b);
#pragma unroll
    for (int k = 0; k < V; ++k) v[p][k] = (v[p][k] - mean) * rstd * w[k] + b[k];
    store_vec<T, V>(y, a.y_col_stride, a.cols, c, v[p]);
  }
}

}  // namespace kverify::kernels
