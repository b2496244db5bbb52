// The mutants' registry entries: each a bug class from the seeds, `mutant` so that variant=auto
// and the production suites never pick them; `kverify check --variant <name>` and the mutation
// self-test (properties/tests/mutants_test.cpp) run the catalogue against them.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"

namespace kverify {
namespace kernels::mutants {
KV_DECLARE_LAUNCHER(softmax_zero_padding)
KV_DECLARE_LAUNCHER(softmax_no_max_subtraction)
KV_DECLARE_LAUNCHER(row_sum_drop_tail)
KV_DECLARE_LAUNCHER(row_sum_skip_last_row)
KV_DECLARE_LAUNCHER(gelu_exp_tanh)
KV_DECLARE_LAUNCHER(gelu_writes_input)
KV_DECLARE_LAUNCHER(softmax_store_only_mask)
KV_DECLARE_LAUNCHER(softmax_unit_stride)
KV_DECLARE_LAUNCHER(softmax_fixed_block)
KV_DECLARE_LAUNCHER(softmax_f16_denominator)
KV_DECLARE_LAUNCHER(softmax_missing_barrier)
KV_DECLARE_LAUNCHER(row_sum_nonzero_padding)
KV_DECLARE_LAUNCHER(gelu_wrong_constant)
KV_DECLARE_LAUNCHER(gelu_erf)
KV_DECLARE_LAUNCHER(matmul_relu_per_k_tile)
KV_DECLARE_LAUNCHER(matmul_unmasked_k_tail)
KV_DECLARE_LAUNCHER(matmul_unmasked_n_store)
KV_DECLARE_LAUNCHER(matmul_a_as_row_major)

const Variant kVariants[] = {
    {.op = "softmax", .name = "mutant_zero_padding", .strategy = "BUG: the max is padded with 0 instead of -inf",
     .mutant = true, KV_LAUNCHERS(softmax_zero_padding)},
    {.op = "softmax", .name = "mutant_no_max_subtraction", .strategy = "BUG: exp(x) / sum exp(x), no max subtracted",
     .mutant = true, KV_LAUNCHERS(softmax_no_max_subtraction)},
    {.op = "row_sum", .name = "mutant_drop_tail", .strategy = "BUG: the last partial tile of 32 columns is dropped",
     .mutant = true, KV_LAUNCHERS(row_sum_drop_tail)},
    {.op = "row_sum", .name = "mutant_skip_last_row", .strategy = "BUG: the last output row is never written",
     .mutant = true, KV_LAUNCHERS(row_sum_skip_last_row)},
    {.op = "gelu_tanh", .name = "mutant_exp_tanh", .strategy = "BUG: tanh as (e^2u-1)/(e^2u+1): NaN from x ~ 10",
     .mutant = true, KV_LAUNCHERS(gelu_exp_tanh)},
    {.op = "gelu_tanh", .name = "mutant_writes_input", .strategy = "BUG: writes zeros into its input",
     .mutant = true, KV_LAUNCHERS(gelu_writes_input)},
    {.op = "softmax", .name = "mutant_store_only_mask", .strategy = "BUG: loads past the row are not masked",
     .mutant = true, KV_LAUNCHERS(softmax_store_only_mask)},
    {.op = "softmax", .name = "mutant_unit_stride", .strategy = "BUG: the input's column stride is taken as 1",
     .mutant = true, KV_LAUNCHERS(softmax_unit_stride)},
    {.op = "softmax", .name = "mutant_fixed_block", .strategy = "BUG: a fixed block that stops at column 1024",
     .mutant = true, KV_LAUNCHERS(softmax_fixed_block)},
    {.op = "softmax", .name = "mutant_f16_denominator", .strategy = "BUG: the denominator accumulates in f16",
     .mutant = true, KV_LAUNCHERS(softmax_f16_denominator)},
    {.op = "softmax", .name = "mutant_missing_barrier",
     .strategy = "BUG: no __syncthreads between the phases of the max reduction", .mutant = true,
     KV_LAUNCHERS(softmax_missing_barrier)},
    {.op = "row_sum", .name = "mutant_nonzero_padding", .strategy = "BUG: lanes past the row add 1, not 0",
     .mutant = true, KV_LAUNCHERS(row_sum_nonzero_padding)},
    {.op = "gelu_tanh", .name = "mutant_wrong_constant", .strategy = "BUG: 0.0447 for 0.044715",
     .mutant = true, KV_LAUNCHERS(gelu_wrong_constant)},
    {.op = "gelu_tanh", .name = "mutant_erf", .strategy = "BUG: the erf GELU instead of the tanh approximation",
     .mutant = true, KV_LAUNCHERS(gelu_erf)},
    {.op = "matmul_relu", .name = "mutant_relu_per_k_tile", .strategy = "BUG: ReLU applied to each K tile's sum",
     .mutant = true, KV_LAUNCHERS(matmul_relu_per_k_tile)},
    {.op = "matmul_relu", .name = "mutant_unmasked_k_tail", .strategy = "BUG: the K tail is read unmasked",
     .mutant = true, KV_LAUNCHERS(matmul_unmasked_k_tail)},
    {.op = "matmul_relu", .name = "mutant_unmasked_n_store", .strategy = "BUG: the N tail is stored unmasked",
     .mutant = true, KV_LAUNCHERS(matmul_unmasked_n_store)},
    {.op = "matmul_relu", .name = "mutant_a_as_row_major", .strategy = "BUG: A read as row-major whatever its strides",
     .mutant = true, KV_LAUNCHERS(matmul_a_as_row_major)},
};
}  // namespace kernels::mutants

std::span<const Variant> mutant_variants() { return kernels::mutants::kVariants; }

}  // namespace kverify
