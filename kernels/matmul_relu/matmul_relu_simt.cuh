// matmul_relu, register-blocked SIMT GEMM for f32 (FFMA only, no TF32): C = relu(A B).
//
// Contract: as matmul_relu_tiled_smem.cuh (ops/matmul_relu/matmul_relu.hpp states it in full).
//
// Tiling: a block owns a kTileM x 128 tile of C (kTileM 128 with 256 threads, or 64 with 128
// threads for problems of few rows) and walks its K range in tiles of 8. Thread (tx, ty) =
// (tid % 16, tid / 16) keeps an 8 x 8 register tile: rows ty*4 + {0..3} and kTileM/2 + ty*4 +
// {0..3}, columns tx*4 + {0..3} and 64 + tx*4 + {0..3}. The shared tiles are k-major ([k][row],
// each row of the tile padded by 4 floats), so per k a thread reads its 8 A and 8 B values with
// four 16-byte loads (a warp's A reads are broadcasts, its B reads distinct banks) for 64 fmaf.
//
// Operand tiles go global -> registers -> shared, double-buffered: tile t + 1's loads are in
// flight while the block computes tile t and are stored to the other buffer after it; one
// barrier per K tile. Consecutive threads walk the operand's contiguous dimension (k for row-major
// A and column-major B, rows or columns otherwise), as 16-byte vectors where the plan allows
// (simt_plan.hpp), else element by element with any strides. A vector along k is transposed into
// the k-major tile by four 4-byte stores, free of bank conflicts: the 16 rows a warp stores at one
// k are 16 consecutive banks, its other 16 threads' k is 4 further, 4 x 132 words = 16 banks over.
// Elements past M, N or the K range load as 0 (adding exactly nothing).
//
// K splits (simt_plan.hpp: problems with too few tiles to fill the GPU): block z sums the K range
// [z k_per_split, (z + 1) k_per_split) and writes its raw f32 sums to the workspace; a second
// kernel adds the splits in order, applies ReLU and rounds (split_k_sum.cuh).
// Accumulation order: one sequential fmaf chain in increasing k per split, the splits' sums added
// in split order; the error bound gamma(K) sum|ab| of ops/matmul_relu/reference.cpp holds for it.
// Grid: x over N tiles, y over M tiles (<= 65535; blocks loop over further M tiles), z over the
// splits. 64-bit element offsets.
#pragma once

#include <cmath>
#include <type_traits>

#include "kernels/common/vec_io.cuh"                       // VecOf
#include "kernels/matmul_relu/matmul_relu_tiled_smem.cuh"  // MatmulReluArgs, relu_keep_nan
#include "kernels/matmul_relu/simt_plan.hpp"
#include "kernels/matmul_relu/split_k_sum.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

namespace matmul_simt {
constexpr int kTileN = matmul_relu::SimtPlan::kTileN, kBlockK = matmul_relu::SimtPlan::kBlockK;
constexpr int kPad = 4;  // keeps the transposing stores conflict-free and rows 16-byte aligned
template <int kTileM>
inline constexpr int kThreads = kTileN / 64 * kTileM;  // 8 x 8 outputs per thread
using Float4 = VecOf<float, 4>;

// The mutation neighbourhood's planted bugs (kernels/matmul_relu/mutants/simt_mutants.cuh); the
// production kernels are the Bug::none instances.
enum class Bug {
  none,
  relu_per_split,      // ReLU applied to each split's partial sum
  last_split_dropped,  // the sum of the splits leaves out the last one
  dropped_k_tail,      // the last partial K tile of a range never loaded
  unmasked_k_tail,     // loads ignore the end of the K range (read past K)
  unmasked_n_store,    // a thread's 4-column groups stored whole past N
  one_ulp_high,        // every result one f32 ulp high
};

struct Split {
  float* partials;  // splits x M x N raw sums, or null when K is not split
  long long k_per_split;
};

// One operand's K tile, kRows (A's rows or B's columns) by kBlockK, moved by kThreads threads.
// Slot s of a thread holds tile element (tid + s kThreads) kVec and the kVec - 1 after it along the
// walked dimension: row e / kBlockK, k e % kBlockK when k is walked (kKFast), else row e % kRows,
// k e / kRows. So consecutive slots are kSlotRows rows or kSlotK ks apart.
template <typename T, int kRows, int kThreadCount, bool kKFast, int kVec, bool kMaskK = true>
struct OperandTile {
  static constexpr int kSlots = kRows * kBlockK / (kThreadCount * kVec);
  static constexpr int kSlotRows = kKFast ? kThreadCount * kVec / kBlockK : 0;
  static constexpr int kSlotK = kKFast ? 0 : kThreadCount * kVec / kRows;
  static_assert(kSlots >= 1 && kRows * kBlockK % (kThreadCount * kVec) == 0);
  static_assert(kKFast ? kThreadCount * kVec % kBlockK == 0 : kThreadCount * kVec % kRows == 0);
  using Shared = float[kBlockK][kRows + kPad];

