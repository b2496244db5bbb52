#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "ops/matmul_relu/matmul_relu.hpp"
#include "reference/baseline.hpp"
#include "reference/exact.hpp"

namespace kverify {
namespace {

constexpr double kUnitRoundoffF32 = 0x1.0p-24;  // u: half of f32's epsilon 2^-23
constexpr double kUnitRoundoffF64 = 0x1.0p-53;
constexpr double kExactLimit = 0x1.0p24;  // integers up to 2^24 are exact in f32

// gamma(n) = n u / (1 - n u): the classic bound on the relative error of n roundings.
double gamma_f32(std::int64_t n) {
  const double nu = static_cast<double>(n) * kUnitRoundoffF32;
  return nu < 0.5 ? nu / (1.0 - nu) : 2.0 * nu;  // K >= 2^23: no a-priori bound holds; stay loose
}

// matmul_relu with f32 arithmetic, output stored in `dtype`.
//
// Error of the dot product s = sum_k a_k b_k (K terms) evaluated in f32 (Higham, Accuracy and
// Stability of Numerical Algorithms, 3.1): |fl(s) - s| <= gamma(K) * sum_k |a_k b_k|, with
// gamma(K) = K u / (1 - K u) ~ K u and u = 2^-24. This holds for ANY summation order (a sequential
// chain, K tiles, split-K, a tree) and with or without FMA (an FMA chain does K roundings: the
// first product, then one per fused step). We take this worst case, not the probabilistic
// sqrt(K) u estimate, on purpose: the kernels' K loop is a sequential fmaf chain per output, and
// same-signed inputs (values=const, values=negative: all products positive) make every addition
// round in the same direction, so errors near K u * sum|ab| are reachable by a correct kernel. The
// bug classes this policy must expose (a dropped K tile, ReLU per K tile, a layout read wrongly, an
// f16 accumulator) make errors of the size of whole terms, orders of magnitude above it; exact
// mode (below) covers the fine end bitwise.
//   For f16/bf16 storage the inputs have 11- or 8-bit significands: each product has at most 22
// or 16 significant bits and is exact in f32, so only the additions round (the bound above still
// holds and is what we use).
//   ReLU is 1-Lipschitz, so |relu(fl(s)) - relu(s)| <= |fl(s) - s|: the same bound holds after the
// ReLU. In particular, where s is within the bound of 0 a correct kernel may output 0 or a tiny
// positive value (s slightly negative, fl(s) slightly positive), and both pass.
//   Underflow: products or sums below 2^-126 round absolutely, by at most 2^-150 each (half the
// subnormal spacing); K of them give the absolute floor K * 2^-149 (with margin).
//   The reference's own error: products of f32 values are exact in f64 (48 <= 53 bits) and the
// f64 sum errs by at most gamma_f64(K) sum|ab|, 2^-29 times the f32 bound; added for rigour.
// Then the output rounding to f16/bf16 adds at most half an ulp of that dtype at the f32 result,
// which can sit one binade above |expected|: we allow one ulp of the output dtype at
// |expected| + the f32 bound.
// Exact mode (matmul_relu.hpp: integer inputs with sum|ab| <= 2^24) never reaches this
// bound: those elements are Kind::exact and must match bitwise.
// The fast-math policy (POLICY fast_math: nvcc --use_fast_math): only flush-to-zero reaches a dot
// product (FMA contraction is nvcc's default already). A subnormal input reads as 0, a subnormal
// product or partial sum is flushed: at most 2^-126 each, K products and K additions, so the floor
// K * 2^-149 of gradual underflow becomes 2K * 2^-126, and the excess is the approximation allowance
// (the eager composition flushes nothing). Integer inputs stay exact.
class MatmulReluTolerance final : public Tolerance {
 public:
  MatmulReluTolerance(DType dtype, std::int64_t k, bool fast_math)
      : dtype_(dtype),
        k_(k),
        relative_(gamma_f32(k) + static_cast<double>(k) * kUnitRoundoffF64),
        floor_(static_cast<double>(k) * (fast_math ? 2.0 * 0x1.0p-126 : 0x1.0p-149)),
        fast_math_(fast_math) {}

  double approximation_allowance(const Expected&) const override {
    return fast_math_ ? floor_ - static_cast<double>(k_) * 0x1.0p-149 : 0.0;
  }

  double bound(const Expected& e) const override {
    double b = relative_ * e.condition + floor_;
    if (dtype_ == DType::f16 || dtype_ == DType::bf16) b += ulp(dtype_, std::fabs(e.value) + b);
    return b;
  }

