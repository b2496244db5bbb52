// softmax's registry entries, in dispatch order: narrow rows in registers, rows that fit in
// shared memory, then streaming for anything wider. block_per_row (three reads of the row) stays
// as the simple reference strategy; auto never picks it.
#include "kernels/registry.hpp"
#include "kernels/softmax/launchers.inl"  // the width limits

namespace kverify {
namespace kernels::softmax {
namespace emu {
void block_per_row(const LaunchRequest&);
void warp_per_row(const LaunchRequest&);
void block_on_chip(const LaunchRequest&);
void online(const LaunchRequest&);
}  // namespace emu
#if KVERIFY_HAVE_CUDA
namespace cuda {
void block_per_row(const LaunchRequest&);
void warp_per_row(const LaunchRequest&);
void block_on_chip(const LaunchRequest&);
void online(const LaunchRequest&);
}  // namespace cuda
#define KV_CUDA(f) &cuda::f
#else
#define KV_CUDA(f) nullptr
#endif

const Variant kVariants[] = {
    {.op = "softmax",
     .name = "warp_per_row",
     .strategy = "narrow rows: a warp per row, 8 rows per block, the row in registers",
     .max_rows = 0x7fffffffll * 8,
     .max_cols = kWarpPerRowMaxColumns,
     .launch_emu = &emu::warp_per_row,
     .launch_cuda = KV_CUDA(warp_per_row)},
    {.op = "softmax",
     .name = "block_on_chip",
     .strategy = "a block per row, the row read once into shared memory",
     .max_rows = 0x7fffffff,
     .max_cols = kMaxOnChipColumns,
     .auto_when = [](const Case& c) { return c.shape[1] <= 16384; },
     .launch_emu = &emu::block_on_chip,
     .launch_cuda = KV_CUDA(block_on_chip)},
    {.op = "softmax",
     .name = "online",
     .strategy = "any width: a block per row, one streaming pass of running max and rescaled sum, one write pass",
     .max_rows = 0x7fffffff,
     .launch_emu = &emu::online,
     .launch_cuda = KV_CUDA(online)},
    {.op = "softmax",
     .name = "block_per_row",
     .strategy = "a block per row, strided columns, block reductions of max and sum, three reads of the row",
     .max_rows = 0x7fffffff,
     .auto_when = [](const Case&) { return false; },
     .launch_emu = &emu::block_per_row,
     .launch_cuda = KV_CUDA(block_per_row)},
};
#undef KV_CUDA
}  // namespace kernels::softmax

std::span<const Variant> softmax_variants() { return kernels::softmax::kVariants; }

}  // namespace kverify
