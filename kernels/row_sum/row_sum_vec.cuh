// row_sum with 16-byte vector loads. Vector access and the V = 1 any-layout path:
// kernels/common/vec_io.cuh; f32 accumulation, one rounding to the storage dtype at the end.
//
//   rows_vec   rows <= 1024: G = 1..32 lanes per row (several rows per warp for narrow rows),
//              each lane loads P vectors before adding any (loads in flight) into V accumulators
//              (one per vector lane), then a pairwise sum of the V and width-G shuffles.
//   split_vec  any width: block (s, r) sums element chunk s of row r with 256 threads (a chunk of
//              fewer vectors: one each, in whole warps), each loading 4 vectors at a time into V
//              accumulators, then a block reduction; with one split the block stores y directly,
//              otherwise its partial goes to the workspace and row_sum_split_combine
//              (row_sum_kernels.cuh) adds a row's partials in a fixed order. No atomics: the
//              result has the same bits on every run.
//
// Addition depth per element (ops/row_sum/reference.cpp allows ceil(n/32) + 5 for n <= 1024 and
// ceil(n/256) + 16 beyond): rows_vec ceil(n / (V G)) + log2 V + log2 G <= ceil(n/32) + 5;
// split_vec ceil(chunk / (256 V)) + log2 V + 8 (fewer threads only where each has one vector: a
// shallower tree), plus ceil(S / 32) + 5 for S > 1 splits, where the
// launcher keeps chunk >= 2048 elements per split so that this stays within ceil(n/256) + 16.
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/common/vec_io.cuh"
#include "kernels/row_sum/row_sum_kernels.cuh"  // RowSumArgs, row_sum_split_combine

namespace kverify::kernels {

// Adds lane k of the N whole vectors at vector indices first, first + stride, ... to acc[k]: all
// N loads issued before the first addition, each lane converted where it is added.
template <typename T, int V, int N>
__device__ __forceinline__ void add_whole_vectors(const T* x, long long col_stride, long long first, long long stride,
                                                  float (&acc)[V]) {
  VecOf<T, V> v[N];
#pragma unroll
  for (int n = 0; n < N; ++n) v[n] = load_whole_vec<T, V>(x, col_stride, (first + stride * n) * V);
#pragma unroll
  for (int n = 0; n < N; ++n)
#pragma unroll
    for (int k = 0; k < V; ++k) acc[k] += kv::to_f32(v[n].lane[k]);
}

// Whole: the launcher has checked that cols is a multiple of V G P, so every step's P vectors lie
// inside the row and no load needs a bounds test. Otherwise each load is tested (load_vec), which
// costs registers: ptxas keeps both of its paths' results, every 16-bit lane as an f32 (bf16 P = 2:
// 43 registers against 32, 5 blocks per SM instead of 8; width 32 0.88 -> 0.96 of the copy ceiling
// on the H200, reports/h200/perf.md).
template <typename T, int V, int G, int P, bool Whole>
__global__ void __launch_bounds__(256) row_sum_rows_vec(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / G) + threadIdx.x / G;
  const int lane = static_cast<int>(threadIdx.x % G);
  const bool live = row < a.rows;
  const long long cols = live ? a.cols : 0;  // a dead row loads nothing but keeps its shuffles
  const T* x = a.x + (live ? row : 0) * a.x_row_stride;
  const long long vectors = (cols + V - 1) / V;

  float acc[V];
#pragma unroll
  for (int k = 0; k < V; ++k) acc[k] = 0.0f;
  if constexpr (Whole) {
#pragma unroll 1
    for (long long base = lane; base < vectors; base += static_cast<long long>(G) * P)
      add_whole_vectors<T, V, P>(x, a.x_col_stride, base, G, acc);
  } else {
    for (long long base = lane; base < vectors; base += static_cast<long long>(G) * P) {
      float v[P][V];
#pragma unroll
      for (int p = 0; p < P; ++p)
        load_vec<T, V>(x, a.x_col_stride, cols, (base + static_cast<long long>(G) * p) * V, 0.0f, v[p]);
#pragma unroll
      for (int p = 0; p < P; ++p)
#pragma unroll
        for (int k = 0; k < V; ++k) acc[k] += v[p][k];
    }
  }
  float sum = tree_sum<V>(acc);
#pragma unroll
  for (int offset = G / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset, G);
  if (live && lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

inline constexpr int kRowSumSplitUnroll = 4;

// Block (s, r): elements [s * chunk, min((s + 1) * chunk, cols)) of rows r, r + gridDim.y, ...;
// chunk is a multiple of 8 elements, so every chunk of a 16-byte aligned row starts aligned.
template <typename T, int V>
__global__ void __launch_bounds__(256, 8) row_sum_split_vec(RowSumArgs<T> a, long long chunk, float* partials) {
  __shared__ float scratch[32];
  const long long split = blockIdx.x;
  const long long begin = split * chunk;
  const long long end = begin + chunk < a.cols ? begin + chunk : a.cols;
  const long long cols = end - begin;
  const long long vectors = (cols + V - 1) / V;
  for (long long row = blockIdx.y; row < a.rows; row += gridDim.y) {
    const T* x = a.x + row * a.x_row_stride + begin * a.x_col_stride;
    float acc[V];
#pragma unroll
    for (int k = 0; k < V; ++k) acc[k] = 0.0f;
    // Steps of kRowSumSplitUnroll whole vectors (no bounds tests: a tested load costs registers,
    // as in rows_vec; 16-bit x 55 against 32 with 8 blocks per SM asked of ptxas, no spill), then
    // the chunk's remaining vectors one by one (a few per thread, once per chunk), its last partial
    // vector through load_vec.
    const long long step = static_cast<long long>(blockDim.x) * kRowSumSplitUnroll;
    const long long whole = cols / V;
    long long base = threadIdx.x;
#pragma unroll 1
    for (; base + step - blockDim.x < whole; base += step)
      add_whole_vectors<T, V, kRowSumSplitUnroll>(x, a.x_col_stride, base, blockDim.x, acc);
#pragma unroll 1
    for (; base < vectors; base += blockDim.x) {
      float v[V];
      load_vec<T, V>(x, a.x_col_stride, cols, base * V, 0.0f, v);
#pragma unroll
      for (int k = 0; k < V; ++k) acc[k] += v[k];
    }
    const float sum = block_reduce(tree_sum<V>(acc), SumOp{}, scratch);
    if (threadIdx.x == 0) {
      if (gridDim.x == 1)
        a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
      else
        partials[row * gridDim.x + split] = sum;
    }
  }
}

}  // namespace kverify::kernels
