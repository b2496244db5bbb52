// row_sum's OpSpec: what every suite draws for it, and its bench plan.
#include "core/case.hpp"
#include "ops/common.hpp"
#include "ops/row_sum/row_sum.hpp"

namespace kverify::ops::row_sum {
namespace {

std::vector<std::string> boundary_cases() {
  std::vector<std::string> lines = rowwise_boundary_cases();
  lines.push_back("shape=1x10 values=ramp");  // the seed's [1..10] in tiles: exactly 55
  return lines;
}

std::vector<ValueRecipe> in_domain_values(DType dtype) {
  std::vector<ValueRecipe> r = common_in_domain_values(dtype);
  add_rowwise_in_domain_values(dtype, r);
  return r;
}

// Sums stay far from f32 overflow: an overflowing partial sum whose total is finite depends on the
// summation order, which no contract fixes.
constexpr double kScale[] = {0.5, 2, 1e-3, 30, 1e3, 1e4, 1e-6, 1e-20, 1e-38, 6e4, 1e10, 1e20};
constexpr double kConst[] = {-1, 1, -0.0, 0.1, 3, 1e10, -1e-40, 65504, 65520};
constexpr double kRamp[] = {0.5, -1, 0.01, 1e10};
constexpr double kHeavy[] = {0.5, 2, 1e3};
constexpr double kExtreme[] = {0.5, 1e3};
constexpr double kDominant[] = {100, 1e4, 1e20};
constexpr RecipeParams kFuzzParams[] = {
    {"normal", kScale},        {"uniform", kScale},       {"negative", kScale},
    {"special", kScale},       {"nearties", kScale},      {"halves", kScale},
    {"int", kFuzzWholeParams}, {"ties", kFuzzTiesParams}, {"subnormal", kFuzzSubnormalExponents},
    {"const", kConst},         {"ramp", kRamp},           {"heavy", kHeavy},
    {"extreme", kExtreme},     {"dominant", kDominant},
};

// Cancellation (halves, extreme) and roundings that all go one way (nearties).
constexpr std::string_view kReportRecipes[] = {"normal", "halves", "nearties", "extreme"};

constexpr DType kBenchDtypes[] = {DType::f32, DType::bf16};
constexpr std::string_view kBenchShapes[] = {"1x268435456", "16x16777216", "1024x262144",
                                             "262144x1024", "8388608x32",  "268435x1000"};
constexpr std::string_view kBenchQuick[] = {"2x20000", "64x1000", "300x33"};
constexpr std::string_view kGateRecipes[] = {"int:3", "negative:1"};  // integer rows: bitwise exact

std::optional<BenchGoal> bench_goal(DType, std::span<const std::int64_t>) { return BenchGoal{false, 0.95}; }

constexpr std::string_view kHugeCases[] = {
    "op=row_sum dtype=f32 shape=65535x32769",
    "op=row_sum dtype=bf16 shape=2097153x1024",
};

constexpr TensorSpec kTensors[] = {
    {.name = "x", .dims = {0, 1}, .rank = 2, .meaning = "the input"},
    {.name = "y", .output = true, .dims = {0, kUnitDim}, .rank = 2, .meaning = "each row's sum (R x 1)"},
};

}  // namespace

constinit const OpSpec spec = {
    .name = "row_sum",
    .summary = "sum of each row of an R x C tensor into R x 1",
    .dims = kRowwiseDims,
    .tensors = kTensors,
    .shape_form = "RxC",
    .shape_example = "4x1000",
    .reference = [](const Case& c,
                    std::span<const TensorView> in) { return one_output(row_sum_reference(in[0], c.dtype)); },
    .tolerance = [](const Case& c, int) { return row_sum_tolerance(c.dtype, c.shape[1]); },
    .fast_math_tolerance = [](const Case& c, int) { return row_sum_fast_math_tolerance(c.dtype, c.shape[1]); },
    .eager_baseline = [](const Case& c,
                         std::span<const TensorView> in) { return one_output(row_sum_eager(in[0], c.dtype)); },
    .boundary_cases = &boundary_cases,
    .in_domain_values = &in_domain_values,
    .fuzz_params = kFuzzParams,
    .fuzz_sizes = &rowwise_fuzz_sizes,
    .report_recipes = kReportRecipes,
    .report_shape = &rowwise_report_shape,
    .report_widest_emu = 262144,
    .report_widest_cuda = 262144,
    .bench_dtypes = kBenchDtypes,
    .bench_shapes = kBenchShapes,
    .bench_quick_shapes = kBenchQuick,
    .bench_goal = &bench_goal,
    .bench_gate_recipes = kGateRecipes,
    .bench_baseline_name = "CUB segmented sum",
    .huge_cases = kHugeCases,
    .kernelbench_shape = "128x1024",
};

}  // namespace kverify::ops::row_sum
