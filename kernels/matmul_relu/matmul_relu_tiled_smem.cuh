// matmul_relu, the classic shared-memory tiled SIMT GEMM: C = relu(A B).
//
// Contract (ops/matmul_relu/matmul_relu.hpp states it in full; every matmul_relu variant implements it):
//   C[m][n] = relu(sum_k A[m][k] B[k][n]), ReLU applied once, after the full K sum (never per K
//   tile). Arithmetic in f32 for every storage dtype: f32 storage uses IEEE fused multiply-add
//   (fmaf, no TF32); f16/bf16 storage widens each input exactly to f32, accumulates in f32 and
//   rounds the result once to the storage dtype. relu(NaN) is NaN (relu_keep_nan: fmaxf(NaN, 0)
//   would return 0), relu(-0) and relu(x < 0) are +0. Any M, N, K >= 1; A, B and C each have their
//   own row and column strides (row-major, column-major, padded), in elements.
//
// Tiling: a block of 256 threads (16 x 16) owns a 64 x 64 tile of C and walks K in tiles of 16.
// Per K tile, the block stages A's 64 x 16 and B's 16 x 64 tiles in shared memory (4 elements per
// thread and per tile, widened to f32; elements past M, N or K load as 0, which adds exactly
// nothing to the sum), synchronises, and each thread updates its 4 x 4 register micro-tile with
// fmaf. The micro-tile is strided (rows ty + 16 i, columns tx + 16 j): a warp then reads two A
// values (broadcasts) and 16 consecutive B values per k, free of bank conflicts, and stores whole
// runs of 16 consecutive columns of C. Each output's K sum is one sequential fmaf chain in
// increasing k (the padded zeros of a K tail leave it unchanged). After the K loop: ReLU, then
// masked stores. Tile loads walk the unit-stride dimension across consecutive threads when there is
// one (k for row-major A / column-major B, m or n otherwise), so both layouts load coalesced.
// Grid: x over N tiles, y over M tiles (<= 65535); blocks loop over further tiles when there are
// more, so every shape fits. All index math is 64-bit.
#pragma once

#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

// ReLU that keeps NaN: v > 0 -> v; NaN -> NaN; anything else (negative, -0, +0) -> +0.
__device__ __forceinline__ float relu_keep_nan(float v) { return v > 0.0f ? v : (v != v ? v : 0.0f); }

template <typename T>
struct MatmulReluArgs {
  const T* a;  // M x K, element (0, 0)
  const T* b;  // K x N
  T* c;        // M x N
  long long m, n, k;
  long long a_row_stride, a_col_stride;
  long long b_row_stride, b_col_stride;
  long long c_row_stride, c_col_stride;
};

namespace matmul_tiled_smem {
constexpr int kBM = 64, kBN = 64, kBK = 16;      // block tile of C, K tile
constexpr int kThreadsX = 16, kThreadsY = 16;    // threads along N and along M
constexpr int kThreads = kThreadsX * kThreadsY;  // 256
constexpr int kTM = kBM / kThreadsY;             // 4 rows of C per thread
constexpr int kTN = kBN / kThreadsX;             // 4 columns of C per thread
constexpr int kALoads = kBM * kBK / kThreads;    // 4 A elements per thread and K tile
constexpr int kBLoads = kBK * kBN / kThreads;    // 4 B elements per thread and K tile
}  // namespace matmul_tiled_smem

template <typename T>
__device__ __forceinline__ float load_or_zero(const T* base, long long r, long long c, long long rows, long long cols,
                                              long long row_stride, long long col_stride) {
  return (r < rows && c < cols) ? kv::to_f32(base[r * row_stride + c * col_stride]) : 0.0f;
}

template <typename T>
__global__ void __launch_bounds__(256) matmul_relu_tiled_smem(MatmulReluArgs<T> p) {
  using namespace matmul_tiled_smem;
  // k-major tiles; the +1 column keeps k-fast stores (column-major B, row-major A) to 2-way bank
  // conflicts at most.
  __shared__ float a_tile[kBK][kBM + 1];
  __shared__ float b_tile[kBK][kBN + 1];

  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % kThreadsX, ty = tid / kThreadsX;
  const long long m_tiles = (p.m + kBM - 1) / kBM;
  const long long n_tiles = (p.n + kBN - 1) / kBN;
  // Which dimension consecutive threads walk when loading (uniform per launch: no divergence).
  const bool a_k_fast = p.a_col_stride == 1 && p.a_row_stride != 1;
  const bool b_k_fast = p.b_row_stride == 1 && p.b_col_stride != 1;

  for (long long tile_m = blockIdx.y; tile_m < m_tiles; tile_m += gridDim.y) {
    for (long long tile_n = blockIdx.x; tile_n < n_tiles; tile_n += gridDim.x) {
      const long long m0 = tile_m * kBM, n0 = tile_n * kBN;
      float acc[kTM][kTN];
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] = 0.0f;

      for (long long k0 = 0; k0 < p.k; k0 += kBK) {
#pragma unroll
        for (int l = 0; l < kALoads; ++l) {
          const int e = tid + l * kThreads;
          const int mm = a_k_fast ? e / kBK : e % kBM;
          const int kk = a_k_fast ? e % kBK : e / kBM;
          a_tile[kk][mm] = load_or_zero(p.a, m0 + mm, k0 + kk, p.m, p.k, p.a_row_stride, p.a_col_stride);
        }
#pragma unroll
        for (int l = 0; l < kBLoads; ++l) {
          const int e = tid + l * kThreads;
          const int nn = b_k_fast ? e / kBK : e % kBN;
          const int kk = b_k_fast ? e % kBK : e / kBN;
          b_tile[kk][nn] = load_or_zero(p.b, k0 + kk, n0 + nn, p.k, p.n, p.b_row_stride, p.b_col_stride);
        }
        __syncthreads();  // the tiles are complete

#pragma unroll
        for (int kk = 0; kk < kBK; ++kk) {
          float a_frag[kTM], b_frag[kTN];
#pragma unroll
          for (int i = 0; i < kTM; ++i) a_frag[i] = a_tile[kk][ty + i * kThreadsY];
#pragma unroll
          for (int j = 0; j < kTN; ++j) b_frag[j] = b_tile[kk][tx + j * kThreadsX];
#pragma unroll
          for (int i = 0; i < kTM; ++i)
#pragma unroll
            for (int j = 0; j < kTN; ++j) acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
        }
        __syncthreads();  // everyone is done reading before the next tiles overwrite them
      }

      // Epilogue: ReLU once, on the full K sum; masked stores (the M and N tails).
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
        const long long m = m0 + ty + i * kThreadsY;
        if (m >= p.m) continue;
#pragma unroll
        for (int j = 0; j < kTN; ++j) {
          const long long n = n0 + tx + j * kThreadsX;
          if (n < p.n) p.c[m * p.c_row_stride + n * p.c_col_stride] = kv::from_f32<T>(relu_keep_nan(acc[i][j]));
        }
      }
    }
  }
}

}  // namespace kverify::kernels
