// rmsnorm's registry entries, in dispatch order.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"

namespace kverify {
namespace kernels::rmsnorm {
KV_DECLARE_LAUNCHER(warp_per_row)
KV_DECLARE_LAUNCHER(block_per_row)
KV_DECLARE_LAUNCHER(block_vec)

namespace {
// auto: block_vec from 257 columns (H100: 0.86-1.01 of the copy ceiling at 512-1024 columns, where
// warp_per_row gave 0.60-0.87), warp_per_row up to 256 (0.51-0.92 at 128 columns against
// block_vec's 0.27-0.53: a block per row leaves most of its lanes idle there).
std::int64_t cols_of(const Case& c) { return c.shape[1]; }
}  // namespace

const Variant kVariants[] = {
    {.op = "rmsnorm",
     .name = "block_vec",
     .strategy = "rows over 256 wide: a block per row with the row in registers (1 or 4 16-byte vectors per "
                 "thread, up to 1024 threads, loads issued first; element by element where x, y or w is not "
                 "dense and aligned), x read once; rows past 4096 vectors take block_per_row's two passes",
     .max_rows = 0x7fffffff,
     .auto_when = [](const Case& c) { return cols_of(c) > 256; },
     KV_LAUNCHERS(block_vec)},
    {.op = "rmsnorm",
     .name = "warp_per_row",
     .strategy = "rows <= 256 wide: a warp per row, 8 rows per block, lanes stride the row, a butterfly sum of "
                 "squares, then each lane writes the columns it read",
     .max_rows = 0x7fffffffll * 8,
     .auto_when = [](const Case& c) { return cols_of(c) <= 256; },
     KV_LAUNCHERS(warp_per_row)},
    {.op = "rmsnorm",
     .name = "block_per_row",
     .strategy = "a block per row (up to 512 threads), strided per-thread sums of squares, a block reduction, "
                 "then a second pass writing y",
     .max_rows = 0x7fffffff,
     KV_LAUNCHERS(block_per_row)},
};
}  // namespace kernels::rmsnorm

std::span<const Variant> kernels::rmsnorm::variants() { return kernels::rmsnorm::kVariants; }

}  // namespace kverify
