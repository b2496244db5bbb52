// softmax's OpSpec: what every suite draws for it, and its bench plan.
#include "core/case.hpp"
#include "ops/common.hpp"
#include "ops/softmax/softmax.hpp"

namespace kverify::ops::softmax {
namespace {

std::vector<std::string> boundary_cases() {
  std::vector<std::string> lines = rowwise_boundary_cases();
  lines.push_back("shape=3x64 values=const:-200");  // exp(x - 0) would underflow: catches 0 padding
  lines.push_back("shape=8x40 values=special");     // the out-of-domain rules
  return lines;
}

std::vector<ValueRecipe> in_domain_values(DType dtype) {
  std::vector<ValueRecipe> r = common_in_domain_values(dtype);
  add_rowwise_in_domain_values(dtype, r);
  r.push_back(recipe("dominant", 30));
  r.push_back(recipe("dominant", 1e4));
  return r;
}

// Within the contract's domain |x| <= 1e30.
constexpr double kScale[] = {0.5, 2, 1e-3, 30, 1e3, 1e4, 1e-6, 1e-20, 1e-38, 6e4, 1e10, 1e20, 1e29};
constexpr double kConst[] = {-1, 1, -0.0, 0.1, -200, 88.7, 1e29, -1e29, 1e-40, 65504, 65520, -65520};
constexpr double kRamp[] = {0.5, -1, 0.01, 100, 1e20};
constexpr double kHeavy[] = {0.5, 2, 1e3, 1e20};
constexpr double kExtreme[] = {0.5, 1e-10};
constexpr double kDominant[] = {100, 88, 1e4, -30, 1e29};
constexpr RecipeParams kFuzzParams[] = {
    {"normal", kScale},        {"uniform", kScale},       {"negative", kScale},
    {"special", kScale},       {"nearties", kScale},      {"halves", kScale},
    {"int", kFuzzWholeParams}, {"ties", kFuzzTiesParams}, {"subnormal", kFuzzSubnormalExponents},
    {"const", kConst},         {"ramp", kRamp},           {"heavy", kHeavy},
    {"extreme", kExtreme},     {"dominant", kDominant},
};

// Large |x - max|, mixed +-1e30, a dominant logit, values a few ulps apart.
constexpr std::string_view kReportRecipes[] = {"normal", "extreme", "normal:1000", "dominant", "nearties"};

constexpr DType kBenchDtypes[] = {DType::f32, DType::bf16};
constexpr std::string_view kBenchShapes[] = {"8388608x32",  "2097152x128", "262144x1024", "65536x4096",
                                             "16384x16384", "4096x65536",  "1024x262144"};
constexpr std::string_view kBenchQuick[] = {"64x32", "16x1000", "4x5000"};
// const:-200: exp(x - 0) underflows under a 0-padded max.
constexpr std::string_view kGateRecipes[] = {"const:-200", "uniform:30", "negative:2"};

// Fractions of the copy ceiling at every width: the best published anchors reach 0.98-1.00 at
// narrow widths but 0.49-0.67 at 65536 and 262144, and a cluster softmax sustains ~0.90 of an
// H100's bandwidth up to 262144 (reports/h200/perf.md).
std::optional<BenchGoal> bench_goal(DType dtype, std::span<const std::int64_t>) {
  return BenchGoal{false, dtype == DType::f32 ? 0.95 : 0.92};
}

constexpr std::string_view kHugeCases[] = {
    "op=softmax dtype=f32 shape=65536x32769",    // 2^31 + 65536 elements, 8 GiB per tensor: the wide-row variants
    "op=softmax dtype=bf16 shape=2097153x1024",  // 2^31 + 1024 elements in narrow rows: 2^21 + 1 rows
};

constexpr TensorSpec kTensors[] = {
    {.name = "x", .dims = {0, 1}, .rank = 2, .meaning = "the logits"},
    {.name = "y", .output = true, .dims = {0, 1}, .rank = 2, .rows_sum_to_one = true, .meaning = "the probabilities"},
};

}  // namespace

constinit const OpSpec spec = {
    .name = "softmax",
    .summary = "row-wise softmax of an R x C tensor",
    .dims = kRowwiseDims,
    .tensors = kTensors,
    .shape_form = "RxC",
    .shape_example = "4x1000",
    .reference = [](const Case&, std::span<const TensorView> in) { return one_output(softmax_reference(in[0])); },
    .tolerance = [](const Case& c, int) { return softmax_tolerance(c.dtype, c.shape[1]); },
    .fast_math_tolerance = [](const Case& c, int) { return softmax_fast_math_tolerance(c.dtype, c.shape[1]); },
    .eager_baseline = [](const Case& c,
                         std::span<const TensorView> in) { return one_output(softmax_eager(in[0], c.dtype)); },
    .boundary_cases = &boundary_cases,
    .in_domain_values = &in_domain_values,
    .fuzz_params = kFuzzParams,
    .fuzz_sizes = &rowwise_fuzz_sizes,
    .report_recipes = kReportRecipes,
    .report_shape = &rowwise_report_shape,
    .report_widest_emu = 262144,  // the contract's widest row
    .report_widest_cuda = 262144,
    .bench_dtypes = kBenchDtypes,
    .bench_shapes = kBenchShapes,
    .bench_quick_shapes = kBenchQuick,
    .bench_goal = &bench_goal,
    .bench_gate_recipes = kGateRecipes,
    .bench_baseline_name = "eager softmax",
    .huge_cases = kHugeCases,
    .kernelbench_shape = "128x1024",
};

}  // namespace kverify::ops::softmax
