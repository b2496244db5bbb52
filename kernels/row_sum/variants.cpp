// row_sum's registry entries, in dispatch order.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"
#include "kernels/row_sum/launchers.inl"  // split_row_workspace

namespace kverify {
namespace kernels::row_sum {
KV_DECLARE_LAUNCHER(warp_per_row)
KV_DECLARE_LAUNCHER(block_per_row)
KV_DECLARE_LAUNCHER(split_row)

namespace {
constexpr std::int64_t kH200Sms = 132;
std::int64_t rows_of(const Case& c) { return c.shape[0]; }
std::int64_t cols_of(const Case& c) { return c.shape[1]; }
}  // namespace

const Variant kVariants[] = {
    {.op = "row_sum",
     .name = "warp_per_row",
     .strategy = "a warp per row, 8 rows per block, lanes stride the row, butterfly reduction",
     .max_rows = 0x7fffffffll * 8,
     // Narrow rows only: each lane adds cols/32 terms in sequence, which the row_sum policy
     // (reference/row_sum.cpp) bounds for rows up to 1024 (a fuzz session on the H200 found a
     // 65536-wide row outside it).
     .max_cols = 1024,
     .auto_when = [](const Case& c) { return cols_of(c) <= 1024; },
     KV_LAUNCHERS(warp_per_row)},
    {.op = "row_sum",
     .name = "split_row",
     .strategy = "few wide rows: chunks of a row over many blocks, partials combined in a fixed order",
     .max_rows = 65535,
     .auto_when = [](const Case& c) { return rows_of(c) < 2 * kH200Sms && cols_of(c) >= 16384; },
     .workspace_bytes = &split_row_workspace,
     KV_LAUNCHERS(split_row)},
    {.op = "row_sum",
     .name = "block_per_row",
     .strategy = "a block per row, per-thread strided accumulators, block reduction",
     .max_rows = 0x7fffffff,
     KV_LAUNCHERS(block_per_row)},
};
}  // namespace kernels::row_sum

std::span<const Variant> row_sum_variants() { return kernels::row_sum::kVariants; }

}  // namespace kverify
