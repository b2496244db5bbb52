// matmul_relu's registry entries, in dispatch order.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/matmul_relu/simt_plan.hpp"
#include "kernels/matmul_relu/wgmma_plan.hpp"
#include "kernels/registry.hpp"
#if KVERIFY_HAVE_CUDA
#include "runtime/cuda/device.hpp"
#endif

namespace kverify {
namespace kernels::matmul_relu {
KV_DECLARE_LAUNCHER(tiled_smem)
KV_DECLARE_LAUNCHER(simt)
#if KVERIFY_HAVE_CUDA
namespace cuda {
void mma_sync(const LaunchRequest&);  // matmul_relu_mma_cuda.cu: cuda only
void wgmma(const LaunchRequest&);     // matmul_relu_wgmma_sm90a.cu: cuda (sm_90) only
}  // namespace cuda
#endif

// wgmma's tensor copies take coordinates as 32-bit signed integers.
std::string wgmma_not_applicable(const Case& c) {
  constexpr std::int64_t kLimit = 0x7fffffff;
  if (c.shape[0] > kLimit || c.shape[1] > kLimit || c.shape[2] > kLimit)
    return "needs M, N and K below 2^31 (tensor-copy coordinates are 32-bit; variant=tiled_smem takes any size)";
  return {};
}

std::size_t wgmma_workspace(const LaunchRequest& r) { return wgmma_plan(r).workspace_bytes; }
std::size_t simt_workspace(const LaunchRequest& r) { return simt_plan(r).workspace_bytes; }

// mma_sync's layouts: A k-contiguous; B n-contiguous (row-major) or k-contiguous (column-major).
// A dimension of extent 1 has no stride that matters.
std::string mma_sync_not_applicable(const Case& c) {
  const Layout2D a = *c.layout(0).as_2d(), b = *c.layout(1).as_2d();
  std::string why;
  if (!(a.col_stride == 1 || a.cols == 1))
    why = "needs A with unit column stride (row-major, rows may be padded); got a.strides=" +
          std::to_string(a.row_stride) + "," + std::to_string(a.col_stride);
  else if (!(b.col_stride == 1 || b.row_stride == 1 || b.cols == 1 || b.rows == 1))
    why = "needs B with a unit column stride (row-major) or unit row stride (column-major); got b.strides=" +
          std::to_string(b.row_stride) + "," + std::to_string(b.col_stride);
  if (!why.empty()) why += " (variant=tiled_smem or simt take any strides)";
  return why;
}

// The largest K at which auto picks mma_sync (on a GPU other than sm_90, where wgmma cannot run).
// Measured on the H200 (reports/h200/bench.txt, commit 8fb6f52): at K = 8192 with normal values its
// error is 4.6-4.8 units of the policy against the eager composition's 0.7-1.2, over the baseline
// rule's 2x + 2 (the tensor core's f32 accumulation truncates, so its error grows with K instead of
// averaging out); every K <= 4099 passed.
constexpr std::int64_t kMmaSyncAutoMaxK = 4096;

bool device_is_sm90() {
#if KVERIFY_HAVE_CUDA
  return ::kverify::cuda::device_status().compute_capability == 90;
#else
  return false;
#endif
}

const Variant kVariants[] = {
    // auto's choice for f16/bf16 on an sm_90 GPU at every size and layout; never on emu.
    {.op = "matmul_relu",
     .name = "wgmma",
     .strategy = "Hopper: warp-specialized persistent GEMM, a producer warpgroup's tensor copies (TMA, 128-byte "
                 "swizzle) into a 4-8 stage mbarrier ring, two consumer warpgroups of wgmma m64nNk16 (N 256, 128, "
                 "64) with f32 accumulators, promoted every 4 K blocks into a second accumulator (N 192) when a "
                 "tile sums K > 4608, K split for few tiles and a long K, ReLU in registers, masked stores; A "
                 "row-major and B either, 16-byte aligned, in place, other layouts packed into the workspace first",
     .f32 = false,
     .on_emu = false,
     .emu_unsupported_reason = "sm_90a wgmma, tensor copies (TMA), mbarriers and setmaxnreg have no emu model; "
                               "tiled_smem runs the same contract on emu",
     .auto_when = [](const Case&) { return device_is_sm90(); },
     .not_applicable = &wgmma_not_applicable,
     .workspace_bytes = &wgmma_workspace,
#if KVERIFY_HAVE_CUDA
     .launch_emu = nullptr,
     .launch_cuda = &cuda::wgmma},
#else
     .launch_emu = nullptr,
     .launch_cuda = nullptr},
#endif
    // auto's choice for f16/bf16 on a GPU other than sm_90 when the layouts fit and K is in the
    // measured range.
    {.op = "matmul_relu",
     .name = "mma_sync",
     .strategy = "tensor cores: mma.sync m16n8k16 with f32 accumulators, ldmatrix from XOR-swizzled shared "
                 "tiles, 4-6 stage cp.async pipeline (register-staged loads for unaligned rows), 128x256 "
                 "or 64x64 block tile, ReLU in registers, masked M/N/K tails; A row-major, B either",
     .f32 = false,
     .on_emu = false,
     .emu_unsupported_reason = "tensor-core PTX (mma.sync/ldmatrix/cp.async) has no emu model",
     .auto_when = [](const Case& c) { return !device_is_sm90() && c.layout(0).cols() <= kMmaSyncAutoMaxK; },
     .not_applicable = &mma_sync_not_applicable,
#if KVERIFY_HAVE_CUDA
     .launch_emu = nullptr,
     .launch_cuda = &cuda::mma_sync},
#else
     .launch_emu = nullptr,
     .launch_cuda = nullptr},
#endif
    // auto's choice for f32 (and anything mma_sync does not take is left to tiled_smem).
    {.op = "matmul_relu",
     .name = "simt",
     .strategy = "128x128 block tile (64x128 for M <= 64), K tile 8 double-buffered in shared memory, 8x8 "
                 "register tiles, 16-byte operand loads where aligned (any strides otherwise), K split over "
                 "blocks when tiles are too few to fill the GPU (splits added in order by a second kernel), f32 "
                 "fmaf accumulation (no TF32), ReLU after the full K sum, masked tails",
     .auto_when = [](const Case& c) { return c.dtype == DType::f32; },
     .workspace_bytes = &simt_workspace,
     KV_LAUNCHERS(simt)},
    {.op = "matmul_relu",
     .name = "tiled_smem",
     .strategy = "64x64 block tile, K tile 16 staged in shared memory, 256 threads with 4x4 register "
                 "micro-tiles, f32 fmaf accumulation, ReLU after the full K sum, masked tails",
     KV_LAUNCHERS(tiled_smem)},
};
}  // namespace kernels::matmul_relu

std::span<const Variant> kernels::matmul_relu::variants() { return kernels::matmul_relu::kVariants; }

}  // namespace kverify
