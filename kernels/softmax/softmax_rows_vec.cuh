// softmax, narrow and mid rows (up to 32 lanes x P vectors x V elements): a group of G lanes
// (G = 1, 2, ..., 32; several groups per warp when G < 32) per row, the row held in registers,
// P independent 16-byte loads per lane issued before any arithmetic (loads in flight), reductions
// by shuffles of width G inside the group. A group takes R rows, blockDim / G rows apart (every
// load instruction still covers whole rows), all loaded before the first is reduced. Blocks of at
// most 256 threads (the launcher's rows_vec_threads), R x blockDim / G rows per block.
// Vector access and the V = 1 any-layout path: kernels/common/vec_io.cuh.
//
// Padding: -inf for the max, 0 for the sum (set explicitly, never exp(-inf - max)). Per-thread
// sums add P vectors in sequence into V accumulators (the first addition, to 0, is exact), then the V
// pairwise, then log2 G shuffle levels: each term sees at most log2 V + (P - 1) + log2 G roundings,
// which the launcher keeps within the policy's n/32 + log2 n (ops/softmax/reference.cpp).
// Out-of-domain rows come out NaN by IEEE arithmetic: NaN in the row makes the sum NaN (fmaxf skips
// it, exp does not), a +inf max gives exp(inf - inf) = NaN, an all -inf row gives -inf - -inf = NaN.
// Rows past the end keep their lanes in the shuffles (full mask) but neither load nor store.
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/common/vec_io.cuh"
#include "kernels/softmax/softmax_block_per_row.cuh"  // SoftmaxArgs

namespace kverify::kernels {

// y = e / sum. For f16/bf16 outputs as e * (1 / sum): one more f32 rounding (~1 eps32), far below
// the output's own ulp that the policy adds for them (ops/softmax/reference.cpp), and an IEEE division
// per element less, which the halved byte budget of 16-bit softmax cannot afford. f32: the division.
template <typename T>
__device__ __forceinline__ float softmax_scale_factor(float sum) {
  return sizeof(T) == 2 ? 1.0f / sum : sum;
}
template <typename T>
__device__ __forceinline__ float softmax_normalise(float e, float factor) {
  if constexpr (sizeof(T) == 2)
    return e * factor;
  else
    return e / factor;
}

// 2^64 exp(x - max), the 16-bit exp before its product by 2^-64: a kernel that sums these and
// scales each output anyway takes the 2^-64 once per row instead (softmax_cluster_bulk.cuh).
__device__ __forceinline__ float softmax_exp_times_2_64(float x, float max) {
#if defined(__CUDA_ARCH__)
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(fmaf(x - max, 1.4426950408889634f, 64.0f)));
  return e;
#else
  return __expf(x - max) * 0x1p64f;
#endif
}

// exp(x - max). f32 storage: expf (<= 2 ulp, the policy's term). f16/bf16 storage: the fast exp
// (the 16-bit kernels are instruction-bound, ncu on the H200, reports/h200/perf.md), within the
// 16-bit policy (ops/softmax/reference.cpp): the bound adds a whole output ulp, of which the
// rounding uses half; the other half is at least 2^-12 |y| = 2048 eps32 |y| (f16; bf16 2^-9).
//   On the GPU: 2^(t + 64) 2^-64 with t = (x - max) log2 e, ex2.approx.ftz of one FFMA. The
//   instruction errs by 2 + 1.173 |t| ulp (__expf's documented bound: <= 125 eps32 for |t| <= 104);
//   the rounding of t + 64 (|t + 64| < 64 for the results that matter) moves the argument by
//   <= 2^-18, the result by <= 22 eps32 relative. The offset keeps every result above 2^-190 out
//   of the flush (bf16 stores subnormals down to 2^-133, and the baseline rule counts errors in
//   their ulps: a flush of 2^-127 cost 73 ulps against the eager composition's 34, H200), and
//   the product by 2^-64 is exact or rounds once into the subnormals. Without .ftz nvcc wraps
//   ex2 in a subnormal rescaling (an FSETP and two FMULs per exp in the SASS).
//   On emu: __expf.
template <typename T>
__device__ __forceinline__ float softmax_exp(float x, float max) {
  if constexpr (sizeof(T) == 2) {
#if defined(__CUDA_ARCH__)
    return softmax_exp_times_2_64(x, max) * 0x1p-64f;
#else
    return __expf(x - max);
#endif
  } else {
    return expf(x - max);
  }
}

