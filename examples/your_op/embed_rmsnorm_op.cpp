// embed_rmsnorm: an op declared in a user's own project (kverify_add_op in CMakeLists.txt), of a
// shape class kverify's four do not have: three dimensions, an index input, a scalar parameter,
// two outputs of different element types. The input layer of a language model, fused:
//
//   x[t, :] = table[ids[t], :]                                       (the embedding lookup)
//   rstd[t] = 1 / sqrt(mean_c(x[t, c]^2) + eps)                        (f32, kept for the backward)
//   y[t, c] = x[t, c] * rstd[t] * w[c]                                 (RMSNorm with its weight)
//
// Contract: ids in [0, V) (the op draws them there; a kernel need not check them); eps in
// [1e-12, 1]; finite table and w with |values| <= 1e15, so that C x^2 stays below f32's range for
// every width this op takes (C <= 65536). Arithmetic in f32, y stored in the storage dtype.
#include <cmath>
#include <sstream>

#include "core/case.hpp"
#include "core/op_spec.hpp"
#include "reference/baseline.hpp"

namespace kverify::ops::embed_rmsnorm {
namespace {

enum Dim { kTokens, kVocab, kWidth };
enum Tensor { kIds, kTable, kWeight, kY, kRstd };

constexpr DimSpec kDims[] = {
    {.name = "T", .meaning = "tokens (independent rows)", .draw = DimDraw::count},
    {.name = "V", .meaning = "rows of the embedding table", .draw = DimDraw::count},
    {.name = "C", .meaning = "the hidden width: each row's length", .max = 65536, .draw = DimDraw::tail},
};
constexpr TensorSpec kTensors[] = {
    {.name = "ids",
     .element = ElementType::i32,
     .dims = {kTokens},
     .rank = 1,
     .values = TensorValues::index,
     .index_dim = kVocab,
     .meaning = "the token ids, in [0, V)"},
    {.name = "table", .dims = {kVocab, kWidth}, .rank = 2, .meaning = "the embedding table"},
    {.name = "w",
     .dims = {kWidth},
     .rank = 1,
     .values = TensorValues::near_one,
     .meaning = "the RMSNorm weight, near 1"},
    {.name = "y", .output = true, .dims = {kTokens, kWidth}, .rank = 2, .meaning = "the normalised rows"},
    {.name = "rstd",
     .output = true,
     .element = ElementType::f32,
     .dims = {kTokens},
     .rank = 1,
     .meaning = "1 / sqrt(mean(x^2) + eps) per token"},
};
constexpr double kEpsDraws[] = {1e-12, 1e-5, 0.5};
constexpr ParamSpec kParams[] = {
    {.name = "eps",
     .kind = ParamKind::real,
     .default_value = 1e-6,
     .min = 1e-12,
     .max = 1,
     .meaning = "added to the mean square before the square root",
     .draws = kEpsDraws},
};

struct Row {
  double mean_square = 0, rstd = 0;
};

// float64 of the stored values: the sum of squares has no cancellation, so its relative error is
// at most C 2^-53, far below any f32 bound here; float64 decides every element.
Row row_of(const TensorView& ids, const TensorView& table, std::int64_t t, std::int64_t width, double eps) {
  const auto v = static_cast<std::int64_t>(ids.at(t, 0));
  Row r;
  for (std::int64_t c = 0; c < width; ++c) r.mean_square += table.at(v, c) * table.at(v, c);
  r.mean_square /= static_cast<double>(width);
  r.rstd = 1.0 / std::sqrt(r.mean_square + eps);
  return r;
}

OutputExpectations reference(const Case& c, std::span<const TensorView> in) {
  const TensorView &ids = in[kIds], &table = in[kTable], &w = in[kWeight];
  const std::int64_t tokens = c.shape[kTokens], width = c.shape[kWidth];
  const double eps = c.param(0);
  Expectations y{tokens, width, {}}, rstd{tokens, 1, {}};
  for (std::int64_t t = 0; t < tokens; ++t) {
    const Row r = row_of(ids, table, t, width, eps);
    const auto v = static_cast<std::int64_t>(ids.at(t, 0));
    rstd.values.push_back({r.rstd, Expected::Kind::approx, 0});
    for (std::int64_t col = 0; col < width; ++col) {
      // A stored +-inf (f16's range is 65504) makes the row's rstd 0 and its own element NaN, as
      // IEEE arithmetic and PyTorch give.
      const double value = table.at(v, col) * r.rstd * w.at(col, 0);
      // The condition is |w|: what an error of x * rstd is multiplied by (the policy's underflow term).
      y.values.push_back(
          {value, std::isnan(value) ? Expected::Kind::nan : Expected::Kind::approx, std::fabs(w.at(col, 0))});
    }
  }
  OutputExpectations out;
  out.push_back(std::move(y));
  out.push_back(std::move(rstd));
  return out;
}

// PyTorch's RMSNorm as LlamaRMSNorm writes it, in the storage precision: the row in f32, its mean
// square and rsqrt in f32, x * rstd cast to the storage dtype, then times the weight in it.
OutputValues eager(const Case& c, std::span<const TensorView> in) {
  const TensorView &ids = in[kIds], &table = in[kTable], &w = in[kWeight];
  const StorageRounding q{c.dtype};
  const std::int64_t tokens = c.shape[kTokens], width = c.shape[kWidth];
  const auto eps = static_cast<float>(c.param(0));
  OutputValues out(2);
  for (std::int64_t t = 0; t < tokens; ++t) {
    const auto v = static_cast<std::int64_t>(ids.at(t, 0));
    float sum = 0;
    for (std::int64_t col = 0; col < width; ++col) {
      const auto x = static_cast<float>(table.at(v, col));
      sum += x * x;
    }
    const float r = 1.0f / std::sqrt(sum / static_cast<float>(width) + eps);
    out[1].push_back(r);
    for (std::int64_t col = 0; col < width; ++col)
      out[0].push_back(q(static_cast<float>(w.at(col, 0)) * q(static_cast<float>(table.at(v, col)) * r)));
  }
  return out;
}

// The error of an f32 kernel, u = 2^-24 (f32's unit roundoff), n = C/32 + log2 C + 1 (a thread's
// sequential share of the row, then a tree over a block of at least 32 threads: the summation
// model of kverify's softmax and row_sum policies):
//   sum of squares, each square rounded:   n u   (relative: every term is positive)
//   / C, + eps:                            2 u
//   rsqrt of it (CUDA's rsqrtf: 2 ulp):    (n + 2) u / 2 + 4 u       -> rstd's bound
//   x * rstd * w, two products:            + 2 u                     -> y's bound in f32
// Products that underflow are rounded to f32's subnormal spacing s = 2^-149, an absolute error of
// s/2 each: x * rstd's is then multiplied by w, and the second product adds its own, so
// (1 + |w|) s / 2 (|w| is the element's condition) is added to the relative bound.
// y stored in f16/bf16 adds one ulp of that dtype (half an ulp of rounding, doubled: the f32 value
// may sit on the other side of a midpoint). A floor of the dtype's smallest subnormal spacing
// covers results that underflow in the storage dtype.
class Policy final : public Tolerance {
 public:
  Policy(DType out, std::int64_t width, bool is_rstd)
      : out_(out),
        terms_(static_cast<double>(width) / 32.0 + std::log2(static_cast<double>(width)) + 1),
        rstd_(is_rstd) {}

