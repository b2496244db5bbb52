// gelu_tanh's OpSpec: what every suite draws for it, and its bench plan.
#include "core/case.hpp"
#include "ops/common.hpp"
#include "ops/gelu_tanh/gelu_tanh.hpp"

namespace kverify::ops::gelu_tanh {
namespace {

std::vector<std::string> boundary_cases() {
  std::vector<std::string> lines = rowwise_boundary_cases();
  lines.push_back("shape=2x64 values=const:11");   // where an exp-based tanh is NaN
  lines.push_back("shape=6x40 values=special:1");  // NaN -> NaN, +inf -> +inf, -inf -> -0
  return lines;
}

std::vector<ValueRecipe> in_domain_values(DType dtype) {
  std::vector<ValueRecipe> r = common_in_domain_values(dtype);
  add_rowwise_in_domain_values(dtype, r);
  for (double v : {11.0, -11.0, info(dtype).max_finite, -info(dtype).max_finite}) r.push_back(recipe("const", v));
  r.push_back(recipe("special", 1));  // the contract defines NaN and +-inf inputs too
  return r;
}

// Every finite input is in gelu_tanh's domain.
constexpr double kScale[] = {0.5, 2, 1e-3, 30, 1e3, 1e4, 1e-6, 1e-20, 1e-38, 6e4, 1e10, 1e20, 1e30, 3e38};
constexpr double kConst[] = {-1, 1, -0.0, 0.5, 11, -11, 88.7, 1e-40, -1e-45, 65504, 65520, 3.4e38, -3.4e38};
constexpr double kRamp[] = {0.5, -1, 0.01, 100, 1e30};
constexpr double kHeavy[] = {0.5, 2, 1e3, 1e20};
constexpr double kExtreme[] = {0.5, 1e8, 3e8};
constexpr double kDominant[] = {100, 1e4, 1e30};
constexpr RecipeParams kFuzzParams[] = {
    {"normal", kScale},        {"uniform", kScale},       {"negative", kScale},
    {"special", kScale},       {"nearties", kScale},      {"halves", kScale},
    {"int", kFuzzWholeParams}, {"ties", kFuzzTiesParams}, {"subnormal", kFuzzSubnormalExponents},
    {"const", kConst},         {"ramp", kRamp},           {"heavy", kHeavy},
    {"extreme", kExtreme},     {"dominant", kDominant},
};

// +-1e30 and x around 11, where an exp-based tanh breaks.
constexpr std::string_view kReportRecipes[] = {"normal", "extreme", "uniform:12"};

constexpr DType kBenchDtypes[] = {DType::f32, DType::bf16};
constexpr std::string_view kBenchShapes[] = {"16384x16384"};  // 2^28 elements
constexpr std::string_view kBenchQuick[] = {"64x1000"};
constexpr std::string_view kGateRecipes[] = {"uniform:12", "normal:4"};  // around x = 11

// Fractions of the copy ceiling: torch reaches 0.995 in f32 and 0.86 in bf16 (reports/h200/perf.md).
std::optional<BenchGoal> bench_goal(DType dtype, std::span<const std::int64_t>) {
  return BenchGoal{false, dtype == DType::f32 ? 0.97 : 0.95};
}

// 2^31 + 32768 elements; in bf16 byte offset 2^32 is element 2^31.
constexpr std::string_view kHugeCases[] = {"op=gelu_tanh dtype=bf16 shape=32768x65537"};

}  // namespace

constinit const OpSpec spec = {
    .name = "gelu_tanh",
    .summary = "elementwise GELU, tanh approximation",
    .dims = kRowwiseDims,
    .tensors = kRowwiseTensors,
    .shape_form = "RxC",
    .shape_example = "4x1000",
    .reference = [](const Case&, std::span<const TensorView> in) { return one_output(gelu_tanh_reference(in[0])); },
    .tolerance = [](const Case& c, int) { return gelu_tanh_tolerance(c.dtype); },
    .fast_math_tolerance = [](const Case& c, int) { return gelu_tanh_fast_math_tolerance(c.dtype); },
    .eager_baseline = [](const Case& c,
                         std::span<const TensorView> in) { return one_output(gelu_tanh_eager(in[0], c.dtype)); },
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
    .bench_baseline_name = "eager gelu_tanh",
    .huge_cases = kHugeCases,
    .kernelbench_shape = "128x1024",
};

}  // namespace kverify::ops::gelu_tanh
