// matmul_relu on Hopper's warpgroup tensor cores (sm_90a), f16/bf16 storage: C = relu(A B).
// GPU only (wgmma, tensor copies, mbarriers, setmaxnreg); the registry says so and the suites skip
// it on emu with that reason.
//
// Contract: as every matmul_relu variant (ops/matmul_relu/matmul_relu.hpp): f32 accumulation of the
// exactly-widened inputs, ReLU once after the full K sum (NaN kept), one rounding to the storage
// dtype, any M, N, K >= 1, C with any strides.
//
// Design (warp specialization, persistent grid):
//   - A block of three warpgroups owns one SM. Warpgroup 0 is the producer: one thread issues
//     the tensor copies (TMA) of each K block (64) of A's 128 x 64 tile and B's 64 x BN tile into
//     a ring of STAGES shared-memory stages, each completing on the stage's "full" mbarrier; it
//     gives its registers back (setmaxnreg) to the two consumer warpgroups, which each compute 64
//     rows x BN columns of C with wgmma m64nBNk16 (f32 accumulators in registers), and free a
//     stage by arriving on its "empty" mbarrier (one arrival per consumer warp) once the wgmmas
//     that read it have completed (one wgmma group kept in flight).
//   - Units of work are (tile, K range) pairs, taken by the persistent grid in order
//     (blockIdx.x + i gridDim.x); tiles in groups of 16 tile rows walked down M first, so that
//     the blocks running at once share their A and B panels in L2.
//   - Tails: the tensor copies fill the parts of a box outside the tensor with zeros (adding
//     exactly nothing), so the M, N and K tails need no separate path; the epilogue masks its
//     stores.
//   - Promotion (kPromoteEvery > 0): the tensor core adds each k16 step into its accumulator with
//     truncation, an error that grows with the number of steps. Every kPromoteEvery K blocks the
//     wgmma accumulator is restarted (scale_d = 0) after being added, rounded to nearest, into a
//     second register accumulator: at most 4 kPromoteEvery truncating steps feed any rounded
//     addition.
//   - Splits (p.splits > 1): the K range of a tile is cut into splits; each writes its f32 partial
//     sums to the workspace and reduce_splits adds them in split order (deterministic), applies
//     the ReLU and rounds once.
#pragma once

#if defined(__CUDACC__)
#include <cuda.h>  // CUtensorMap

#include <cstdint>

#include "kernels/common/bulk_copy.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/matmul_relu/matmul_relu_tiled_smem.cuh"  // relu_keep_nan
#include "kernels/matmul_relu/split_k_sum.cuh"
#include "kernels/matmul_relu/wgmma_plan.hpp"

