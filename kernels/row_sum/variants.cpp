// row_sum's registry entries, in dispatch order.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"
#include "kernels/row_sum/launchers.inl"  // split_row_workspace

namespace kverify {
namespace kernels::row_sum {
KV_DECLARE_LAUNCHER(warp_per_row)
KV_DECLARE_LAUNCHER(block_per_row)
KV_DECLARE_LAUNCHER(split_row)
KV_DECLARE_LAUNCHER(rows_vec)
KV_DECLARE_LAUNCHER(split_vec)

namespace {
constexpr std::int64_t kH200Sms = 132;
std::int64_t rows_of(const Case& c) { return c.shape[0]; }
std::int64_t cols_of(const Case& c) { return c.shape[1]; }
}  // namespace

const Variant kVariants[] = {
    // 16-byte vector loads where the layout allows (unit column stride, 16-byte aligned
    // rows), the same kernels one element at a time otherwise; row_sum_vec.cuh.
    {.op = "row_sum",
     .name = "rows_vec",
     .strategy = "rows <= 1024: 1..32 lanes per row (several rows per warp), 16-byte loads, 4 in flight "
                 "per lane, per-vector-lane accumulators, width-G shuffles",
     .max_rows = 0x7fffffffll,
     .max_cols = kRowSumRowsVecMaxColumns,
     .auto_when = [](const Case& c) { return cols_of(c) <= kRowSumRowsVecMaxColumns; },
     KV_LAUNCHERS(rows_vec)},
    {.op = "row_sum",
     .name = "split_vec",
     .strategy = "any width: chunks of >= 2048 elements over ~1056 blocks of 256 threads, 16-byte loads, "
                 "4 in flight per thread; partials combined in a fixed order (no atomics)",
     .workspace_bytes = &split_vec_workspace,
     KV_LAUNCHERS(split_vec)},
    {.op = "row_sum",
     .name = "warp_per_row",
     .strategy = "a warp per row, 8 rows per block, lanes stride the row, butterfly reduction",
     .max_rows = 0x7fffffffll * 8,
     // Narrow rows only: each lane adds cols/32 terms in sequence, which the row_sum policy
     // (ops/row_sum/reference.cpp) bounds for rows up to 1024 (a fuzz session on the H200 found a
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

std::span<const Variant> kernels::row_sum::variants() { return kernels::row_sum::kVariants; }

}  // namespace kverify
