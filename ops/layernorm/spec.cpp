// layernorm's OpSpec: what every suite draws for it, and its bench plan.
#include "core/case.hpp"
#include "ops/common.hpp"
#include "ops/layernorm/layernorm.hpp"

namespace kverify::ops::layernorm {
namespace {

enum Tensor { kX, kWeight, kBias, kY, kMean, kRstd };

constexpr DimSpec kDims[] = {
    {.name = "rows", .meaning = "rows (independent: tokens)", .draw = DimDraw::count},
    {.name = "cols", .meaning = "columns: the normalised width", .max = 1 << 24, .draw = DimDraw::tail},
};
constexpr TensorSpec kTensors[] = {
    {.name = "x", .dims = {0, 1}, .rank = 2, .meaning = "the input"},
    {.name = "w", .dims = {1}, .rank = 1, .values = TensorValues::near_one, .meaning = "the weight, near 1"},
    // Near 1 with a spread of 1: both signs, and of the normalised term's size, so that an error in
    // the normalised term is not lost in the rounding of a large b.
    {.name = "b",
     .dims = {1},
     .rank = 1,
     .values = TensorValues::near_one,
     .values_param = 1,
     .meaning = "the bias, 1 + normal"},
    {.name = "y", .output = true, .dims = {0, 1}, .rank = 2, .meaning = "the normalised rows, times w, plus b"},
    {.name = "mean", .output = true, .element = ElementType::f32, .dims = {0}, .rank = 1, .meaning = "each row's mean"},
    {.name = "rstd",
     .output = true,
     .element = ElementType::f32,
     .dims = {0},
     .rank = 1,
     .meaning = "1 / sqrt(var + eps) per row, var the biased variance (what a backward pass keeps)"},
};
// The domain's edges and torch.nn.LayerNorm's default (1e-5).
constexpr double kEpsDraws[] = {1e-12, 1e-6, 0.5, 1};
constexpr ParamSpec kParams[] = {
    {.name = "eps",
     .kind = ParamKind::real,
     .default_value = 1e-5,
     .min = 1e-12,
     .max = 1,
     .meaning = "added to the variance before the square root",
     .draws = kEpsDraws},
};

std::vector<std::string> boundary_cases() {
  std::vector<std::string> lines = rowwise_boundary_cases();
  lines.push_back("shape=7x300 w.strides=2 w.offset=1 b.strides=3 mean.strides=2 rstd.offset=2 values=uniform:4");
  lines.push_back("shape=5x100 eps=0.5 values=normal:1e-3");  // eps dominates the variance
  lines.push_back("shape=3x64 values=zeros eps=1e-12");       // rstd 1e6, y = b
  // Large means over small spreads, where E[x^2] - E[x]^2 cancels: values near 1e4 one f32 ulp apart
  // and a constant row at the contract's largest magnitude (variance 0).
  lines.push_back("shape=4x1000 values=nearties:1e4");
  lines.push_back("dtype=f32 shape=3x1000 values=const:1e15");
  return lines;
}

// The rank-2 recipes within |x| <= 1e15 (none of extreme, heavy, const:+-1e30 or special).
std::vector<ValueRecipe> in_domain_values(DType dtype) {
  std::vector<ValueRecipe> r = common_in_domain_values(dtype);
  for (const ValueRecipe& v : {recipe("normal", 1e3), recipe("const", 7), recipe("const", -300), recipe("uniform", 30),
                               recipe("dominant", 1e4), recipe("nearties", 1e3)})
    r.push_back(v);
  if (dtype != DType::f16) r.push_back(recipe("const", 1e12));  // f16 stops at 65504
  return r;
}

constexpr double kScale[] = {0.5, 2, 1e-3, 30, 1e3, 1e4, 1e-6, 1e-20, 1e-38, 6e4, 1e10, 1e15};
constexpr double kConst[] = {-1, 1, -0.0, 0.1, 3, 1e10, -1e-40, 65504, 1e15};
constexpr double kRamp[] = {0.5, -1, 0.01, 1e10};
constexpr double kDominant[] = {100, 1e4, 1e15};
constexpr RecipeParams kFuzzParams[] = {
    {"normal", kScale}, {"uniform", kScale},       {"negative", kScale},      {"nearties", kScale},
    {"halves", kScale}, {"int", kFuzzWholeParams}, {"ties", kFuzzTiesParams}, {"subnormal", kFuzzSubnormalExponents},
    {"const", kConst},  {"ramp", kRamp},           {"dominant", kDominant},
};
// Past the contract's |x| <= 1e15 (extreme, heavy), or non-finite (special).
constexpr std::string_view kFuzzExcluded[] = {"extreme", "heavy", "special"};

constexpr std::string_view kReportRecipes[] = {"normal", "normal:1000", "nearties", "dominant:1e4"};

constexpr DType kBenchDtypes[] = {DType::f32, DType::bf16};
// Language models' hidden widths over many tokens, and a wide row.
constexpr std::string_view kBenchShapes[] = {"16384x4096", "4096x8192", "65536x1024", "1024x65536"};
constexpr std::string_view kBenchQuick[] = {"64x1000", "300x33", "2x20000"};
constexpr std::string_view kGateRecipes[] = {"int:3", "nearties:1e3"};
std::optional<BenchGoal> bench_goal(DType, std::span<const std::int64_t>) { return BenchGoal{false, 0.90}; }

constexpr std::string_view kHugeCases[] = {"op=layernorm dtype=bf16 shape=2097153x1024"};

}  // namespace

constinit const OpSpec spec = {
    .name = "layernorm",
    .summary =
        "LayerNorm of each row of an R x C tensor: y = (x - mean) * rstd * w + b, with mean and "
        "rstd = 1/sqrt(var + eps) (f32)",
    .dims = kDims,
    .tensors = kTensors,
    .params = kParams,
    .shape_form = "RxC",
    .shape_example = "4x1000",
    .reference =
        [](const Case& c, std::span<const TensorView> in) {
          return layernorm_reference(in[kX], in[kWeight], in[kBias], c.param(0));
        },
    .tolerance = [](const Case& c, int output) { return layernorm_tolerance(c.dtype, c.shape[1], output); },
    .eager_baseline =
        [](const Case& c, std::span<const TensorView> in) {
          return layernorm_eager(in[kX], in[kWeight], in[kBias], c.param(0), c.dtype);
        },
    .boundary_cases = &boundary_cases,
    .in_domain_values = &in_domain_values,
    .fuzz_params = kFuzzParams,
    .fuzz_excluded_recipes = kFuzzExcluded,
    .fuzz_sizes = &rowwise_fuzz_sizes,
    .report_recipes = kReportRecipes,
    .report_shape = &rowwise_report_shape,
    .report_widest_emu = 65536,
    .report_widest_cuda = 262144,
    .bench_dtypes = kBenchDtypes,
    .bench_shapes = kBenchShapes,
    .bench_quick_shapes = kBenchQuick,
    .bench_goal = &bench_goal,
    .bench_gate_recipes = kGateRecipes,
    .huge_cases = kHugeCases,
    .kernelbench_shape = "128x1024",
};

}  // namespace kverify::ops::layernorm
