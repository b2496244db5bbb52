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
};
}  // namespace kernels::mutants

std::span<const Variant> mutant_variants() { return kernels::mutants::kVariants; }

}  // namespace kverify
