// softmax's registry entries, in dispatch order.
#include "kernels/registry.hpp"

namespace kverify {
namespace kernels::softmax {
namespace emu {
void block_per_row(const LaunchRequest&);
}
#if KVERIFY_HAVE_CUDA
namespace cuda {
void block_per_row(const LaunchRequest&);
}
#define KV_CUDA(f) &cuda::f
#else
#define KV_CUDA(f) nullptr
#endif

const Variant kVariants[] = {
    {.op = "softmax",
     .name = "block_per_row",
     .strategy = "one block per row, strided columns, block reductions of max (-inf padding) and sum",
     .max_rows = 0x7fffffff,
     .launch_emu = &emu::block_per_row,
     .launch_cuda = KV_CUDA(block_per_row)},
};
#undef KV_CUDA
}  // namespace kernels::softmax

std::span<const Variant> softmax_variants() { return kernels::softmax::kVariants; }

}  // namespace kverify
