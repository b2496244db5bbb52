// How matmul_relu/simt runs one problem: the block tile's height, how each operand's tiles are
// read (which dimension is contiguous, 16-byte vectors or single elements), and how many K ranges
// (splits) each tile is cut into. Plain C++ (no CUDA): the registry sizes the workspace from it
// and the launcher (launchers.inl) runs it. The plan depends on the problem only, never on the
// device, so emu and the GPU add in the same order and an emu replay of a GPU Case gets its bits.
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

struct SimtPlan {
  static constexpr int kTileN = 128, kBlockK = 8;
  // 128 rows (256 threads) or 64 (128 threads: a problem of few rows wastes less of each tile).
  int tile_m = 128;
  // Which dimension consecutive threads walk when loading a tile: k where the operand's k stride is
  // 1 (row-major A, column-major B), its rows (A) or columns (B) otherwise.
  bool a_k_fast = true, b_k_fast = false;
  // 16-byte loads of four f32: both operands have a unit stride along the walked dimension, the
  // other stride a multiple of four elements and 16-byte aligned starts.
  bool vector_loads = false;
  // K ranges per tile, each summed by its own block; a second kernel adds them in split order.
  int splits = 1;
  std::int64_t k_per_split = 0;  // a multiple of kBlockK
  std::size_t workspace_bytes = 0;
};

// The blocks that fill the H200 once (132 SMs, two 256-thread blocks each at 128 registers).
inline constexpr std::int64_t kSimtOneWave = 264;
// A split sums at least this much K (the partial sums' round trip and the second kernel cost
// more than idle SMs below it).
inline constexpr std::int64_t kSimtMinSplitK = 128;

// Cuts K into about `splits` ranges of whole K tiles (at most one per tile and 65535, gridDim.z's
// limit; none empty) and sizes the workspace for their partial sums.
inline void set_simt_splits(SimtPlan& p, std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t splits) {
  const std::int64_t k_blocks = (K + SimtPlan::kBlockK - 1) / SimtPlan::kBlockK;
  splits = std::clamp<std::int64_t>(splits, 1, std::min<std::int64_t>(k_blocks, 65535));
  p.k_per_split = (k_blocks + splits - 1) / splits * SimtPlan::kBlockK;
  p.splits = static_cast<int>((K + p.k_per_split - 1) / p.k_per_split);
  p.workspace_bytes =
      p.splits > 1 ? static_cast<std::size_t>(p.splits) * static_cast<std::size_t>(M * N) * sizeof(float) : 0;
}

inline SimtPlan simt_plan(const LaunchRequest& r) {
  const std::int64_t M = r.shape[0], N = r.shape[1], K = r.shape[2];
  const Layout2D& a = r.tensors[0].layout;
  const Layout2D& b = r.tensors[1].layout;
  SimtPlan p;
  p.a_k_fast = a.col_stride == 1 && a.row_stride != 1;
  p.b_k_fast = b.row_stride == 1 && b.col_stride != 1;
  const auto aligned16 = [](const void* at) { return reinterpret_cast<std::uintptr_t>(at) % 16 == 0; };
  // Unit stride along the walked dimension and every vector start aligned; an extent of 1 makes
  // the other stride irrelevant.
  const auto vectors_ok = [](std::int64_t fast_stride, std::int64_t other_stride, std::int64_t other_extent) {
    return fast_stride == 1 && (other_extent == 1 || other_stride % 4 == 0);
  };
  p.vector_loads =
      r.dtype == DType::f32 && aligned16(r.tensors[0].data) && aligned16(r.tensors[1].data) &&
      (p.a_k_fast ? vectors_ok(a.col_stride, a.row_stride, M) : vectors_ok(a.row_stride, a.col_stride, K)) &&
      (p.b_k_fast ? vectors_ok(b.row_stride, b.col_stride, N) : vectors_ok(b.col_stride, b.row_stride, K));

  // 64-row tiles only for f32 (the 16-bit instances, never auto's choice, are 128 rows only).
  const bool f32 = r.dtype == DType::f32;
  p.tile_m = f32 && M <= 64 ? 64 : 128;
  const std::int64_t one_wave = kSimtOneWave * (128 / p.tile_m);
  const std::int64_t tiles = ((M + p.tile_m - 1) / p.tile_m) * ((N + SimtPlan::kTileN - 1) / SimtPlan::kTileN);
  std::int64_t splits = 1;
  // Fewer tiles than half a wave: split K so that the blocks fill about one wave.
  if (2 * tiles <= one_wave)
    splits = std::clamp<std::int64_t>(one_wave / tiles, 1, std::max<std::int64_t>(1, K / kSimtMinSplitK));
  // Development hook for the plan sweep (kernels/plan_overrides.hpp).
  if (const auto forced = simt_plan_override()) {
    if (forced->tile == 64 && !f32)
      throw std::invalid_argument(std::string("KVERIFY_SIMT_PLAN='") + std::getenv("KVERIFY_SIMT_PLAN") +
                                  "': this Case is " + std::string(name(r.dtype)) +
                                  " (64: f32 only); accepted here: tile_m 128");
    p.tile_m = forced->tile;
    splits = forced->splits;
  }
  set_simt_splits(p, M, N, K, splits);
  return p;
}

}  // namespace kverify::kernels::matmul_relu