  const T* at;          // slot 0's element in the current K tile
  long long slot_step;  // elements between consecutive slots
  long long tile_step;  // elements between consecutive K tiles
  int row0, k0;         // slot 0's place in the tile
  int rows;             // the tile's rows inside the operand (the rest load as 0)
  float staged[kSlots][kVec];

  __device__ __forceinline__ OperandTile(const T* origin, long long row_stride, long long k_stride, int rows_inside,
                                         int tid)
      : rows(rows_inside) {
    const int e = tid * kVec;
    row0 = kKFast ? e / kBlockK : e % kRows;
    k0 = kKFast ? e % kBlockK : e / kRows;
    at = origin + row0 * row_stride + k0 * k_stride;  // dereferenced only where inside
    slot_step = kSlotRows * row_stride + kSlotK * k_stride;
    tile_step = kBlockK * k_stride;
  }

  __device__ __forceinline__ void next_tile() { at += tile_step; }

  // The current K tile's first k_inside ks are inside the K range.
  __device__ __forceinline__ void load(int k_inside) {
    if constexpr (!kMaskK) k_inside = kBlockK;
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const int row = row0 + s * kSlotRows, k = k0 + s * kSlotK;
      const T* src = at + s * slot_step;
      if constexpr (kVec == 1) {
        staged[s][0] = row < rows && k < k_inside ? kv::to_f32(*src) : 0.0f;
      } else {
        const bool whole = kKFast ? row < rows && k + kVec <= k_inside : row + kVec <= rows && k < k_inside;
        if (whole) {
          const VecOf<T, kVec> v = *reinterpret_cast<const VecOf<T, kVec>*>(src);
#pragma unroll
          for (int lane = 0; lane < kVec; ++lane) staged[s][lane] = kv::to_f32(v.lane[lane]);
        } else {
#pragma unroll
          for (int lane = 0; lane < kVec; ++lane) {
            const bool inside = kKFast ? row < rows && k + lane < k_inside : row + lane < rows && k < k_inside;
            staged[s][lane] = inside ? kv::to_f32(src[lane]) : 0.0f;
          }
        }
      }
    }
  }

  __device__ __forceinline__ void store(Shared& tile) const {
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const int row = row0 + s * kSlotRows, k = k0 + s * kSlotK;
      if constexpr (kVec == 1) {
        tile[k][row] = staged[s][0];
      } else if constexpr (kKFast) {
#pragma unroll
        for (int lane = 0; lane < kVec; ++lane) tile[k + lane][row] = staged[s][lane];
      } else {
        static_assert(kVec == 4);
        *reinterpret_cast<Float4*>(&tile[k][row]) = Float4{{staged[s][0], staged[s][1], staged[s][2], staged[s][3]}};
      }
    }
  }
};

__device__ __forceinline__ Float4 shared_load4(const float* at) { return *reinterpret_cast<const Float4*>(at); }
}  // namespace matmul_simt

// One f32 result as stored: one ulp high under Bug::one_ulp_high.
template <matmul_simt::Bug kBug>
__device__ __forceinline__ float simt_result(float v) {
  return kBug == matmul_simt::Bug::one_ulp_high ? nextafterf(v, INFINITY) : v;
}