  double error_unit(const Expected& e, DType out) const override {
    return std::max(ulp(out, e.value), 0x1.0p-24 * e.condition);
  }

  std::string describe() const override {
    const bool low = dtype_ == DType::f16 || dtype_ == DType::bf16;
    std::ostringstream out;
    out << "matmul_relu " << name(dtype_) << (fast_math_ ? " fast_math (flush-to-zero)" : "")
        << ": |err| <= gamma(K)*sum|a*b| + " << (fast_math_ ? "2K*2^-126" : "K*2^-149")
        << (low ? " + 1 ulp(" + std::string(name(dtype_)) + ")" : "") << ", gamma(K) = K*2^-24/(1-K*2^-24) (K=" << k_
        << "); bitwise exact where inputs are integers with sum|a*b| <= 2^24";
    return out.str();
  }

 private:
  DType dtype_;
  std::int64_t k_;
  double relative_;
  double floor_;
  bool fast_math_;
};

bool is_integer(double v) { return std::isfinite(v) && v == std::trunc(v); }

}  // namespace

Expectations matmul_relu_reference(const TensorView& a, const TensorView& b) {
  const std::int64_t M = a.rows(), K = a.cols(), N = b.cols();
  if (b.rows() != K)
    throw std::invalid_argument("matmul_relu_reference: A is " + std::to_string(M) + " x " + std::to_string(K) +
                                " but B has " + std::to_string(b.rows()) + " rows");
  const DType out_dtype = a.dtype;  // one storage dtype per Case: C's is A's

  // Whether each column of B holds only integers (exact mode), in one pass over B.
  std::vector<char> b_col_integer(static_cast<std::size_t>(N), 1);
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t n = 0; n < N; ++n)
      if (!is_integer(b.at(k, n))) b_col_integer[static_cast<std::size_t>(n)] = 0;

  Expectations c{M, N, std::vector<Expected>(static_cast<std::size_t>(M * N))};
  // Per column n of C's row m: the compensated sum of the products (its plain part is the float64
  // sum), the rounding errors, and sum |A[m][k] B[k][n]| (the condition).
  std::vector<double> sum(static_cast<std::size_t>(N)), error(sum.size()), magnitude(sum.size());
  std::vector<double> a_row(static_cast<std::size_t>(K)), b_column;
  size_step(M);  // a progress line counts the rows of C (core/progress.hpp)
  for (std::int64_t m = 0; m < M; ++m) {
    bool a_row_integer = true;
    for (std::int64_t k = 0; k < K; ++k) {
      a_row[static_cast<std::size_t>(k)] = a.at(m, k);
      a_row_integer = a_row_integer && is_integer(a_row[static_cast<std::size_t>(k)]);
    }
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(error.begin(), error.end(), 0.0);
    std::fill(magnitude.begin(), magnitude.end(), 0.0);
    // C[m][n] = relu(sum_k A[m][k] B[k][n]), k ascending for every n; B read a row at a time.
    for (std::int64_t k = 0; k < K; ++k) {
      const double ak = a_row[static_cast<std::size_t>(k)];
      for (std::int64_t n = 0; n < N; ++n) {
        const double product = ak * b.at(k, n);  // exact: two f32 values
        compensated_add(sum[static_cast<std::size_t>(n)], error[static_cast<std::size_t>(n)], product);
        magnitude[static_cast<std::size_t>(n)] += std::fabs(product);
      }
    }
    for (std::int64_t n = 0; n < N; ++n) {
      const auto i = static_cast<std::size_t>(n);
      const double plain = sum[i];  // non-finite when a product was
      double value = plain;
      if (std::isfinite(plain)) {
        value = sum[i] + error[i];
        if (!compensated_sum_certified(value, magnitude[i], K)) {  // cancellation: decide exactly
          b_column.resize(static_cast<std::size_t>(K));
          for (std::int64_t k = 0; k < K; ++k) b_column[static_cast<std::size_t>(k)] = b.at(k, n);
          value = exact_dot(a_row, b_column);
        }
      }
      const double relu_sum = relu_keep_nan(value);  // ReLU once, on the full K sum
      Expected& e = c.values[static_cast<std::size_t>(m * N + n)];
      if (std::isnan(relu_sum)) {
        e = {std::numeric_limits<double>::quiet_NaN(), Expected::Kind::nan, 0};
      } else if (std::isinf(value)) {
        e = {relu_sum, Expected::Kind::exact, magnitude[i]};  // +inf stays, -inf gives 0
      } else if (const double stored = round_to(out_dtype, relu_sum); std::isinf(stored)) {
        e = {stored, Expected::Kind::exact, magnitude[i]};  // the result overflows the output dtype
      } else if (a_row_integer && b_col_integer[i] && magnitude[i] <= kExactLimit) {
        e = {stored, Expected::Kind::exact, magnitude[i]};  // exact mode: f32 sum exact, one rounding
      } else {
        e = {relu_sum, Expected::Kind::approx, magnitude[i]};
      }
    }
    advance_step();
  }
  return c;
}

