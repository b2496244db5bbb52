// cross_entropy's OpSpec: what every suite draws for it, and its bench plan.
#include <algorithm>
#include <cmath>

#include "core/case.hpp"
#include "ops/common.hpp"
#include "ops/cross_entropy/cross_entropy.hpp"

namespace kverify::ops::cross_entropy {
namespace {

enum Tensor { kLogits, kTarget, kLoss, kTotal };
enum Param { kIgnoreIndex, kReduction };
constexpr double kIgnoredShare = 0.125;  // one row in eight: every Case of a few rows has some

constexpr DimSpec kDims[] = {
    {.name = "rows", .meaning = "rows (tokens, each with its target)", .draw = DimDraw::count},
    {.name = "classes",
     .meaning = "classes: the vocabulary a row's softmax runs over",
     .max = 1 << 24,
     .draw = DimDraw::tail},
};
constexpr TensorSpec kTensors[] = {
    {.name = "logits", .dims = {0, 1}, .rank = 2, .meaning = "the unnormalised scores"},
    // Rows ignored: the mean's count is not R.
    {.name = "target",
     .element = ElementType::i64,
     .dims = {0},
     .rank = 1,
     .values = TensorValues::index,
     .index_dim = 1,
     .ignored_param = kIgnoreIndex,
     .values_param = kIgnoredShare,
     .meaning = "each row's class in [0, classes), or ignore_index (one row in eight)"},
    {.name = "loss",
     .output = true,
     .element = ElementType::f32,
     .dims = {0},
     .rank = 1,
     .meaning = "logsumexp(logits[r]) - logits[r, target[r]], 0 where ignored (reduction='none')"},
    {.name = "total",
     .output = true,
     .element = ElementType::f32,
     .rank = 0,
     .meaning = "the mean of loss over the rows not ignored (NaN if none), or their sum"},
};
// PyTorch's default (-100), -1 (common in other code) and 0: a class that is ignored.
constexpr double kIgnoreDraws[] = {-1, 0};
constexpr std::string_view kReductions[] = {"mean", "sum"};
constexpr double kReductionDraws[] = {1};
constexpr ParamSpec kParams[] = {
    {.name = "ignore_index",
     .kind = ParamKind::integer,
     .default_value = -100,
     .min = -2147483648.0,
     .max = 2147483647.0,
     .meaning = "a target of this value contributes nothing (its loss 0, out of the mean's count)",
     .draws = kIgnoreDraws},
    {.name = "reduction",
     .kind = ParamKind::choice,
     .default_value = kCrossEntropyMean,
     .choices = kReductions,
     .meaning = "what total is (reduction='none' is loss itself)",
     .draws = kReductionDraws},
};

std::vector<std::string> boundary_cases() {
  std::vector<std::string> lines;
  for (int v : {1, 2, 3, 31, 32, 33, 127, 128, 129, 255, 256, 257, 1000, 1021, 1025, 4097, 32000, 65537}) {
    const std::string shape = "shape=" + std::to_string(v >= 4097 ? 2 : 5) + "x" + std::to_string(v);
    lines.push_back(shape);
    lines.push_back(shape + " values=negative:30 seed=1 schedule=3 reduction=sum");
  }
  lines.push_back("shape=7x300 logits.strides=320,1 logits.offset=3 target.strides=2 loss.strides=3 total.offset=1");
  lines.push_back("shape=33x65 logits.strides=1,33");  // column-major logits
  lines.push_back("shape=9x40 logits.strides=80,2 values=uniform:30 seed=4 ignore_index=0");
  lines.push_back("shape=4x100 values=int:5 seed=2 schedule=11");
  lines.push_back("shape=3x64 values=normal:1e3 seed=9");
  lines.push_back("shape=6x1000 values=dominant:1e4");  // confident rows: loss near 0 or near 1e4
  lines.push_back("shape=5x2000 values=ramp:0.05");     // a running max that grows along the row
  lines.push_back("shape=5x1 ignore_index=0");          // every row ignored: the mean is NaN
  lines.push_back("shape=5x1 ignore_index=0 reduction=sum");
  lines.push_back("shape=1000x5 seed=3");         // many rows: the total's reduction over more than a block
  lines.push_back("shape=12x40 values=special");  // NaN and +inf rows (NaN), masked classes, targets at -inf
  lines.push_back("dtype=f32 shape=4x1000 values=const:1e30");
  lines.push_back("dtype=f32 shape=65537x2");  // past grid.y's 65535 and any grid capped there
  return lines;
}

// Finite logits within |x| <= 1e30 (none of extreme past S = 1), masked classes (-inf) and rows
// the contract makes NaN (special).
std::vector<ValueRecipe> in_domain_values(DType dtype) {
  std::vector<ValueRecipe> r = common_in_domain_values(dtype);
  r.push_back(recipe("special", 1));
  for (const ValueRecipe& v : {recipe("normal", 1e3), recipe("const", 7), recipe("const", -300), recipe("uniform", 30),
                               recipe("dominant", 1e4), recipe("ramp", 0.05)})
    r.push_back(v);
  if (dtype != DType::f16)  // f16 stops at 65504
    for (const ValueRecipe& v : {recipe("heavy", 1), recipe("const", 1e30), recipe("const", -1e30)}) r.push_back(v);
  return r;
}

constexpr double kScale[] = {0.5, 2, 1e-3, 30, 1e3, 1e4, 1e-6, 1e-20, 1e-38, 6e4, 1e10, 1e30};
constexpr double kConst[] = {-1, 1, -0.0, 0.1, 3, 1e10, -1e-40, 65504, 1e30, -1e30};
constexpr double kRamp[] = {0.5, -1, 0.01, 1e10};
constexpr double kDominant[] = {100, 1e4, 1e30};
constexpr RecipeParams kFuzzParams[] = {
    {"normal", kScale}, {"uniform", kScale},       {"negative", kScale},      {"nearties", kScale},
    {"halves", kScale}, {"int", kFuzzWholeParams}, {"ties", kFuzzTiesParams}, {"subnormal", kFuzzSubnormalExponents},
    {"const", kConst},  {"ramp", kRamp},           {"dominant", kDominant},
};
// Finite logits past |x| <= 1e30 (extreme's S past 1: a loss past f32's range).
constexpr std::string_view kFuzzExcluded[] = {"extreme"};

constexpr std::string_view kReportRecipes[] = {"normal", "normal:1000", "dominant:1e4", "uniform:30"};

constexpr DType kBenchDtypes[] = {DType::f32, DType::bf16};
// Language models' vocabularies (Llama 2 32000, GPT-2 50257, Llama 3 128256, Gemma 262144) over
// many tokens.
constexpr std::string_view kBenchShapes[] = {"8192x32000", "4096x50257", "2048x128256", "512x262144"};
constexpr std::string_view kBenchQuick[] = {"64x1000", "300x33", "2x20000"};
constexpr std::string_view kGateRecipes[] = {"int:3", "dominant:1e4"};
// Past 2^31 logits (Gemma's vocabulary over 8193 rows): a row's offset row * V in 32 bits wraps.
constexpr std::string_view kHugeCases[] = {"op=cross_entropy dtype=bf16 shape=8193x262144"};
std::optional<BenchGoal> bench_goal(DType, std::span<const std::int64_t>) { return BenchGoal{false, 0.90}; }
// An ideal kernel reads the logits of the rows not ignored, the targets, and writes the losses and
// the total. Each row is drawn at ignore_index with probability kIgnoredShare, so a Case's ignored
// share has a standard deviation of sqrt(s (1 - s) / R) (1.5 % at the 512 rows of 512x262144): the
// count takes 4 deviations more ignored rows than the share, so it never exceeds the bytes the Case
// needs read: a fraction of the copy ceiling is understated (up to 7 % at 512 rows), never inflated,
// and no honest timing is refused as past the DRAM peak.
double bench_bytes(std::span<const std::int64_t> s, DType storage) {
  const auto rows = static_cast<double>(s[0]), classes = static_cast<double>(s[1]);
  const double ignored =
      std::min(1.0, kIgnoredShare + 4 * std::sqrt(kIgnoredShare * (1 - kIgnoredShare) / std::max(rows, 1.0)));
  return rows * (1 - ignored) * classes * static_cast<double>(size_of(storage)) + rows * 8 + rows * 4 + 4;
}

}  // namespace

constinit const OpSpec spec = {
    .name = "cross_entropy",
    .summary =
        "cross-entropy of each row's logits against its target class: loss = logsumexp - logit[target] "
        "(0 where target = ignore_index), and its mean over the rows not ignored or its sum (f32)",
    .dims = kDims,
    .tensors = kTensors,
    .params = kParams,
    .shape_form = "RxV",
    .shape_example = "4x1000",
    // The rows are independent but for total, which needs every one: no sample of rows stands for
    // a Case (total follows no rows), so every Case is checked in full, the huge one too.
    .reference =
        [](const Case& c, std::span<const TensorView> in) {
          return cross_entropy_reference(in[kLogits], in[kTarget], static_cast<std::int64_t>(c.param(kIgnoreIndex)),
                                         static_cast<int>(c.param(kReduction)));
        },
    .tolerance = [](const Case& c, int output) { return cross_entropy_tolerance(c.shape[1], c.shape[0], output); },
    .eager_baseline =
        [](const Case& c, std::span<const TensorView> in) {
          return cross_entropy_eager(in[kLogits], in[kTarget], static_cast<std::int64_t>(c.param(kIgnoreIndex)),
                                     static_cast<int>(c.param(kReduction)), c.dtype);
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
    .bench_bytes = &bench_bytes,
    .bench_baseline_name = "eager cross_entropy",
    .huge_cases = kHugeCases,
    .kernelbench_shape = "128x1024",
};

}  // namespace kverify::ops::cross_entropy
