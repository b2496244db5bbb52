// matmul_relu/simt's launch of one kernel instance on a plan (simt_plan.hpp): the GEMM, then, when
// K is split, the ordered sum of the splits. Templates in namespace KV_BACKEND (the including file
// defines it: emu or cuda), included by a relative path from launchers.inl and the simt mutants so
// that the emu build compiles the copy with its <<<>>> launches rewritten.
#pragma once

#include "kernels/common/backend_launch.hpp"
#include "kernels/matmul_relu/matmul_relu_args.hpp"
#include "kernels/matmul_relu/matmul_relu_simt.cuh"
#include "kernels/matmul_relu/simt_plan.hpp"

namespace kverify::kernels::matmul_relu::KV_BACKEND {

template <typename T, int kTileM, bool kAKFast, bool kBKFast, int kVec, matmul_simt::Bug kBug = matmul_simt::Bug::none>
void launch_simt(const LaunchRequest& r, const MatmulReluArgs<T>& args, const SimtPlan& plan) {
  float* partials = plan.splits > 1 ? static_cast<float*>(r.workspace) : nullptr;
  const dim3 grid(grid_extent((args.n + SimtPlan::kTileN - 1) / SimtPlan::kTileN, 0x7fffffff),
                  grid_extent((args.m + kTileM - 1) / kTileM, 65535), static_cast<unsigned>(plan.splits));
  constexpr int kThreads = matmul_simt::kThreads<kTileM>;
  const matmul_simt::Split split{partials, plan.k_per_split};
  matmul_relu_simt<T, kTileM, kAKFast, kBKFast, kVec, kBug><<<grid, dim3(kThreads), 0, launch_stream(r)>>>(args, split);
  check_launch("matmul_relu_simt<T>");
  if (!partials) return;
  const SplitPartials sums{partials, args.m, args.n, plan.splits};
  const dim3 sum_grid = split_sum_grid(args.m, args.n);
  matmul_relu_simt_sum_splits<T, kBug><<<sum_grid, dim3(kSplitSumThreads), 0, launch_stream(r)>>>(sums, args);
  check_launch("matmul_relu_simt_sum_splits<T>");
}

}  // namespace kverify::kernels::matmul_relu::KV_BACKEND
