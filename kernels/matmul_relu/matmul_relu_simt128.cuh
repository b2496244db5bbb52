// matmul_relu, register-blocked SIMT GEMM for f32 (FFMA only, no TF32): C = relu(A B).
//
// Contract: as matmul_relu_tiled_smem.cuh (ops/matmul_relu/matmul_relu.hpp states it in full).
//
// Tiling: a block of 256 threads (16 x 16) owns a 128 x 128 tile of C and walks K in tiles of 8.
// Each thread keeps an 8 x 8 register tile: rows ty*4 + {0..3} and 64 + ty*4 + {0..3}, columns
// tx*4 + {0..3} and 64 + tx*4 + {0..3} (two groups of four 64 apart, so a warp's 16-byte shared
// reads of B cover distinct banks and its A reads are broadcasts). Per K step a thread reads 8 A
// and 8 B values from shared memory for 64 fmaf: 4 FFMA per shared load, against 2 in
// tiled_smem's 4 x 4 micro-tile.
// Double-buffered shared memory: while the block computes K tile t from one buffer, each thread's
// 4 + 4 global loads of tile t + 1 are in flight (into registers), stored into the other buffer
// after the compute; one barrier per K tile. Elements past M, N or K load as 0 (adds exactly
// nothing). Tile loads walk the unit-stride dimension across consecutive threads (k for row-major
// A or column-major B, m or n otherwise), so any layout loads coalesced; a 4-float pad per shared
// row keeps k-fast stores free of bank conflicts.
// Accumulation order: each output is one sequential fmaf chain in increasing k, as in tiled_smem;
// the error bound gamma(K) sum|ab| of ops/matmul_relu/reference.cpp holds for any order anyway.
// Grid: x over N tiles, y over M tiles (<= 65535); blocks loop over further tiles. 64-bit indices.
#pragma once

#include "kernels/matmul_relu/matmul_relu_tiled_smem.cuh"  // MatmulReluArgs, relu_keep_nan
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

namespace matmul_simt128 {
constexpr int kBM = 128, kBN = 128, kBK = 8;
constexpr int kThreads = 256;
constexpr int kPad = 4;                       // shared row = 132 floats: 16-byte aligned, conflict-free k-fast stores
constexpr int kLoads = kBM * kBK / kThreads;  // 4 A and 4 B elements per thread and K tile
}  // namespace matmul_simt128

template <typename T>
__global__ void __launch_bounds__(256, 2) matmul_relu_simt128(MatmulReluArgs<T> p) {
  using namespace matmul_simt128;
  __align__(16) __shared__ float a_tile[2][kBK][kBM + kPad];
  __align__(16) __shared__ float b_tile[2][kBK][kBN + kPad];

  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % 16, ty = tid / 16;
  const long long m_tiles = (p.m + kBM - 1) / kBM;
  const long long n_tiles = (p.n + kBN - 1) / kBN;
  const long long k_tiles = (p.k + kBK - 1) / kBK;
  const bool a_k_fast = p.a_col_stride == 1 && p.a_row_stride != 1;
  const bool b_k_fast = p.b_row_stride == 1 && p.b_col_stride != 1;

  // This thread's load slots. Slot l of A holds (row mm0 + l*dm, k kk0 + l*dk) of the tile: with k
  // fast, consecutive threads take consecutive k and the slots are 32 rows apart; otherwise
  // consecutive rows and the slots 2 k apart. Same for B with columns. One pointer and one step
  // per tensor keep the loader's registers few (the 8 x 8 accumulators need the rest).
  const int a_mm0 = a_k_fast ? tid / kBK : tid % kBM, a_kk0 = a_k_fast ? tid % kBK : tid / kBM;
  const int a_dm = a_k_fast ? kThreads / kBK : 0, a_dk = a_k_fast ? 0 : kThreads / kBM;
  const int b_nn0 = b_k_fast ? tid / kBK : tid % kBN, b_kk0 = b_k_fast ? tid % kBK : tid / kBN;
  const int b_dn = b_k_fast ? kThreads / kBK : 0, b_dk = b_k_fast ? 0 : kThreads / kBN;
  const long long a_slot_step = a_dm * p.a_row_stride + a_dk * p.a_col_stride;
  const long long b_slot_step = b_dn * p.b_col_stride + b_dk * p.b_row_stride;
  const long long a_k_step = kBK * p.a_col_stride, b_k_step = kBK * p.b_row_stride;

  for (long long tile_m = blockIdx.y; tile_m < m_tiles; tile_m += gridDim.y) {
    for (long long tile_n = blockIdx.x; tile_n < n_tiles; tile_n += gridDim.x) {
      const long long m0 = tile_m * kBM, n0 = tile_n * kBN;
      // Slot 0's element at K tile 0 (p.a / p.b themselves when the slot is outside: never read).
      const T* a_base = p.a + (m0 + a_mm0) * p.a_row_stride + a_kk0 * p.a_col_stride;
      const T* b_base = p.b + (n0 + b_nn0) * p.b_col_stride + b_kk0 * p.b_row_stride;
      float a_next[kLoads], b_next[kLoads];
      auto load_tile = [&](long long kt) {
        const long long k0 = kt * kBK;
#pragma unroll
        for (int l = 0; l < kLoads; ++l) {
          const bool a_in = m0 + a_mm0 + l * a_dm < p.m && k0 + a_kk0 + l * a_dk < p.k;
          const bool b_in = n0 + b_nn0 + l * b_dn < p.n && k0 + b_kk0 + l * b_dk < p.k;
          a_next[l] = a_in ? kv::to_f32(a_base[kt * a_k_step + l * a_slot_step]) : 0.0f;
          b_next[l] = b_in ? kv::to_f32(b_base[kt * b_k_step + l * b_slot_step]) : 0.0f;
        }
      };
      auto store_tile = [&](int buf) {
#pragma unroll
        for (int l = 0; l < kLoads; ++l) {
          a_tile[buf][a_kk0 + l * a_dk][a_mm0 + l * a_dm] = a_next[l];
          b_tile[buf][b_kk0 + l * b_dk][b_nn0 + l * b_dn] = b_next[l];
        }
      };

      float acc[8][8];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

      load_tile(0);
      store_tile(0);
      __syncthreads();  // tile 0 is complete
      int buf = 0;
      for (long long kt = 0; kt < k_tiles; ++kt) {
        const bool more = kt + 1 < k_tiles;
        if (more) load_tile(kt + 1);  // in flight during the compute below
#pragma unroll
        for (int kk = 0; kk < kBK; ++kk) {
          float a_frag[8], b_frag[8];
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            a_frag[i] = a_tile[buf][kk][ty * 4 + i];
            a_frag[4 + i] = a_tile[buf][kk][64 + ty * 4 + i];
            b_frag[i] = b_tile[buf][kk][tx * 4 + i];
            b_frag[4 + i] = b_tile[buf][kk][64 + tx * 4 + i];
          }
#pragma unroll
          for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
        }
        // The other buffer was last read in step kt - 1, which every thread finished before the
        // barrier that ended it.
        if (more) store_tile(buf ^ 1);
        __syncthreads();  // tile kt + 1 complete; nobody reads buffer `buf` any more
        buf ^= 1;
      }

      // Epilogue: ReLU once, on the full K sum; masked stores (the M and N tails).
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const long long m = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (m >= p.m) continue;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const long long n = n0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
          if (n < p.n) p.c[m * p.c_row_stride + n * p.c_col_stride] = kv::from_f32<T>(relu_keep_nan(acc[i][j]));
        }
      }
    }
  }
}

}  // namespace kverify::kernels