std::unique_ptr<Tolerance> matmul_relu_tolerance(DType dtype, std::int64_t k) {
  return std::make_unique<MatmulReluTolerance>(dtype, k, false);
}
std::unique_ptr<Tolerance> matmul_relu_fast_math_tolerance(DType dtype, std::int64_t k) {
  return std::make_unique<MatmulReluTolerance>(dtype, k, true);
}

namespace {

// One k step of every order over a row of C: an fma into each running chain, and the f64 sum that
// picks the worst order. target_clones: with FMA instructions where the CPU has them (std::fma is
// a libm call otherwise, the largest cost of this baseline); the same bits either way.
[[gnu::target_clones("fma", "default")]] void eager_k_step(float ak, const float* b_row, std::int64_t n,
                                                           float* sequential, float* halves, float* quarters,
                                                           double* f64) {
  for (std::int64_t j = 0; j < n; ++j) {
    sequential[j] = std::fma(ak, b_row[j], sequential[j]);
    halves[j] = std::fma(ak, b_row[j], halves[j]);
    quarters[j] = std::fma(ak, b_row[j], quarters[j]);
    f64[j] += static_cast<double>(ak) * b_row[j];
  }
}

// A range of a cut order ends: its chain joins the finished ranges' sum (f32, in range order).
void close_range(std::vector<float>& running, std::vector<float>& finished) {
  for (std::size_t j = 0; j < running.size(); ++j) {
    finished[j] += running[j];
    running[j] = 0.0f;
  }
}

}  // namespace

// An eager f32 GEMM has no single summation order: a CPU loop runs k in sequence, cuBLAS cuts K
// into ranges when the tiles are too few to fill the GPU and adds the ranges' sums. Which order
// is more accurate depends on the input: where every rounding goes the same way (values a few ulps
// apart), the error of a chain drifts with each binade its partial sum crosses and can cancel at
// one length (the sequential chain of 409 such terms is off by 4 units where each half of it is
// off by 10-20). One order's luck must not be the bar, so per element the baseline takes the
// worst of the sequential chain and of K cut into 2 and into 4 contiguous ranges, each range a
// sequential chain and the ranges' sums added in order. "Worst" is the farthest from the f64 dot
// product, whose own error (K 2^-53 sum|ab|) is far below the orders' differences.
std::vector<double> matmul_relu_eager(const TensorView& a, const TensorView& b, DType storage) {
  const StorageRounding q{storage};
  const std::int64_t M = a.rows(), K = a.cols(), N = b.cols();
  const std::int64_t half = (K + 1) / 2, quarter = (K + 3) / 4;  // the cut orders' range lengths
  const auto n = static_cast<std::size_t>(N);
  std::vector<double> y;
  y.reserve(static_cast<std::size_t>(M) * n);
  std::vector<float> b_row(n), sequential(n), halves(n), halves_done(n), quarters(n), quarters_done(n);
  std::vector<double> f64(n);
  for (std::int64_t m = 0; m < M; ++m) {
    for (auto* v : {&sequential, &halves, &halves_done, &quarters, &quarters_done})
      std::fill(v->begin(), v->end(), 0.0f);
    std::fill(f64.begin(), f64.end(), 0.0);
    // Every order accumulates its products k ascending, one fma each (B read a row at a time).
    for (std::int64_t k = 0; k < K; ++k) {
      if (k > 0 && k % half == 0) close_range(halves, halves_done);
      if (k > 0 && k % quarter == 0) close_range(quarters, quarters_done);
      for (std::int64_t j = 0; j < N; ++j) b_row[static_cast<std::size_t>(j)] = static_cast<float>(b.at(k, j));
      eager_k_step(static_cast<float>(a.at(m, k)), b_row.data(), N, sequential.data(), halves.data(), quarters.data(),
                   f64.data());
    }
    for (std::size_t j = 0; j < n; ++j) {
      float worst = sequential[j];
      // NaN distances (NaN or infinite terms) compare false: the sequential chain stays.
      for (const float v : {halves_done[j] + halves[j], quarters_done[j] + quarters[j]})
        if (std::fabs(v - f64[j]) > std::fabs(worst - f64[j])) worst = v;
      y.push_back(relu_keep_nan(q(worst)));
    }
  }
  return y;
}

}  // namespace kverify
