// The matmul_relu launchers, written once: matmul_relu_emu.cpp compiles them for emu and
// matmul_relu_cuda.cu for the GPU, each defining KV_BACKEND (the namespace, emu or cuda) first.
// Included without KV_BACKEND it gives matmul_relu_args only (tests use it).
#include "kernels/common/backend_launch.hpp"
#include "kernels/matmul_relu/matmul_relu_args.hpp"
#include "kernels/matmul_relu/matmul_relu_tiled_smem.cuh"

#if defined(KV_BACKEND)
#include "matmul_relu_simt_launch.cuh"  // by a relative path: the emu build's rewritten copy

namespace kverify::kernels::matmul_relu {
namespace KV_BACKEND {

// 64 x 64 tiles of C, 256 threads each; grid x over N tiles, y over M tiles.
void tiled_smem(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    using namespace matmul_tiled_smem;
    const auto args = matmul_relu_args<T>(r);
    const dim3 grid(grid_extent((args.n + kBN - 1) / kBN, 0x7fffffff), grid_extent((args.m + kBM - 1) / kBM, 65535));
    matmul_relu_tiled_smem<T><<<grid, dim3(kThreads), 0, launch_stream(r)>>>(args);
    check_launch("matmul_relu_tiled_smem<T>");
  });
}

// simt: the plan (simt_plan.hpp) picks the tile height, how each operand is read and the K
// splits; one kernel instance per choice (16-bit storage: 128-row tiles, element loads only).
void simt(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const SimtPlan plan = simt_plan(r);
    const auto args = matmul_relu_args<T>(r);
    const auto by_layout = [&]<int kTileM, int kVec>() {
      if (plan.a_k_fast)
        plan.b_k_fast ? launch_simt<T, kTileM, true, true, kVec>(r, args, plan)
                      : launch_simt<T, kTileM, true, false, kVec>(r, args, plan);
      else
        plan.b_k_fast ? launch_simt<T, kTileM, false, true, kVec>(r, args, plan)
                      : launch_simt<T, kTileM, false, false, kVec>(r, args, plan);
    };
    if constexpr (std::is_same_v<T, float>) {
      if (plan.tile_m == 64)
        plan.vector_loads ? by_layout.template operator()<64, 4>() : by_layout.template operator()<64, 1>();
      else
        plan.vector_loads ? by_layout.template operator()<128, 4>() : by_layout.template operator()<128, 1>();
    } else {
      by_layout.template operator()<128, 1>();
    }
  });
}

}  // namespace KV_BACKEND
}  // namespace kverify::kernels::matmul_relu
#endif
