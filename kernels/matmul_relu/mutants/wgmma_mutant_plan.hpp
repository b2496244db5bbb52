// The plan the wgmma mutants run (wgmma_mutants.cuh) and the workspace it needs: the production
// plan (wgmma_plan.hpp) on a 128-wide tile without promotion, a column-major B packed (one kernel,
// N-major B, per mutant) unless the bug is in reading it, K split at every block for the bugs that
// live in the split reduction. Plain C++: the registry sizes the workspace from it.
#pragma once

#include <cstddef>

#include "kernels/launch_request.hpp"
#include "kernels/matmul_relu/wgmma_plan.hpp"

namespace kverify::kernels::matmul_relu::mutants {

inline WgmmaPlan wgmma_mutant_plan(const LaunchRequest& r, bool split_every_block, bool keep_column_major_b) {
  WgmmaPlan p = wgmma_plan(r);
  p.tile_n = 128;
  p.promote_every = 0;
  if (!p.b_n_major && !keep_column_major_b) {
    p.pack_b = true;
    p.b_n_major = true;
    p.ldb = WgmmaPlan::packed_ld(r.shape[1]);
  }
  if (split_every_block) set_splits(p, r.shape[2], r.shape[2]);
  place_workspace(p, r.shape[0], r.shape[1], r.shape[2]);
  return p;
}

// Every wgmma mutant's workspace: the largest of its plans, the one that splits K at every block
// (no plan splits more) and packs a column-major B.
inline std::size_t wgmma_mutant_workspace(const LaunchRequest& r) {
  return wgmma_mutant_plan(r, true, false).workspace_bytes;
}

}  // namespace kverify::kernels::matmul_relu::mutants
