// layernorm's registry entries, in dispatch order.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"

namespace kverify {
namespace kernels::layernorm {
KV_DECLARE_LAUNCHER(warp_per_row)
KV_DECLARE_LAUNCHER(block_per_row)
KV_DECLARE_LAUNCHER(block_vec)

namespace {
// auto: block_vec from 257 columns, warp_per_row up to 256, as rmsnorm (measured on an H100 for
// both: reports/h100/NOTES.md, "layernorm").
std::int64_t cols_of(const Case& c) { return c.shape[1]; }
}  // namespace

const Variant kVariants[] = {
    {.op = "layernorm",
     .name = "block_vec",
     .strategy = "rows over 256 wide: a block per row with the row in registers (1 or 4 16-byte vectors per "
                 "thread, up to 1024 threads, loads issued first; element by element where x, y, w or b is "
                 "not dense and aligned), the mean then the squared deviations from it, x read once; rows "
                 "past 4096 vectors take block_per_row's three passes",
     .max_rows = 0x7fffffff,
     .auto_when = [](const Case& c) { return cols_of(c) > 256; },
     KV_LAUNCHERS(block_vec)},
    {.op = "layernorm",
     .name = "warp_per_row",
     .strategy = "rows <= 256 wide: a warp per row, 8 rows per block, lanes stride the row, a butterfly sum, "
                 "then a butterfly sum of squared deviations from the mean, then each lane writes the columns it "
                 "read",
     .max_rows = 0x7fffffffll * 8,
     .auto_when = [](const Case& c) { return cols_of(c) <= 256; },
     KV_LAUNCHERS(warp_per_row)},
    {.op = "layernorm",
     .name = "block_per_row",
     .strategy = "a block per row (up to 512 threads), strided per-thread sums and a block reduction for the mean, "
                 "again for the squared deviations, then a third pass writing y",
     .max_rows = 0x7fffffff,
     KV_LAUNCHERS(block_per_row)},
};
}  // namespace kernels::layernorm

std::span<const Variant> kernels::layernorm::variants() { return kernels::layernorm::kVariants; }

}  // namespace kverify
