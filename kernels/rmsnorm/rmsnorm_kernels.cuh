// rmsnorm kernels: rstd[r] = 1 / sqrt(mean_c x[r, c]^2 + eps), y[r, c] = x[r, c] * rstd[r] * w[c];
// f32 arithmetic for every storage dtype, y rounded once. Contract and tolerance:
// ops/rmsnorm/rmsnorm.hpp (the policy counts on at least 32 threads per row, as each has).
//
//   warp_per_row   narrow rows: a warp per row, 8 rows per block, lanes stride the row; a butterfly
//                  gives every lane the sum, and each lane writes the columns it read
//   block_per_row  a block per row: strided per-thread sums, a block reduction, then every thread
//                  writes its columns
// Both read x twice (the second pass mostly from L1/L2) and take any strides.
//   block_vec      a block per row holding the row in registers: P vectors of V elements per
//                  thread, every load issued before any arithmetic, each vector's squares added as a
//                  tree; x read once (kernels/common/vec_io.cuh: V = 16 bytes where x, y and w
//                  allow, else V = 1 through the strides)
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/common/vec_io.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T>
struct RmsnormArgs {
  const T* x;
  const T* w;
  T* y;
  float* rstd;
  long long rows, cols;
  long long x_row_stride, x_col_stride, w_stride;
  long long y_row_stride, y_col_stride, rstd_stride;
  float eps;
};

// The sum of squares of this thread's columns first, first + step, ...
template <typename T>
__device__ __forceinline__ float rmsnorm_squares(const RmsnormArgs<T>& a, long long row, long long first,
                                                 long long step) {
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  for (long long c = first; c < a.cols; c += step) {
    const float v = kv::to_f32(x[c * a.x_col_stride]);
    sum += v * v;
  }
  return sum;
}

template <typename T>
__device__ __forceinline__ float rmsnorm_rstd(const RmsnormArgs<T>& a, float sum_of_squares) {
  return rsqrtf(sum_of_squares / static_cast<float>(a.cols) + a.eps);
}

template <typename T>
__device__ __forceinline__ void rmsnorm_write(const RmsnormArgs<T>& a, long long row, float rstd, long long first,
                                              long long step) {
  const T* x = a.x + row * a.x_row_stride;
  T* y = a.y + row * a.y_row_stride;
  for (long long c = first; c < a.cols; c += step)
    y[c * a.y_col_stride] = kv::from_f32<T>(kv::to_f32(x[c * a.x_col_stride]) * rstd * kv::to_f32(a.w[c * a.w_stride]));
}

template <typename T>
__global__ void __launch_bounds__(256) rmsnorm_warp_per_row(RmsnormArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;  // whole warps leave together
  const unsigned lane = threadIdx.x % 32;
  const float rstd = rmsnorm_rstd(a, warp_reduce(rmsnorm_squares(a, row, lane, 32), SumOp{}));
  if (lane == 0) a.rstd[row * a.rstd_stride] = rstd;
  rmsnorm_write(a, row, rstd, lane, 32);
}

template <typename T>
__global__ void __launch_bounds__(1024) rmsnorm_block_per_row(RmsnormArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const float sum = block_reduce(rmsnorm_squares(a, row, threadIdx.x, blockDim.x), SumOp{}, scratch);
  const float rstd = rmsnorm_rstd(a, sum);
  if (threadIdx.x == 0) a.rstd[row * a.rstd_stride] = rstd;
  rmsnorm_write(a, row, rstd, threadIdx.x, blockDim.x);
}

// Row r's P vectors of V elements per thread: thread t holds columns (p * blockDim.x + t) * V ...
template <typename T, int V, int P>
__global__ void __launch_bounds__(1024) rmsnorm_block_vec(RmsnormArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  float v[P][V];
#pragma unroll
  for (int p = 0; p < P; ++p)
    load_vec<T, V>(x, a.x_col_stride, a.cols, (static_cast<long long>(p) * blockDim.x + threadIdx.x) * V, 0.0f, v[p]);
  float sum = 0.0f;
#pragma unroll
  for (int p = 0; p < P; ++p) {
    float squares[V];
#pragma unroll
    for (int k = 0; k < V; ++k) squares[k] = v[p][k] * v[p][k];
    sum += tree_sum<V>(squares);
  }
  const float rstd = rmsnorm_rstd(a, block_reduce(sum, SumOp{}, scratch));
  if (threadIdx.x == 0) a.rstd[row * a.rstd_stride] = rstd;
  T* y = a.y + row * a.y_row_stride;
#pragma unroll
  for (int p = 0; p < P; ++p) {
    const long long c = (static_cast<long long>(p) * blockDim.x + threadIdx.x) * V;
    if (c >= a.cols) break;
    float w[V];
    load_vec<T, V>(a.w, a.w_stride, a.cols, c, 0.0f, w);
#pragma unroll
    for (int k = 0; k < V; ++k) v[p][k] = v[p][k] * rstd * w[k];
    store_vec<T, V>(y, a.y_col_stride, a.cols, c, v[p]);
  }
}

}  // namespace kverify::kernels
