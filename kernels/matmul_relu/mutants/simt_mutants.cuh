// matmul_relu/simt's mutation neighbourhood: the matmul mutants' bug classes (mutants.cuh) planted
// in the production SIMT kernel, one matmul_simt::Bug each, plus the bugs of its K splits (ReLU on
// each split's partial sum, a split left out of the sum). Each launcher runs the production launch
// (matmul_relu_simt_launch.cuh) of one kernel instance, f32 with 128-row tiles and element loads,
// on simt_mutant_plan.hpp's plan. Runs on emu and on the GPU.
#include <stdexcept>

#include "../matmul_relu_simt_launch.cuh"  // by a relative path: the emu build's rewritten copy
#include "kernels/matmul_relu/mutants/simt_mutant_plan.hpp"

namespace kverify::kernels::matmul_relu::mutants {
namespace KV_BACKEND {
namespace {

template <matmul_simt::Bug kBug, bool kAAsRowMajor = false>
void simt_with(const LaunchRequest& r) {
  using matmul_simt::Bug;
  if (r.dtype != DType::f32) throw std::invalid_argument("the matmul_relu/simt mutants take f32 storage");
  const SimtPlan plan = simt_mutant_plan(r, kBug == Bug::relu_per_split || kBug == Bug::last_split_dropped);
  auto args = matmul_relu_args<float>(r);
  if constexpr (kAAsRowMajor) {  // BUG: A's strides taken as row-major whatever they are
    args.a_row_stride = args.k;
    args.a_col_stride = 1;
  }
  ::kverify::kernels::matmul_relu::KV_BACKEND::launch_simt<float, 128, true, false, 1, kBug>(r, args, plan);
}

}  // namespace

void simt_relu_per_split(const LaunchRequest& r) { simt_with<matmul_simt::Bug::relu_per_split>(r); }
void simt_last_split_dropped(const LaunchRequest& r) { simt_with<matmul_simt::Bug::last_split_dropped>(r); }
void simt_dropped_k_tail(const LaunchRequest& r) { simt_with<matmul_simt::Bug::dropped_k_tail>(r); }
void simt_unmasked_k_tail(const LaunchRequest& r) { simt_with<matmul_simt::Bug::unmasked_k_tail>(r); }
void simt_unmasked_n_store(const LaunchRequest& r) { simt_with<matmul_simt::Bug::unmasked_n_store>(r); }
void simt_one_ulp_high(const LaunchRequest& r) { simt_with<matmul_simt::Bug::one_ulp_high>(r); }
void simt_a_as_row_major(const LaunchRequest& r) { simt_with<matmul_simt::Bug::none, true>(r); }

}  // namespace KV_BACKEND
}  // namespace kverify::kernels::matmul_relu::mutants
