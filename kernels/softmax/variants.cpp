// softmax's registry entries, in dispatch order: narrow rows in registers, rows that fit in
// shared memory, then streaming for anything wider. block_per_row (three reads of the row) stays
// as the simple reference strategy; auto never picks it.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"
#include "kernels/softmax/launchers.inl"  // the width limits

namespace kverify {
namespace kernels::softmax {
KV_DECLARE_LAUNCHER(block_per_row)
KV_DECLARE_LAUNCHER(warp_per_row)
KV_DECLARE_LAUNCHER(block_on_chip)
KV_DECLARE_LAUNCHER(online)

const Variant kVariants[] = {
    {.op = "softmax",
     .name = "warp_per_row",
     .strategy = "narrow rows: a warp per row, 8 rows per block, the row in registers",
     .max_rows = 0x7fffffffll * 8,
     .max_cols = kWarpPerRowMaxColumns,
     KV_LAUNCHERS(warp_per_row)},
    {.op = "softmax",
     .name = "block_on_chip",
     .strategy = "a block per row, the row read once into shared memory",
     .max_rows = 0x7fffffff,
     .max_cols = kMaxOnChipColumns,
     .auto_when = [](const Case& c) { return c.shape[1] <= 16384; },
     KV_LAUNCHERS(block_on_chip)},
    {.op = "softmax",
     .name = "online",
     .strategy = "any width: a block per row, one streaming pass of running max and rescaled sum, one write pass",
     .max_rows = 0x7fffffff,
     KV_LAUNCHERS(online)},
    {.op = "softmax",
     .name = "block_per_row",
     .strategy = "a block per row, strided columns, block reductions of max and sum, three reads of the row",
     .max_rows = 0x7fffffff,
     .auto_when = [](const Case&) { return false; },
     KV_LAUNCHERS(block_per_row)},
};
}  // namespace kernels::softmax

std::span<const Variant> softmax_variants() { return kernels::softmax::kVariants; }

}  // namespace kverify