template <typename T, int kTileM, bool kAKFast, bool kBKFast, int kVec, matmul_simt::Bug kBug = matmul_simt::Bug::none>
__global__ void __launch_bounds__(matmul_simt::kThreads<kTileM>, 512 / matmul_simt::kThreads<kTileM>)
    matmul_relu_simt(MatmulReluArgs<T> p, matmul_simt::Split split) {
  using namespace matmul_simt;
  constexpr int kThreadCount = kThreads<kTileM>;
  constexpr bool kMaskK = kBug != Bug::unmasked_k_tail;
  using ATile = OperandTile<T, kTileM, kThreadCount, kAKFast, kVec, kMaskK>;
  using BTile = OperandTile<T, kTileN, kThreadCount, kBKFast, kVec, kMaskK>;
  __align__(16) __shared__ float a_tile[2][kBlockK][kTileM + kPad];
  __align__(16) __shared__ float b_tile[2][kBlockK][kTileN + kPad];

  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % 16, ty = tid / 16;
  // The tile loops' index type, chosen by measurement (reports/h200/perf.md, Version 7): at the
  // 128-register bound ptxas spills less with 32-bit indices on the 16-byte path (12 bytes against
  // 20; 4096^3 0.83x against 0.80x) and more on the element path (36 against 20; 4097x4095x4099
  // 0.85x against 0.92x). Either holds any tile count (a tile is >= 64 rows or columns in memory).
  using TileIndex = std::conditional_t<kVec == 1, long long, int>;
  const TileIndex m_tiles = static_cast<TileIndex>((p.m + kTileM - 1) / kTileM);
  const TileIndex n_tiles = static_cast<TileIndex>((p.n + kTileN - 1) / kTileN);
  const long long k_begin = blockIdx.z * split.k_per_split;
  const long long k_length = p.k - k_begin < split.k_per_split ? p.k - k_begin : split.k_per_split;
  const long long k_tiles = kBug == Bug::dropped_k_tail ? k_length / kBlockK : (k_length + kBlockK - 1) / kBlockK;
  const auto k_inside = [&](long long kt) {
    const long long left = k_length - kt * kBlockK;
    return static_cast<int>(left < kBlockK ? left : kBlockK);
  };

  for (TileIndex tile_m = blockIdx.y; tile_m < m_tiles; tile_m += gridDim.y) {
    for (TileIndex tile_n = blockIdx.x; tile_n < n_tiles; tile_n += gridDim.x) {
      const long long m0 = static_cast<long long>(tile_m) * kTileM, n0 = static_cast<long long>(tile_n) * kTileN;
      ATile a(p.a + m0 * p.a_row_stride + k_begin * p.a_col_stride, p.a_row_stride, p.a_col_stride,
              static_cast<int>(p.m - m0 < kTileM ? p.m - m0 : kTileM), tid);
      BTile b(p.b + n0 * p.b_col_stride + k_begin * p.b_row_stride, p.b_col_stride, p.b_row_stride,
              static_cast<int>(p.n - n0 < kTileN ? p.n - n0 : kTileN), tid);

      float acc[8][8];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

      a.load(k_inside(0));
      b.load(k_inside(0));
      a.store(a_tile[0]);
      b.store(b_tile[0]);
      __syncthreads();  // tile 0 is complete
      int buf = 0;
      for (long long kt = 0; kt < k_tiles; ++kt) {
        const bool more = kt + 1 < k_tiles;
        if (more) {  // in flight during the compute below
          a.next_tile();
          b.next_tile();
          a.load(k_inside(kt + 1));
          b.load(k_inside(kt + 1));
        }
#pragma unroll
        for (int kk = 0; kk < kBlockK; ++kk) {
          const Float4 a_lo = shared_load4(&a_tile[buf][kk][ty * 4]);
          const Float4 a_hi = shared_load4(&a_tile[buf][kk][kTileM / 2 + ty * 4]);
          const Float4 b_lo = shared_load4(&b_tile[buf][kk][tx * 4]);
          const Float4 b_hi = shared_load4(&b_tile[buf][kk][64 + tx * 4]);
#pragma unroll
          for (int i = 0; i < 8; ++i) {
            const float av = i < 4 ? a_lo.lane[i] : a_hi.lane[i - 4];
#pragma unroll
            for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(av, j < 4 ? b_lo.lane[j] : b_hi.lane[j - 4], acc[i][j]);
          }
        }
        // The other buffer was last read in step kt - 1, which every thread finished before the
        // barrier that ended it.
        if (more) {
          a.store(a_tile[buf ^ 1]);
          b.store(b_tile[buf ^ 1]);
        }
        __syncthreads();  // tile kt + 1 complete; nobody reads buffer `buf` any more
        buf ^= 1;
      }

      // Epilogue, masked to the M and N tails: ReLU once on the full K sum, or this split's raw sum.
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const long long m = m0 + (i < 4 ? ty * 4 + i : kTileM / 2 + ty * 4 + (i - 4));
        if (m >= p.m) continue;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const long long n = n0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
          if (n >= p.n && !(kBug == Bug::unmasked_n_store && n < (p.n + 3) / 4 * 4)) continue;
          if (split.partials)
            split.partials[(blockIdx.z * p.m + m) * p.n + n] =
                kBug == Bug::relu_per_split ? relu_keep_nan(acc[i][j]) : acc[i][j];
          else
            p.c[m * p.c_row_stride + n * p.c_col_stride] = kv::from_f32<T>(simt_result<kBug>(relu_keep_nan(acc[i][j])));
        }
      }
    }
  }
}

// C = relu(the sum of the splits), rounded once.
template <typename T, matmul_simt::Bug kBug = matmul_simt::Bug::none>
__global__ void __launch_bounds__(kSplitSumThreads) matmul_relu_simt_sum_splits(SplitPartials s, MatmulReluArgs<T> p) {
  if (kBug == matmul_simt::Bug::last_split_dropped) --s.splits;
  sum_split_partials(s, p.c, p.c_row_stride, p.c_col_stride,
                     [](float sum) { return kv::from_f32<T>(simt_result<kBug>(relu_keep_nan(sum))); });
}

}  // namespace kverify::kernels
