// matmul_relu/wgmma's mutation neighbourhood: the matmul mutants' bug classes (mutants.cuh)
// planted in the Hopper kernel itself, plus the bugs that only a warp-specialized tensor-copy
// pipeline can have (a persistent loop that stops early, a split left out of the reduction, a
// tensor map's extent). Each launcher runs the production kernel's host path
// (matmul_relu_wgmma_launch.cuh) with one wgmma_gemm::Bug, on a fixed plan (wgmma_mutant_plan.hpp):
// a 128-wide tile, no promotion, B N-major.
// GPU only, built for sm_90a (CUDA_ONLY, CUDA_ARCHITECTURES 90a in this folder's CMakeLists.txt).
#if defined(__CUDACC__)
#include "kernels/matmul_relu/matmul_relu_wgmma_launch.cuh"
#include "kernels/matmul_relu/mutants/wgmma_mutant_plan.hpp"

namespace kverify::kernels::matmul_relu::mutants {
namespace KV_BACKEND {
namespace {

template <wgmma_gemm::Bug kBug>
void wgmma_with(const LaunchRequest& r) {
  using namespace wgmma_gemm;
  using T = __nv_bfloat16;
  constexpr bool kSplitEveryBlock = kBug == Bug::relu_per_split || kBug == Bug::last_split_dropped;
  if (r.dtype != DType::bf16) throw std::invalid_argument("the matmul_relu/wgmma mutants take bf16 storage");
  const WgmmaPlan plan = wgmma_mutant_plan(r, kSplitEveryBlock, kBug == Bug::b_orientation);
  const Prepared prepared = prepare<T>(r, plan, kBug);  // B N-major: packed, or (b_orientation) misread
  launch_gemm<T, 128, 6, true, 0, kBug>(r, prepared);
  finish<T, kBug>(r, prepared.params);
}

}  // namespace

void wgmma_relu_per_split(const LaunchRequest& r) { wgmma_with<wgmma_gemm::Bug::relu_per_split>(r); }
void wgmma_unmasked_n_store(const LaunchRequest& r) { wgmma_with<wgmma_gemm::Bug::unmasked_n_store>(r); }
void wgmma_one_ulp_high(const LaunchRequest& r) { wgmma_with<wgmma_gemm::Bug::one_ulp_high>(r); }
void wgmma_one_unit_per_block(const LaunchRequest& r) { wgmma_with<wgmma_gemm::Bug::one_unit_per_block>(r); }
void wgmma_last_split_dropped(const LaunchRequest& r) { wgmma_with<wgmma_gemm::Bug::last_split_dropped>(r); }
void wgmma_dropped_k_tail(const LaunchRequest& r) { wgmma_with<wgmma_gemm::Bug::dropped_k_tail>(r); }
void wgmma_unmasked_k_tail(const LaunchRequest& r) { wgmma_with<wgmma_gemm::Bug::unmasked_k_tail>(r); }
void wgmma_b_orientation(const LaunchRequest& r) { wgmma_with<wgmma_gemm::Bug::b_orientation>(r); }

}  // namespace KV_BACKEND
}  // namespace kverify::kernels::matmul_relu::mutants
#endif
