// How matmul_relu/wgmma runs one problem: which operands its tensor copies read in place and which
// are first packed into the workspace, the tile width, how often the tensor core's partial sums
// are promoted into a separate f32 accumulator, and how many K ranges (splits) a tile is cut into.
// Plain C++ (no CUDA): the registry sizes the workspace from it, and the launcher
// (matmul_relu_wgmma_sm90a.cu) runs it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "kernels/launch_request.hpp"
#include "kernels/plan_overrides.hpp"

namespace kverify::kernels::matmul_relu {

struct WgmmaPlan {
  // Tile: 128 rows of C (two consumer warpgroups of 64) by `tile_n` columns (256, 128 or 64; 192
  // when promoting), K blocks of 64.
  static constexpr int kTileM = 128, kBlockK = 64;
  static constexpr std::int64_t k_blocks(std::int64_t K) { return (K + kBlockK - 1) / kBlockK; }
  // The leading dimension of a packed operand of rows `n` elements long: 16-byte multiples.
  static constexpr std::int64_t packed_ld(std::int64_t n) { return (n + 7) / 8 * 8; }
  int tile_n = 256;
  // The tensor core adds each k16 step's products into its f32 accumulator with truncation, so
  // its error grows with the K a unit sums (measured on the H200: reports/h200/perf.md). Above
  // kWgmmaPromoteAboveK, every `promote_every` K blocks the warpgroup's partial sum is added,
  // rounded to nearest, into a second register accumulator (0: never). It doubles the
  // accumulator registers: a promoting tile is 192 wide (two 96-register accumulators).
  int promote_every = 0;
  int splits = 1;  // K ranges per tile, summed in order by a second kernel
  int k_blocks_per_split = 0;
  // The tensor copies read A K-major (unit column stride) and B either N-major (row-major) or
  // K-major (column-major), with 16-byte aligned starts and leading dimensions that are multiples
  // of 16 bytes; an operand that is not is first packed (row-major, leading dimension rounded up
  // to 8 elements) into the workspace.
  bool pack_a = false, pack_b = false;
  bool b_n_major = true;
  std::int64_t lda = 0, ldb = 0;  // leading dimensions (elements) of what the tensor copies read
  std::size_t pack_a_offset = 0, pack_b_offset = 0, partials_offset = 0, workspace_bytes = 0;
};

// The units of work a persistent grid of the H200's 132 SMs is sized for. (Another device gets the
// same plan; only its speed differs.)
inline constexpr std::int64_t kWgmmaTargetUnits = 132;
// The K a unit may sum without promotion: on the H200 the unpromoted error with normal values was
// 1.19 units of the policy at K = 4096 and 2.51 at 8192 (the baseline rule allows about 3; the
// 8192^3 bench gate failed without promotion), growing linearly; 4608 keeps it near 1.4.
inline constexpr std::int64_t kWgmmaPromoteAboveK = 4608;
// A split sums at least this many K blocks (measured: splitting K = 1000 in two was slower than
// leaving SMs idle).
inline constexpr std::int64_t kWgmmaMinSplitBlocks = 32;

// K blocks per split for `splits` ranges of K (at most one per block, none empty).
inline void set_splits(WgmmaPlan& p, std::int64_t K, std::int64_t splits) {
  const std::int64_t k_blocks = WgmmaPlan::k_blocks(K);
  splits = std::clamp<std::int64_t>(splits, 1, k_blocks);
  p.k_blocks_per_split = static_cast<int>((k_blocks + splits - 1) / splits);
  p.splits = static_cast<int>((k_blocks + p.k_blocks_per_split - 1) / p.k_blocks_per_split);
}

// The workspace: the packed operands, then the splits' partial sums.
inline void place_workspace(WgmmaPlan& p, std::int64_t M, std::int64_t N, std::int64_t K) {
  constexpr std::size_t kElement = 2;
  const auto align256 = [](std::size_t n) { return (n + 255) / 256 * 256; };
  std::size_t bytes = 0;
  if (p.pack_a) {
    p.pack_a_offset = bytes;
    bytes = align256(bytes + static_cast<std::size_t>(M * p.lda) * kElement);
  }
  if (p.pack_b) {
    p.pack_b_offset = bytes;
    bytes = align256(bytes + static_cast<std::size_t>(K * p.ldb) * kElement);
  }
  if (p.splits > 1) {
    p.partials_offset = bytes;
    bytes = align256(bytes + static_cast<std::size_t>(p.splits) * static_cast<std::size_t>(M * N) * sizeof(float));
  }
  p.workspace_bytes = bytes;
}

inline WgmmaPlan wgmma_plan(const LaunchRequest& r) {
  const std::int64_t M = r.shape[0], N = r.shape[1], K = r.shape[2];
  const Layout2D& a = r.tensors[0].layout;
  const Layout2D& b = r.tensors[1].layout;
  constexpr std::int64_t kElement = 2;  // f16 / bf16
  const auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  // The stride between the rows of a box: a multiple of 16 bytes, rows not overlapping.
  const auto ld_ok = [&](std::int64_t rows, std::int64_t ld, std::int64_t row_length) {
    return rows == 1 || ((ld * kElement) % 16 == 0 && ld >= row_length);
  };

  WgmmaPlan p;
  p.pack_a = !(aligned16(r.tensors[0].data) && (a.col_stride == 1 || K == 1) && ld_ok(M, a.row_stride, K));
  p.lda = p.pack_a ? WgmmaPlan::packed_ld(K) : (M == 1 ? WgmmaPlan::packed_ld(K) : a.row_stride);
  const bool b_n_ok = (b.col_stride == 1 || N == 1) && ld_ok(K, b.row_stride, N);
  const bool b_k_ok = (b.row_stride == 1 || K == 1) && ld_ok(N, b.col_stride, K);
  p.pack_b = !(aligned16(r.tensors[1].data) && (b_n_ok || b_k_ok));
  p.b_n_major = p.pack_b || b_n_ok;
  p.ldb = p.pack_b      ? WgmmaPlan::packed_ld(N)
          : p.b_n_major ? (K == 1 ? WgmmaPlan::packed_ld(N) : b.row_stride)
                        : (N == 1 ? WgmmaPlan::packed_ld(K) : b.col_stride);

  // The tile and the splits, from the sweep on the H200 (reports/h200/perf.md, Version 6): the
  // widest tile while there are tiles for most SMs; below that, a long K is split over 256-wide
  // tiles (each split summing at least kWgmmaMinSplitBlocks K blocks: the partial sums' round
  // trip and the second kernel cost more than idle SMs on a short K), and a short K takes the
  // widest tile that still gives a third of the SMs a tile.
  const std::int64_t k_blocks = WgmmaPlan::k_blocks(K);
  const auto tiles = [&](std::int64_t tn) {
    return ((M + WgmmaPlan::kTileM - 1) / WgmmaPlan::kTileM) * ((N + tn - 1) / tn);
  };
  std::int64_t splits = 1;
  if (tiles(256) >= kWgmmaTargetUnits * 3 / 4) {
    p.tile_n = 256;
  } else if (k_blocks >= 2 * kWgmmaMinSplitBlocks) {
    p.tile_n = 256;
    splits = std::clamp<std::int64_t>(kWgmmaTargetUnits / tiles(256), 1, k_blocks / kWgmmaMinSplitBlocks);
  } else {
    p.tile_n = tiles(128) >= kWgmmaTargetUnits / 3 ? 128 : 64;
  }
  // Development hook for the plan sweep (kernels/plan_overrides.hpp), one of the kernels the
  // launcher has (256, 128 or 64: no promotion; 192: promotion).
  if (const auto forced = wgmma_plan_override()) {
    p.tile_n = forced->tile;
    splits = forced->splits;
  }
  set_splits(p, K, splits);
  // A unit that sums more K than kWgmmaPromoteAboveK promotes, which takes the 192-wide kernel
  // (two accumulators of 96 registers).
  if (p.tile_n == 192 || static_cast<std::int64_t>(p.k_blocks_per_split) * WgmmaPlan::kBlockK > kWgmmaPromoteAboveK) {
    p.tile_n = 192;
    p.promote_every = 4;
  }
  place_workspace(p, M, N, K);
  return p;
}

}  // namespace kverify::kernels::matmul_relu