  double relative_f32() const {
    constexpr double u = 0x1.0p-24;
    return ((terms_ + 2) / 2 + 4 + (rstd_ ? 0 : 2)) * u;
  }
  double bound(const Expected& e) const override {
    const double v = std::fabs(e.value);
    double b = relative_f32() * v + (1 + e.condition) / 2 * ulp(DType::f32, 0);
    if (out_ != DType::f32) b += ulp(out_, v);
    return std::max(b, ulp(out_, 0));
  }
  std::string describe() const override {
    std::ostringstream s;
    s << "embed_rmsnorm " << (rstd_ ? "rstd" : "y") << " " << name(out_) << ": |err| <= u*((n+2)/2 + "
      << (rstd_ ? 4 : 6) << ")*|v| + (1 + |w|)/2 * 2^-149"
      << (out_ == DType::f32 ? "" : " + 1 ulp(" + std::string(name(out_)) + ")")
      << ", u = 2^-24, n = C/32 + log2 C + 1 = " << terms_;
    return s.str();
  }

 private:
  DType out_;
  double terms_;
  bool rstd_;
};

std::vector<ValueRecipe> in_domain_values(DType) {
  return {{},
          {"normal", 10, true},
          {"normal", 1e-3, true},
          {"uniform", 4, true},
          {"int", 3, true},
          {"negative", 5, true},
          {"ties", 4, true},
          {"nearties", 1, true},
          {"zeros", 0, true}};
}

// Past the contract's |values| <= 1e15: +-1e30 (extreme, heavy) and NaN/inf rows (special).
constexpr std::string_view kFuzzExcluded[] = {"extreme", "heavy", "special"};
constexpr std::string_view kReportRecipes[] = {"normal", "normal:1000", "nearties"};
constexpr DType kBenchDtypes[] = {DType::f32, DType::bf16};
constexpr std::string_view kBenchShapes[] = {"T:16384,V:32000,C:4096"};
constexpr std::string_view kBenchQuick[] = {"T:64,V:100,C:1000"};
constexpr std::string_view kGateRecipes[] = {"normal:1000", "int:3"};

// An ideal kernel reads the ids, the T gathered rows (not the whole table), w once, and writes y
// and rstd.
double bench_bytes(std::span<const std::int64_t> s, DType storage) {
  const auto t = static_cast<double>(s[kTokens]), c = static_cast<double>(s[kWidth]);
  const auto es = static_cast<double>(size_of(storage));
  return t * 4 + t * c * es + c * es + t * c * es + t * 4;
}

}  // namespace

// The op table (generated from kverify_add_op) links the op by this name: external linkage.
extern const OpSpec spec;
constinit const OpSpec spec = {
    .name = "embed_rmsnorm",
    .summary = "an embedding lookup fused with RMSNorm: y = table[ids] * rstd * w, rstd = 1/sqrt(mean(x^2) + eps)",
    .dims = kDims,
    .tensors = kTensors,
    .params = kParams,
    .shape_example = "T:4,V:50,C:1000",
    .rows_dim = kTokens,
    .reference = &reference,
    .tolerance = [](const Case& c, int output) -> std::unique_ptr<Tolerance> {
      return std::make_unique<Policy>(output == 0 ? c.dtype : DType::f32, c.shape[kWidth], output == 1);
    },
    .eager_baseline = &eager,
    .in_domain_values = &in_domain_values,
    .fuzz_excluded_recipes = kFuzzExcluded,
    .report_recipes = kReportRecipes,
    .report_widest_emu = 8193,
    .report_widest_cuda = 65536,
    .bench_dtypes = kBenchDtypes,
    .bench_shapes = kBenchShapes,
    .bench_quick_shapes = kBenchQuick,
    .bench_gate_recipes = kGateRecipes,
    .bench_bytes = &bench_bytes,
};

}  // namespace kverify::ops::embed_rmsnorm