namespace kverify::kernels::matmul_relu::wgmma_gemm {

inline constexpr int kTileM = WgmmaPlan::kTileM, kBlockK = WgmmaPlan::kBlockK;
inline constexpr int kConsumers = 2;
inline constexpr int kThreads = 128 * (1 + kConsumers);
inline constexpr int kGroupRows = 16;  // tile rows per raster group
// setmaxnreg budgets: 40 x 128 + 232 x 256 = 64512 of the SM's 65536 registers.
inline constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;

template <int kTileN, int kStages>
struct Layout {
  static constexpr int kABytes = kTileM * kBlockK * 2;  // 16 KiB
  static constexpr int kBBytes = kTileN * kBlockK * 2;  // 8-32 KiB
  static constexpr int kStageBytes = kABytes + kBBytes;
  static constexpr int kBarrierBytes = 2 * kStages * 8;
  // The stages, 1024-byte aligned (128-byte swizzle), then the full and empty barriers.
  static constexpr int kSharedBytes = 1024 + kStages * kStageBytes + kBarrierBytes;
  static_assert(kSharedBytes <= 227 * 1024, "shared memory per block on sm_90");
};

// The mutation self-test plants one bug class of the matmul mutants into this kernel and its
// launcher (kernels/matmul_relu/mutants/wgmma_mutants.cuh); production is Bug::none, where every
// test of it compiles away.
enum class Bug {
  none,
  relu_per_split,      // ReLU applied to each split's partial sum
  unmasked_n_store,    // the N tail stored unmasked
  one_ulp_high,        // every positive result one storage ulp high
  one_unit_per_block,  // the persistent loop stops after its first unit: later tiles never written
  last_split_dropped,  // the split reduction leaves out the last split
  dropped_k_tail,      // (host) the last partial K block never loaded
  unmasked_k_tail,     // (host) the tensor maps' K extent rounded up to the block: reads past K
  b_orientation,       // (host) a column-major B read as row-major
};

struct Params {
  long long m, n;
  long long m_tiles, n_tiles;
  int k_blocks, k_blocks_per_split, splits;
  long long units;  // m_tiles * n_tiles * splits
  void* c;          // T*, element (0, 0) of C (splits == 1)
  long long c_row_stride, c_col_stride;
  float* partials;  // splits > 1: [split][m][n], dense
};

struct Unit {
  long long m0, n0;
  int split, k_block_begin, k_block_end;
};

// Unit u: tile rows in groups of kGroupRows, walked down M first (the blocks running at once share
// their A and B panels in L2), each tile's K range cut into p.splits.
template <int kTileN>
__device__ __forceinline__ Unit unit_of(const Params& p, long long u) {
  const long long tile = u / p.splits;
  const int split = static_cast<int>(u % p.splits);
  const long long group_tiles = kGroupRows * p.n_tiles;
  const long long first_m = tile / group_tiles * kGroupRows;
  const long long rows = p.m_tiles - first_m < kGroupRows ? p.m_tiles - first_m : kGroupRows;
  const long long in_group = tile % group_tiles;
  const int begin = split * p.k_blocks_per_split;
  const int end = begin + p.k_blocks_per_split < p.k_blocks ? begin + p.k_blocks_per_split : p.k_blocks;
  return {(first_m + in_group % rows) * kTileM, in_group / rows * kTileN, split, begin, end};
}

__device__ __forceinline__ std::uint32_t bits16(__half v) { return __half_as_ushort(v); }
__device__ __forceinline__ std::uint32_t bits16(__nv_bfloat16 v) { return __bfloat16_as_ushort(v); }

// relu(v) rounded to the storage type.
template <typename T, Bug kBug>
__device__ __forceinline__ T output(float v) {
  const T y = kv::from_f32<T>(relu_keep_nan(v));
  if constexpr (kBug == Bug::one_ulp_high) {
    if (v > 0.0f) {
      const unsigned short up = static_cast<unsigned short>(bits16(y) + 1);
      return *reinterpret_cast<const T*>(&up);
    }
  }
  return y;
}

template <typename T, Bug kBug>
__device__ __forceinline__ void store_pair(const Params& p, long long row, long long col, float x0, float x1) {
  if (row >= p.m) return;
  const bool unmasked = kBug == Bug::unmasked_n_store;
  if (col >= p.n && !unmasked) return;
  T* dst = static_cast<T*>(p.c) + row * p.c_row_stride + col * p.c_col_stride;
  if (col + 1 < p.n || unmasked) {
    if (p.c_col_stride == 1 && reinterpret_cast<std::uintptr_t>(dst) % 4 == 0) {
      *reinterpret_cast<std::uint32_t*>(dst) = bits16(output<T, kBug>(x0)) | bits16(output<T, kBug>(x1)) << 16;
    } else {
      dst[0] = output<T, kBug>(x0);
      dst[p.c_col_stride] = output<T, kBug>(x1);
    }
  } else {
    dst[0] = output<T, kBug>(x0);
  }
}

template <Bug kBug>
__device__ __forceinline__ void store_partial_pair(const Params& p, int split, long long row, long long col, float x0,
                                                   float x1) {
  if (row >= p.m || col >= p.n) return;
  if constexpr (kBug == Bug::relu_per_split) {
    x0 = relu_keep_nan(x0);
    x1 = relu_keep_nan(x1);
  }
  float* dst = p.partials + (split * p.m + row) * p.n + col;
  if (col + 1 < p.n) {
    if (reinterpret_cast<std::uintptr_t>(dst) % 8 == 0) {
      *reinterpret_cast<float2*>(dst) = make_float2(x0, x1);
    } else {
      dst[0] = x0;
      dst[1] = x1;
    }
  } else {
    dst[0] = x0;
  }
}

template <typename T, int kTileN, int kStages, bool kBNMajor, int kPromoteEvery, Bug kBug = Bug::none>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_relu_wgmma(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, Params p) {
  using L = Layout<kTileN, kStages>;
  static_assert(kPromoteEvery == 0 || kTileN <= 192, "promotion doubles the accumulators: tiles up to 192 wide");
  extern __shared__ unsigned char shared_raw[];
  unsigned char* const tiles =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(shared_raw) + 1023) / 1024 * 1024);
  std::uint64_t* const full = reinterpret_cast<std::uint64_t*>(tiles + kStages * L::kStageBytes);
  std::uint64_t* const empty = full + kStages;
  const std::uint32_t tiles_address = bulk::smem_address(tiles);
  const auto a_tile = [&](int stage) { return tiles_address + stage * L::kStageBytes; };
  const auto b_tile = [&](int stage) { return tiles_address + stage * L::kStageBytes + L::kABytes; };

  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  const int warp = (static_cast<int>(threadIdx.x) / 32) % 4, lane = static_cast<int>(threadIdx.x) % 32;
  const long long first_unit = blockIdx.x, unit_step = gridDim.x;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      bulk::init(&full[s], 1);                // the producer's arrive_expect_bytes
      bulk::init(&empty[s], kConsumers * 4);  // one arrival per consumer warp
    }
    bulk::fence_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    wgmma::release_registers<kProducerRegisters>();
    if (warp == 0 && lane == 0) {
      int it = 0;
      for (long long u = first_unit; u < p.units; u += unit_step) {
        if (kBug == Bug::one_unit_per_block && u != first_unit) break;
        const Unit w = unit_of<kTileN>(p, u);
        for (int kb = w.k_block_begin; kb < w.k_block_end; ++kb, ++it) {
          const int stage = it % kStages;
          bulk::wait_parity(&empty[stage], ((it / kStages) & 1) ^ 1);
          bulk::arrive_expect_bytes(&full[stage], L::kStageBytes);
          const std::uint32_t bar = bulk::smem_address(&full[stage]);
          wgmma::tensor_load_2d(a_tile(stage), &a_map, kb * kBlockK, static_cast<int>(w.m0), bar);
          if constexpr (kBNMajor) {
#pragma unroll
            for (int box = 0; box < kTileN / 64; ++box)
              wgmma::tensor_load_2d(b_tile(stage) + box * kBlockK * wgmma::kSwizzleBytes, &b_map,
                                    static_cast<int>(w.n0) + 64 * box, kb * kBlockK, bar);
          } else {
            wgmma::tensor_load_2d(b_tile(stage), &b_map, kb * kBlockK, static_cast<int>(w.n0), bar);
          }
        }
      }
    }
    return;
  }

  wgmma::claim_registers<kConsumerRegisters>();
  const int consumer = warpgroup - 1;
  float acc[kTileN / 2];
  float total[kPromoteEvery > 0 ? kTileN / 2 : 1];
  int it = 0;
  for (long long u = first_unit; u < p.units; u += unit_step) {
    if (kBug == Bug::one_unit_per_block && u != first_unit) break;
    const Unit w = unit_of<kTileN>(p, u);
    const int blocks = w.k_block_end - w.k_block_begin;
    if constexpr (kPromoteEvery > 0) {
#pragma unroll
      for (int i = 0; i < kTileN / 2; ++i) total[i] = 0.0f;
    }
    int pending = -1;  // the stage whose wgmmas may still run
    const auto release = [&](int stage) {
      if (lane == 0) wgmma::arrive(bulk::smem_address(&empty[stage]));
    };
    for (int i = 0; i < blocks; ++i, ++it) {
      const int stage = it % kStages;
      bulk::wait_parity(&full[stage], (it / kStages) & 1);
      bool restart = i == 0;  // the first wgmma of a promotion chunk starts from D = 0
      if constexpr (kPromoteEvery > 0) restart = i % kPromoteEvery == 0;
      const std::uint32_t a_rows = a_tile(stage) + consumer * 64 * wgmma::kSwizzleBytes;
      wgmma::fence();
#pragma unroll
      for (int kk = 0; kk < kBlockK / 16; ++kk) {
        const std::uint64_t da = wgmma::k_major_descriptor(a_rows + kk * 32);
        const std::uint64_t db = kBNMajor ? wgmma::mn_major_descriptor(b_tile(stage) + kk * 16 * wgmma::kSwizzleBytes,
                                                                       kBlockK * wgmma::kSwizzleBytes)
                                          : wgmma::k_major_descriptor(b_tile(stage) + kk * 32);
        wgmma::mma_async<T, kTileN, kBNMajor ? 1 : 0>(acc, da, db, (restart && kk == 0) ? 0 : 1);
      }
      wgmma::commit();
      bool promote = false;
      if constexpr (kPromoteEvery > 0) promote = (i + 1) % kPromoteEvery == 0 || i + 1 == blocks;
      if (promote) {
        wgmma::wait<0>();
        wgmma::fence_operands(acc);
        if (pending >= 0) release(pending);
        release(stage);
        pending = -1;
        if constexpr (kPromoteEvery > 0) {
#pragma unroll
          for (int j = 0; j < kTileN / 2; ++j) total[j] += acc[j];
        }
      } else {
        wgmma::wait<1>();  // the previous K block's group is done; this one still writes acc
        if (pending >= 0) release(pending);
        pending = stage;
      }
    }
    wgmma::wait<0>();
    wgmma::fence_operands(acc);
    if (pending >= 0) release(pending);
    // Accumulator j * 4 + 2h + e: row 16 warp + lane / 4 + 8h of the consumer's 64, column
    // 8j + 2 (lane % 4) + e.
    const auto epilogue = [&](const float(&out)[kTileN / 2]) {
      const long long row0 = w.m0 + consumer * 64 + warp * 16 + lane / 4;
#pragma unroll
      for (int j = 0; j < kTileN / 8; ++j) {
        const long long col = w.n0 + j * 8 + (lane % 4) * 2;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          if (p.splits == 1)
            store_pair<T, kBug>(p, row0 + 8 * h, col, out[j * 4 + 2 * h], out[j * 4 + 2 * h + 1]);
          else
            store_partial_pair<kBug>(p, w.split, row0 + 8 * h, col, out[j * 4 + 2 * h], out[j * 4 + 2 * h + 1]);
        }
      }
    };
    if constexpr (kPromoteEvery > 0)
      epilogue(total);
    else
      epilogue(acc);
  }
}

// C = relu(sum of the splits' partial sums, in split order), rounded once.
template <typename T, Bug kBug = Bug::none>
__global__ void __launch_bounds__(kSplitSumThreads) reduce_splits(Params p) {
  const int splits = kBug == Bug::last_split_dropped ? p.splits - 1 : p.splits;
  sum_split_partials(SplitPartials{p.partials, p.m, p.n, splits}, static_cast<T*>(p.c), p.c_row_stride, p.c_col_stride,
                     [](float sum) { return output<T, kBug>(sum); });
}

// dst (rows x cols, row-major, leading dimension ld) = src with its own strides: an operand the
// tensor copies cannot read in place. Consecutive threads on consecutive columns.
template <typename T>
__global__ void __launch_bounds__(256) pack_rows(const T* src, long long rows, long long cols, long long row_stride,
                                                 long long col_stride, T* dst, long long ld) {
  for (long long r = blockIdx.y; r < rows; r += gridDim.y)
    for (long long c = blockIdx.x * 256LL + threadIdx.x; c < cols; c += static_cast<long long>(gridDim.x) * 256)
      dst[r * ld + c] = src[r * row_stride + c * col_stride];
}

}  // namespace kverify::kernels::matmul_relu::wgmma_gemm
#endif
