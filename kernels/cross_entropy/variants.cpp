// cross_entropy's registry entries, in dispatch order.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"

namespace kverify {
namespace kernels::cross_entropy {
KV_DECLARE_LAUNCHER(warp_per_row)
KV_DECLARE_LAUNCHER(block_online)

const Variant kVariants[] = {
    {.op = "cross_entropy",
     .name = "block_online",
     .strategy = "rows over 256 classes: a block per row (up to 512 threads), an online max and rescaled sum per "
                 "thread over 16-byte vectors (a scalar head up to the row's first 16-byte boundary; strided "
                 "elements where the classes are not dense), 4 vectors loaded before any is added, (max, sum) pairs "
                 "merged by the block; ignored rows unread; then one block adds the losses in a fixed order",
     .max_rows = 0x7fffffff,
     .auto_when = [](const Case& c) { return c.shape[1] > 256; },
     KV_LAUNCHERS(block_online)},
    {.op = "cross_entropy",
     .name = "warp_per_row",
     .strategy = "rows <= 256 classes: a warp per row, 8 rows per block, lanes stride the row with an online max "
                 "and rescaled sum, pairs merged by butterflies; ignored rows unread; then one block adds the losses "
                 "in a fixed order",
     .max_rows = 0x7fffffffll * 8,
     .auto_when = [](const Case& c) { return c.shape[1] <= 256; },
     KV_LAUNCHERS(warp_per_row)},
};
}  // namespace kernels::cross_entropy

std::span<const Variant> kernels::cross_entropy::variants() { return kernels::cross_entropy::kVariants; }

}  // namespace kverify
