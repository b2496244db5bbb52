// matmul_relu's registry entries, in dispatch order.
#include "kernels/registry.hpp"

namespace kverify {
namespace kernels::matmul_relu {
namespace emu {
void tiled_smem(const LaunchRequest&);
}
#if KVERIFY_HAVE_CUDA
namespace cuda {
void tiled_smem(const LaunchRequest&);
}
#define KV_CUDA(f) &cuda::f
#else
#define KV_CUDA(f) nullptr
#endif

const Variant kVariants[] = {
    {.op = "matmul_relu",
     .name = "tiled_smem",
     .strategy = "64x64 block tile, K tile 16 staged in shared memory, 256 threads with 4x4 register "
                 "micro-tiles, f32 fmaf accumulation, ReLU after the full K sum, masked tails",
     .launch_emu = &emu::tiled_smem,
     .launch_cuda = KV_CUDA(tiled_smem)},
};
#undef KV_CUDA
}  // namespace kernels::matmul_relu

std::span<const Variant> matmul_relu_variants() { return kernels::matmul_relu::kVariants; }

}  // namespace kverify
