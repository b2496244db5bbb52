// scale's OpSpec.
#include "core/case.hpp"
#include "ops/common.hpp"
#include "ops/scale/scale.hpp"

namespace kverify::ops::scale {
namespace {

// Exact expectations: no bound to grant.
class Exact final : public Tolerance {
 public:
  double bound(const Expected&) const override { return 0; }
  std::string describe() const override { return "scale: exact (2x is exact in every storage dtype)"; }
};

std::vector<ValueRecipe> in_domain_values(DType dtype) {
  std::vector<ValueRecipe> r = common_in_domain_values(dtype);
  add_rowwise_in_domain_values(dtype, r);
  return r;
}

constexpr std::string_view kReportRecipes[] = {"normal", "extreme"};
constexpr DType kBenchDtypes[] = {DType::f32};
constexpr std::string_view kBenchShapes[] = {"16384x16384"};
constexpr std::string_view kBenchQuick[] = {"64x1000"};
constexpr std::string_view kGateRecipes[] = {"uniform:1e30"};

}  // namespace

constinit const OpSpec spec = {
    .name = "scale",
    .summary = "elementwise y = 2 x (a toy op)",
    .shape_form = "RxC",
    .shape_example = "4x1000",
    .shape_rank = 2,
    .tensor_table = {{{"x", false, 0, 1}, {"y", true, 0, 1}}},
    .tensor_count = 2,
    .reference = [](const Case&, std::span<const TensorView> in) { return scale_reference(in[0]); },
    .tolerance = [](const Case&) -> std::unique_ptr<Tolerance> { return std::make_unique<Exact>(); },
    .eager_baseline = [](const Case& c, std::span<const TensorView> in) { return scale_eager(in[0], c.dtype); },
    .rows_sum_to_one = false,
    .boundary_cases = &rowwise_boundary_cases,
    .in_domain_values = &in_domain_values,
    .fuzz_params = {},
    .fuzz_excluded_recipes = {},
    .report_recipes = kReportRecipes,
    .report_shape = &rowwise_report_shape,
    .report_widest_emu = 4097,
    .report_widest_cuda = 262144,
    .bench_dtypes = kBenchDtypes,
    .bench_shapes = kBenchShapes,
    .bench_quick_shapes = kBenchQuick,
    .bench_goal = nullptr,
    .bench_gate_recipes = kGateRecipes,
    .bench_flops = nullptr,
    .bench_baseline_name = "eager scale",
    .huge_cases = {},
    .kernelbench_shape = "128x1024",
};

}  // namespace kverify::ops::scale
