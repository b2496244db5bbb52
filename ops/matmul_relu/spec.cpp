// matmul_relu's OpSpec: what every suite draws for it, and its bench plan.
#include <algorithm>

#include "core/case.hpp"
#include "ops/common.hpp"
#include "ops/matmul_relu/matmul_relu.hpp"

namespace kverify::ops::matmul_relu {
namespace {

std::vector<std::string> boundary_cases() {
  std::vector<std::string> lines;
  for (const char* shape : {"1x1x1", "1x1x300", "3x130x2", "33x17x31", "64x64x64", "65x65x65", "100x37x53"}) {
    lines.push_back(std::string("shape=") + shape);
    lines.push_back(std::string("shape=") + shape + " values=int:3 seed=5");
  }
  lines.push_back("shape=40x24x56 a.strides=1,40 b.strides=1,56 c.strides=30,1 a.offset=3 c.offset=7");
  lines.push_back("shape=31x29x45 values=uniform:4 seed=8");
  // NaN, +-inf and -0 inputs (values=special): the contract's NaN propagation (relu(NaN) is NaN, so
  // an fmaxf(acc, 0) ReLU fails), inf * 0 and inf - inf, and relu(-0) = +0.
  for (const char* shape : {"33x17x31", "3x130x2"}) lines.push_back(std::string("shape=") + shape + " values=special");
  // One long side, the others tiny: every tile and grid boundary along it at the cost of M*N*K;
  // K past 256 tiles of 32 and any promotion interval (in integers too: exact mode sees one term).
  for (const char* shape : {"2x600x8", "3x70000x2", "70000x3x2", "3x2x8193"})
    lines.push_back(std::string("shape=") + shape);
  lines.push_back("shape=2x3x8191 values=int:3 seed=6");
  return lines;
}

std::vector<ValueRecipe> in_domain_values(DType dtype) {
  std::vector<ValueRecipe> r = common_in_domain_values(dtype);
  r.push_back(recipe("halves", 2));   // partial sums that change sign
  r.push_back(recipe("special", 1));  // NaN and +-inf: NaN propagates through the ReLU
  return r;
}

// Every product and partial sum finite in f32.
constexpr double kScale[] = {0.5, 2, 1e-3, 30, 1e3, 1e4, 1e-6, 1e-20, 6e4, 1e10};
constexpr double kConst[] = {-1, 1, -0.0, 0.1, 3, 1e10, -1e-40, 65504, 65520};
constexpr double kRamp[] = {0.5, -1, 0.01, 100};
constexpr double kHeavy[] = {0.5, 2};
constexpr double kExtreme[] = {1e-20, 1e-25};
constexpr double kDominant[] = {100, 1e4, 1e10};
constexpr RecipeParams kFuzzParams[] = {
    {"normal", kScale},        {"uniform", kScale},       {"negative", kScale},
    {"special", kScale},       {"nearties", kScale},      {"halves", kScale},
    {"int", kFuzzWholeParams}, {"ties", kFuzzTiesParams}, {"subnormal", kFuzzSubnormalExponents},
    {"const", kConst},         {"ramp", kRamp},           {"heavy", kHeavy},
    {"extreme", kExtreme},     {"dominant", kDominant},
};
// extreme's default S = 1: products of 1e30 overflow.
constexpr std::string_view kFuzzExcluded[] = {"extreme"};

// nearties: roundings that all go one way.
constexpr std::string_view kReportRecipes[] = {"normal", "halves", "nearties", "int"};

// A cell of width W is M = 2, N = K = W: the cost grows with N*K (on emu every tile is emulated
// thread by thread: about 10 s per Case at N = K = 2049; on cuda the exact MPFR dot products cost
// about 12 s per Case at N = K = 4097 on the H200's host), so the sweep stops earlier than the
// row ops'; the property suites go wider.
std::string report_shape(std::int64_t width, bool) {
  return "2x" + std::to_string(width) + "x" + std::to_string(width);
}

constexpr DType kBenchDtypes[] = {DType::f32, DType::f16, DType::bf16};
constexpr std::string_view kBenchShapes[] = {"4096x4096x4096", "8192x8192x8192", "4097x4095x4099", "1000x1000x1000",
                                             "64x8192x8192"};
constexpr std::string_view kBenchQuick[] = {"64x64x64", "33x65x47"};
constexpr std::string_view kGateRecipes[] = {"int:2", "uniform:1"};  // exact mode, then signs mixed

// Fractions of cuBLASLt+ReLU's speed in the same run: at the large squares, where cuBLASLt is at
// its best, 0.95; at the odd and skinny shapes, where it is weak, 1.1 (an open Hopper GEMM has beaten
// cuBLAS at 4096^3 and 8192^3; reports/h200/perf.md); f32 (no TF32) 0.9 everywhere.
std::optional<BenchGoal> bench_goal(DType dtype, std::span<const std::int64_t> shape) {
  if (dtype == DType::f32) return BenchGoal{true, 0.90};
  const bool large_square = shape[0] == shape[1] && shape[1] == shape[2] && shape[0] >= 4096;
  return BenchGoal{true, large_square ? 0.95 : 1.1};
}

double flops(std::span<const std::int64_t> s) {
  return 2.0 * static_cast<double>(s[0]) * static_cast<double>(s[1]) * static_cast<double>(s[2]);
}

constexpr std::string_view kHugeCases[] = {"op=matmul_relu dtype=f32 shape=524289x4096x8"};  // 2^31 + 4096 outputs

// M and N are tiled (drawn up to 130), K is the reduction (drawn up to 160: a K loop is serial per
// thread); a long draw takes one of them up to 4097 (M, N: past tile counts a grid may cap) or
// 8193 (K: past 256 tiles of 32 and any promotion interval), the others 1..3.
constexpr DimSpec kDims[] = {
    {.name = "m", .meaning = "rows of A and C", .draw_max = 130, .long_max = 4097},
    {.name = "n", .meaning = "columns of B and C", .draw_max = 130, .long_max = 4097},
    {.name = "k", .meaning = "the reduction: columns of A, rows of B", .draw_max = 160, .long_max = 8193},
};
constexpr TensorSpec kTensors[] = {
    {.name = "a", .dims = {0, 2}, .rank = 2, .meaning = "A, M x K"},
    {.name = "b", .dims = {2, 1}, .rank = 2, .positive_in_halves = true, .meaning = "B, K x N"},
    {.name = "c", .output = true, .dims = {0, 1}, .rank = 2, .meaning = "C = relu(A B), M x N"},
};

// The fuzz decoder's budgets: M, N, K up to 65536 (one long side, the others small), M x N outputs
// up to 64 x 1024 and M x N x K up to 2^19 multiply-adds; most draws within M <= 256, M x N <= 2048
// and K <= 32 (a Case costs about 1 ms per block of C and K tile on emu).
void fuzz_sizes(FuzzSizes& choose, std::span<std::int64_t> sizes) {
  constexpr std::int64_t kMaxSize = 64 * 1024, kMaxOutputs = 64 * 1024, kMaxMultiplyAdds = 1 << 19;
  constexpr std::int64_t kSoftM = 256, kSoftOutputs = 2048, kSoftK = 32;
  const std::int64_t m = choose.extent(kMaxSize, kSoftM, 0);
  const std::int64_t n =
      choose.extent(std::min({kMaxSize, kMaxMultiplyAdds / m, kMaxOutputs / m}), kSoftOutputs / m, 1);
  const std::int64_t k = choose.extent(std::min(kMaxSize, kMaxMultiplyAdds / (m * n)), kSoftK, 2);
  sizes[0] = m, sizes[1] = n, sizes[2] = k;
}

}  // namespace

constinit const OpSpec spec = {
    .name = "matmul_relu",
    .summary = "C = relu(A B), A M x K, B K x N, C M x N",
    .dims = kDims,
    .tensors = kTensors,
    .shape_form = "MxNxK",
    .shape_example = "64x64x64",
    .reference = [](const Case&,
                    std::span<const TensorView> in) { return one_output(matmul_relu_reference(in[0], in[1])); },
    .tolerance = [](const Case& c, int) { return matmul_relu_tolerance(c.dtype, c.shape[2]); },
    .fast_math_tolerance = [](const Case& c, int) { return matmul_relu_fast_math_tolerance(c.dtype, c.shape[2]); },
    .eager_baseline =
        [](const Case& c, std::span<const TensorView> in) {
          return one_output(matmul_relu_eager(in[0], in[1], c.dtype));
        },
    .boundary_cases = &boundary_cases,
    .in_domain_values = &in_domain_values,
    .fuzz_params = kFuzzParams,
    .fuzz_excluded_recipes = kFuzzExcluded,
    .fuzz_sizes = &fuzz_sizes,
    .report_recipes = kReportRecipes,
    .report_width_dim = 1,
    .report_shape = &report_shape,
    .report_widest_emu = 1025,
    .report_widest_cuda = 2049,
    .bench_dtypes = kBenchDtypes,
    .bench_shapes = kBenchShapes,
    .bench_quick_shapes = kBenchQuick,
    .bench_goal = &bench_goal,
    .bench_gate_recipes = kGateRecipes,
    .bench_flops = &flops,
    .bench_baseline_name = "cuBLASLt+ReLU",
    .huge_cases = kHugeCases,
    .kernelbench_shape = "128x128x128",
};

}  // namespace kverify::ops::matmul_relu