// exp(v - max) for the in-range elements of the vector at column c0, 0 for its padding (set after
// the exps: an all -inf row has max = -inf and exp(-inf - -inf) would be NaN). Whole vectors, all
// but a row's last, take no per-element test (a select per element cost 16-bit rows_vec 8 % of
// the copy ceiling at width 32 on the H200), and the exps are not written twice (a second,
// per-element copy of them made block_regs f32 spill). Columns are int: a register-resident row
// has at most 32768 of them, and 64-bit index arithmetic per element costs registers.
template <typename T, int V>
__device__ __forceinline__ void softmax_exp_vec(float (&v)[V], float max, int c0, int cols) {
#pragma unroll
  for (int k = 0; k < V; ++k) v[k] = softmax_exp<T>(v[k], max);
  const int in_range = cols - c0;  // >= V: the whole vector
  if (in_range < V) {
#pragma unroll
    for (int k = 0; k < V; ++k)
      if (k >= in_range) v[k] = 0.0f;
  }
}

template <int G, typename Op>
__device__ __forceinline__ float group_reduce(float v, Op op) {
#pragma unroll
  for (int offset = G / 2; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset, G));
  return v;
}

template <typename T, int V, int G, int P, int R = 1>
__global__ void __launch_bounds__(256) softmax_rows_vec(SoftmaxArgs<T> a) {
  const long long group_rows = blockDim.x / G;  // rows of one step of the block's groups
  const long long first = static_cast<long long>(blockIdx.x) * group_rows * R + threadIdx.x / G;
  const int lane = static_cast<int>(threadIdx.x % G);

  float v[R][P][V];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const long long row = first + r * group_rows;
    const bool live = row < a.rows;
    const long long cols = live ? a.cols : 0;  // a dead row loads and stores nothing
    const T* x = a.x + (live ? row : 0) * a.x_row_stride;
#pragma unroll
    for (int p = 0; p < P; ++p)
      load_vec<T, V>(x, a.x_col_stride, cols, (lane + static_cast<long long>(G) * p) * V, MaxOp::identity(), v[r][p]);
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const long long row = first + r * group_rows;
    const bool live = row < a.rows;
    const long long cols = live ? a.cols : 0;
    T* y = a.y + (live ? row : 0) * a.y_row_stride;
    float max = MaxOp::identity();
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int k = 0; k < V; ++k) max = fmaxf(max, v[r][p][k]);
    max = group_reduce<G>(max, MaxOp{});

    float acc[V];
#pragma unroll
    for (int k = 0; k < V; ++k) acc[k] = 0.0f;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      softmax_exp_vec<T, V>(v[r][p], max, (lane + G * p) * V, static_cast<int>(cols));
#pragma unroll
      for (int k = 0; k < V; ++k) acc[k] += v[r][p][k];
    }
    const float sum = group_reduce<G>(tree_sum<V>(acc), SumOp{});
    const float factor = softmax_scale_factor<T>(sum);
#pragma unroll
    for (int p = 0; p < P; ++p) {
#pragma unroll
      for (int k = 0; k < V; ++k) v[r][p][k] = softmax_normalise<T>(v[r][p][k], factor);
      store_vec<T, V>(y, a.y_col_stride, cols, (lane + static_cast<long long>(G) * p) * V, v[r][p]);
    }
  }
}

}  // namespace kverify::kernels
