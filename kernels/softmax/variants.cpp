// softmax's registry entries, in dispatch order: the register-resident rows_vec (<= 1024 columns),
// cluster_bulk (GPU only: f16/bf16 over 8192 columns, everything over 32768, up to 786432),
// block_regs (<= 32768), then the earlier narrow, on-chip and streaming variants (reachable by
// name; online is auto's choice beyond 786432 and on emu beyond 32768). block_per_row (three
// reads of the row) stays as the simple reference strategy; auto never picks it.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"
#include "kernels/softmax/launchers.inl"  // the width limits

namespace kverify {
namespace kernels::softmax {
KV_DECLARE_LAUNCHER(block_per_row)
KV_DECLARE_LAUNCHER(warp_per_row)
KV_DECLARE_LAUNCHER(block_on_chip)
KV_DECLARE_LAUNCHER(online)
KV_DECLARE_LAUNCHER(rows_vec)
KV_DECLARE_LAUNCHER(block_regs)
KV_DECLARE_LAUNCHER(cluster_bulk)

const Variant kVariants[] = {
    // The register-resident variants: each input element read once, 16-byte vectors
    // where the layout allows (unit column stride, 16-byte aligned rows), any layout otherwise.
    {.op = "softmax",
     .name = "rows_vec",
     .strategy = "rows <= 1024: G = 1..32 lanes per row (several rows per warp), the row in registers, "
                 "16-byte loads all issued first, width-G shuffles",
     .max_rows = 0x7fffffffll,
     .max_cols = kRowsVecMaxColumns,
     KV_LAUNCHERS(rows_vec)},
    {.op = "softmax",
     .name = "cluster_bulk",
     .strategy = "rows <= 786432: a cluster of 1-16 blocks per row, each block's slice brought into shared memory "
                 "by bulk asynchronous copies, one (max, sum) exchange per row through distributed shared memory "
                 "counted on mbarriers; layouts other than unit-stride 16-byte aligned rows run block_regs or online",
     .on_emu = false,
     .emu_unsupported_reason = "sm_90 bulk asynchronous copies, mbarriers and distributed shared memory have no emu "
                               "model; block_regs and online run the same arithmetic on emu",
     .max_rows = 0x7fffffffll,
     .max_cols = kClusterBulkMaxColumns,
     // Measured on the H200 (reports/h200/perf.md): above block_regs' 32768 columns, and for
     // f16/bf16 rows over 8192 (bf16 16384: 0.88 of the copy ceiling against block_regs' 0.78;
     // 4096: 0.82 against 0.91).
     .auto_when =
         [](const Case& c) {
           return c.shape[1] > kBlockRegsMaxColumns || (c.dtype != DType::f32 && c.shape[1] > 8192);
         },
     KV_LAUNCHERS(cluster_bulk)},
    {.op = "softmax",
     .name = "block_regs",
     .strategy = "rows <= 32768: a block per row, up to 32 values per thread in registers, 16-byte loads, "
                 "block reductions",
     .max_rows = 0x7fffffffll,
     .max_cols = kBlockRegsMaxColumns,
     KV_LAUNCHERS(block_regs)},
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

std::span<const Variant> kernels::softmax::variants() { return kernels::softmax::kVariants; }

}  // namespace kverify
