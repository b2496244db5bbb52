// The launcher of matmul_relu/wgmma (matmul_relu_wgmma.cuh), built for sm_90a only (wgmma and
// setmaxnreg exist in no other target): kernels/CMakeLists.txt compiles every <op>/*_sm90a.cu so.
// It runs the plan of wgmma_plan.hpp through matmul_relu_wgmma_launch.cuh, choosing the kernel
// instantiation the plan names.
#include "kernels/matmul_relu/matmul_relu_wgmma_launch.cuh"

namespace kverify::kernels::matmul_relu {
namespace wgmma_gemm {
namespace {

// The configurations the plan names (wgmma_plan.hpp), each with as many stages as 200 KiB of
// shared memory hold (A and B per K block: 48, 40, 32, 24 KiB for tiles 256, 192, 128, 64 wide).
template <typename T, bool kBNMajor>
void launch_plan(const LaunchRequest& r, const WgmmaPlan& plan, const Prepared& prepared) {
  if (plan.tile_n == 256 && plan.promote_every == 0) return launch_gemm<T, 256, 4, kBNMajor, 0>(r, prepared);
  if (plan.tile_n == 192 && plan.promote_every == 4) return launch_gemm<T, 192, 5, kBNMajor, 4>(r, prepared);
  if (plan.tile_n == 128 && plan.promote_every == 0) return launch_gemm<T, 128, 6, kBNMajor, 0>(r, prepared);
  if (plan.tile_n == 64 && plan.promote_every == 0) return launch_gemm<T, 64, 8, kBNMajor, 0>(r, prepared);
  throw std::logic_error("matmul_relu/wgmma: no kernel for a tile " + std::to_string(plan.tile_n) +
                         " wide with promotion every " + std::to_string(plan.promote_every) + " K blocks");
}

template <typename T>
void run(const LaunchRequest& r) {
  const WgmmaPlan plan = wgmma_plan(r);
  const Prepared prepared = prepare<T>(r, plan);
  if (plan.b_n_major)
    launch_plan<T, true>(r, plan, prepared);
  else
    launch_plan<T, false>(r, plan, prepared);
  finish<T>(r, prepared.params);
}

}  // namespace
}  // namespace wgmma_gemm
namespace cuda {

void wgmma(const LaunchRequest& r) {
  switch (r.dtype) {
    case DType::f16:
      return wgmma_gemm::run<__half>(r);
    case DType::bf16:
      return wgmma_gemm::run<__nv_bfloat16>(r);
    default:
      throw std::invalid_argument(
          "matmul_relu/wgmma takes f16 or bf16 storage (f32 has no TF32-free tensor-core path)");
  }
}

}  // namespace cuda
}  // namespace kverify::kernels::matmul_relu
