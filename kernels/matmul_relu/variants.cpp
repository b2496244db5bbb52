// matmul_relu's registry entries, in dispatch order.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"

namespace kverify {
namespace kernels::matmul_relu {
KV_DECLARE_LAUNCHER(tiled_smem)

const Variant kVariants[] = {
    {.op = "matmul_relu",
     .name = "tiled_smem",
     .strategy = "64x64 block tile, K tile 16 staged in shared memory, 256 threads with 4x4 register "
                 "micro-tiles, f32 fmaf accumulation, ReLU after the full K sum, masked tails",
     KV_LAUNCHERS(tiled_smem)},
};
}  // namespace kernels::matmul_relu

std::span<const Variant> matmul_relu_variants() { return kernels::matmul_relu::kVariants; }

}  // namespace kverify
