// The plan the matmul_relu/simt mutants run on (simt_mutants.cuh): the production plan's splits,
// on the one kernel instance the mutants have (128-row tiles, element loads); the bugs of the split
// path split K into up to 4 ranges whatever the problem, so that the catalogue's small Cases (K of
// a few tiles) go through it. Plain C++: the registration's workspace function uses it too.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/matmul_relu/simt_plan.hpp"

namespace kverify::kernels::matmul_relu::mutants {

inline SimtPlan simt_mutant_plan(const LaunchRequest& r, bool split_k) {
  SimtPlan p = simt_plan(r);
  p.tile_m = 128;
  p.vector_loads = false;
  if (split_k) set_simt_splits(p, r.shape[0], r.shape[1], r.shape[2], 4);
  return p;
}

// Every simt mutant's workspace: the larger of the two plans'.
inline std::size_t simt_mutant_workspace(const LaunchRequest& r) {
  return std::max(simt_mutant_plan(r, false).workspace_bytes, simt_mutant_plan(r, true).workspace_bytes);
}

}  // namespace kverify::kernels::matmul_relu::mutants
