// rmsnorm's OpSpec: what every suite draws for it, and its bench plan.
#include "core/case.hpp"
#include "ops/common.hpp"
#include "ops/rmsnorm/rmsnorm.hpp"

namespace kverify::ops::rmsnorm {
namespace {

enum Tensor { kX, kWeight, kY, kRstd };

constexpr DimSpec kDims[] = {
    {.name = "rows", .meaning = "rows (independent: tokens)", .draw = DimDraw::count},
    {.name = "cols", .meaning = "columns: the normalised width", .max = 1 << 24, .draw = DimDraw::tail},
};
constexpr TensorSpec kTensors[] = {
    {.name = "x", .dims = {0, 1}, .rank = 2, .meaning = "the input"},
    {.name = "w", .dims = {1}, .rank = 1, .values = TensorValues::near_one, .meaning = "the weight, near 1"},
    {.name = "y", .output = true, .dims = {0, 1}, .rank = 2, .meaning = "the normalised rows, times w"},
    {.name = "rstd",
     .output = true,
     .element = ElementType::f32,
     .dims = {0},
     .rank = 1,
     .meaning = "1 / sqrt(mean(x^2) + eps) per row (what a backward pass keeps)"},
};
// The domain's edges and what frameworks default to (1e-6: LLaMA; 1e-5: torch.nn.RMSNorm's docs).
constexpr double kEpsDraws[] = {1e-12, 1e-5, 0.5, 1};
constexpr ParamSpec kParams[] = {
    {.name = "eps",
     .kind = ParamKind::real,
     .default_value = 1e-6,
     .min = 1e-12,
     .max = 1,
     .meaning = "added to the mean square before the square root",
     .draws = kEpsDraws},
};

std::vector<std::string> boundary_cases() {
  std::vector<std::string> lines = rowwise_boundary_cases();
  lines.push_back("shape=6x40 values=special");  // NaN rows, and rows whose infinity makes rstd 0
  lines.push_back("shape=7x300 w.strides=2 w.offset=1 rstd.strides=3 rstd.offset=2 values=uniform:4");
  lines.push_back("shape=5x100 eps=0.5 values=normal:1e-3");    // eps dominates the mean square
  lines.push_back("shape=3x64 values=zeros eps=1e-12");         // rstd 1e6, y 0
  lines.push_back("dtype=f32 shape=3x1000 values=const:1e15");  // the contract's largest inputs
  return lines;
}

// The rank-2 recipes within |x| <= 1e15 (none of extreme, heavy or const:+-1e30), and NaN/inf rows.
std::vector<ValueRecipe> in_domain_values(DType dtype) {
  std::vector<ValueRecipe> r = common_in_domain_values(dtype);
  for (const ValueRecipe& v : {recipe("normal", 1e3), recipe("const", 7), recipe("const", -300), recipe("uniform", 30),
                               recipe("dominant", 1e4), recipe("special", 1)})
    r.push_back(v);
  if (dtype != DType::f16) r.push_back(recipe("const", 1e12));  // f16 stops at 65504
  return r;
}

constexpr double kScale[] = {0.5, 2, 1e-3, 30, 1e3, 1e4, 1e-6, 1e-20, 1e-38, 6e4, 1e10, 1e15};
constexpr double kConst[] = {-1, 1, -0.0, 0.1, 3, 1e10, -1e-40, 65504, 1e15};
constexpr double kRamp[] = {0.5, -1, 0.01, 1e10};
constexpr double kDominant[] = {100, 1e4, 1e15};
constexpr RecipeParams kFuzzParams[] = {
    {"normal", kScale},        {"uniform", kScale},       {"negative", kScale},
    {"special", kScale},       {"nearties", kScale},      {"halves", kScale},
    {"int", kFuzzWholeParams}, {"ties", kFuzzTiesParams}, {"subnormal", kFuzzSubnormalExponents},
    {"const", kConst},         {"ramp", kRamp},           {"dominant", kDominant},
};
// Past the contract's |x| <= 1e15: their squares overflow f32's sum.
constexpr std::string_view kFuzzExcluded[] = {"extreme", "heavy"};

constexpr std::string_view kReportRecipes[] = {"normal", "normal:1000", "nearties", "dominant:1e4"};

constexpr DType kBenchDtypes[] = {DType::f32, DType::bf16};
// Language models' hidden widths over many tokens, and a wide row.
constexpr std::string_view kBenchShapes[] = {"16384x4096", "4096x8192", "65536x1024", "1024x65536"};
constexpr std::string_view kBenchQuick[] = {"64x1000", "300x33", "2x20000"};
constexpr std::string_view kGateRecipes[] = {"int:3", "dominant:1e4"};
std::optional<BenchGoal> bench_goal(DType, std::span<const std::int64_t>) { return BenchGoal{false, 0.90}; }

constexpr std::string_view kHugeCases[] = {"op=rmsnorm dtype=bf16 shape=2097153x1024"};

}  // namespace

constinit const OpSpec spec = {
    .name = "rmsnorm",
    .summary = "RMSNorm of each row of an R x C tensor: y = x * rstd * w, rstd = 1/sqrt(mean(x^2) + eps) (f32)",
    .dims = kDims,
    .tensors = kTensors,
    .params = kParams,
    .shape_form = "RxC",
    .shape_example = "4x1000",
    .reference = [](const Case& c,
                    std::span<const TensorView> in) { return rmsnorm_reference(in[kX], in[kWeight], c.param(0)); },
    .tolerance = [](const Case& c, int output) { return rmsnorm_tolerance(c.dtype, c.shape[1], output); },
    .eager_baseline =
        [](const Case& c, std::span<const TensorView> in) {
          return rmsnorm_eager(in[kX], in[kWeight], c.param(0), c.dtype);
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

}  // namespace kverify::ops::rmsnorm
