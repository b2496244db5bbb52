#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "ops/layernorm/layernorm.hpp"
#include "reference/baseline.hpp"
#include "reference/exact.hpp"

namespace kverify {
namespace {

constexpr double kUnitRoundoffF32 = 0x1.0p-24;
constexpr int kY = 0, kMean = 1, kRstd = 2;

// layernorm's policy: f32 arithmetic, u = 2^-24, first order in u. Each element's budget B (in
// units of u) comes from its row; the bound is B u, plus one ulp of a 16-bit y's dtype.
//
// The kernel model: at least 32 threads per row (a warp), each adding its share of at most
// ceil(C/32) terms in sequence (or a 16-byte vector's terms as a tree, its vectors in sequence),
// the partials meeting in a tree of at most 10 levels: every sum passes through at most
// n = ceil(C/32) + 14 additions. Written for n; m is the row's mean, v its variance, s = sum|x|/C.
//   mean:  the sum within n u C s, / C adds u |m|:          a = (n + 1) u s bounds |mean - m|
//   variance about the kernel's mean m' (two passes): sum (x - m')^2 / C = v + (m - m')^2 exactly
//          (the deviations from m sum to 0), and the deviations, their squares, the sum and / C
//          add (n + 4) u of it:                              |var - v| <= (n + 4) u (v + a^2) + a^2
//          A one-pass Welford kernel carries its running mean's error e into each update
//          delta (x - m_k): first order 2 |e| |x - m| a term, 2 a sqrt(v) over the row
//          (sum |x - m| <= C sqrt(v)):                        + 2 a sqrt(v)
//   rstd = rsqrt(var + eps): eps rounded to f32 and the addition add u (v + eps) + u eps; the
//          square root halves the relative error; CUDA's rsqrtf adds 2 ulp (4u):
//          rho = (|var - v| + u (v + 2 eps)) / (2 (v + eps)) + 4u  bounds rstd's relative error
//   y = (x - m') rstd w + b: x - m' is off by a and rounds (u |x - m|); the products round twice
//          and rstd carries rho; the addition of b rounds once (u |y|); with d = |x - m| rstd |w|:
//          |y err| <= rstd |w| a + d (rho + 3u) + u |y|
// A 16-bit y adds one ulp of its dtype (half an ulp of rounding, doubled: the f32 value may sit
// across a binade's edge from the stored one). Underflow floors: one subnormal spacing for mean
// and rstd, two for y. The E[x^2] - E[x]^2 formula is outside the model: its error is n u (v +
// m^2), which passes the bound only where the mean is small against the spread.
struct Budget {
  double mean, rstd_relative;  // in units of u
};
Budget row_budget(const LayernormRow& row, double terms, double eps) {
  const double a = (terms + 1) * row.mean_magnitude * kUnitRoundoffF32;
  const double v = row.variance;
  const double var_error = (terms + 4) * kUnitRoundoffF32 * (v + a * a) + a * a + 2 * a * std::sqrt(v);
  const double rho = (var_error + kUnitRoundoffF32 * (v + 2 * eps)) / (2 * (v + eps)) + 4 * kUnitRoundoffF32;
  return {a / kUnitRoundoffF32, rho / kUnitRoundoffF32};
}

double summation_terms(std::int64_t width) { return std::ceil(static_cast<double>(width) / 32.0) + 14; }

class LayernormTolerance final : public Tolerance {
 public:
  LayernormTolerance(DType dtype, std::int64_t width, int output)
      : out_(output == kY ? dtype : DType::f32), terms_(summation_terms(width)), output_(output) {}

  double bound(const Expected& e) const override {
    double b = e.condition * kUnitRoundoffF32;
    if (out_ != DType::f32) b += ulp(out_, std::fabs(e.value));
    return std::max(b, (output_ == kY ? 2 : 1) * ulp(out_, 0));
  }

  // One rounding error at this element: the budget shared among the roundings it counts (the
  // row's sums differ between summation orders by many ulps of a y near b or of a small mean).
  double error_unit(const Expected& e, DType out) const override {
    return std::max(ulp(out, e.value), e.condition * kUnitRoundoffF32 / (terms_ + 4));
  }

  // rsqrtf is an approximation (CUDA: 2 ulp) that the eager composition (1/sqrtf, correctly
  // rounded) does not make: the baseline rule judges only the error past its 4u of rstd, which
  // y's normalised term d (Expected::input_magnitude) inherits.
  double approximation_allowance(const Expected& e) const override {
    if (output_ == kMean) return 0;
    return 4 * kUnitRoundoffF32 * (output_ == kRstd ? std::fabs(e.value) : static_cast<double>(e.input_magnitude));
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "layernorm "
      << (output_ == kY      ? "y"
          : output_ == kMean ? "mean"
                             : "rstd")
      << " " << name(out_) << ": |err| <= B * 2^-24"
      << (out_ == DType::f32 ? "" : " + 1 ulp(" + std::string(name(out_)) + ")") << ", B from the row ("
      << (output_ == kY      ? "rstd |w| a + |x-mean| rstd |w| (rho + 3) + |y|"
          : output_ == kMean ? "a = (n+1) mean|x|"
                             : "rho |rstd|, rho from the variance's error (n+4)(v+a^2) + a^2 + 2a sqrt(v) and rsqrtf")
      << "), n = ceil(C/32) + 14 = " << terms_;
    return s.str();
  }

 private:
  DType out_;
  double terms_;
  int output_;
};

}  // namespace

LayernormRow layernorm_row(const TensorView& x, std::int64_t row, double eps) {
  const std::int64_t width = x.cols();
  LayernormRow r;
  CompensatedSum sum;
  for (std::int64_t c = 0; c < width; ++c) sum.add(x.at(row, c));
  double total = sum.value();
  if (std::isfinite(sum.sum) && !sum.certified()) {  // heavy cancellation: the exact sum decides
    std::vector<double> terms(static_cast<std::size_t>(width));
    for (std::int64_t c = 0; c < width; ++c) terms[static_cast<std::size_t>(c)] = x.at(row, c);
    total = exact_sum(terms);
  } else if (!std::isfinite(sum.sum)) {
    total = sum.sum;  // a NaN or an infinity: the compensation term is meaningless
  }
  r.mean = total / static_cast<double>(width);
  r.mean_magnitude = sum.magnitude / static_cast<double>(width);
  // The squared deviations from the float64 mean: positive terms, so their float64 sum is within
  // C 2^-53 of the exact one, and the mean's own rounding moves it by C (its error)^2 only.
  double squares = 0;
  for (std::int64_t c = 0; c < width; ++c) {
    const double d = x.at(row, c) - r.mean;
    squares += d * d;
  }
  r.variance = squares / static_cast<double>(width);
  r.rstd = 1.0 / std::sqrt(r.variance + eps);
  return r;
}

OutputExpectations layernorm_reference(const TensorView& x, const TensorView& w, const TensorView& b, double eps) {
  const std::int64_t rows = x.rows(), width = x.cols();
  const double terms = summation_terms(width);
  Expectations y{rows, width, {}}, mean{rows, 1, {}}, rstd{rows, 1, {}};
  y.values.reserve(static_cast<std::size_t>(rows * width));
  const auto expected = [](double v, double budget, double normalised = 0) {
    return Expected{v, std::isnan(v) ? Expected::Kind::nan : Expected::Kind::approx, budget,
                    static_cast<float>(normalised)};
  };
  for (std::int64_t r = 0; r < rows; ++r) {
    const LayernormRow row = layernorm_row(x, r, eps);
    const Budget budget = row_budget(row, terms, eps);
    mean.values.push_back(expected(row.mean, budget.mean + std::fabs(row.mean)));
    rstd.values.push_back(expected(row.rstd, budget.rstd_relative * row.rstd));
    for (std::int64_t c = 0; c < width; ++c) {
      const double scale = row.rstd * std::fabs(w.at(c, 0));
      const double d = std::fabs(x.at(r, c) - row.mean) * scale;
      const double v = (x.at(r, c) - row.mean) * row.rstd * w.at(c, 0) + b.at(c, 0);
      y.values.push_back(expected(v, scale * budget.mean + d * (budget.rstd_relative + 3) + std::fabs(v), d));
    }
  }
  OutputExpectations out;
  out.push_back(std::move(y));
  out.push_back(std::move(mean));
  out.push_back(std::move(rstd));
  return out;
}

std::unique_ptr<Tolerance> layernorm_tolerance(DType dtype, std::int64_t width, int output) {
  return std::make_unique<LayernormTolerance>(dtype, width, output);
}

OutputValues layernorm_eager(const TensorView& x, const TensorView& w, const TensorView& b, double eps, DType storage) {
  const StorageRounding q{storage};
  const auto eps_f = static_cast<float>(eps);
  const auto width = static_cast<float>(x.cols());
  OutputValues out(3);
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    float sum = 0;
    for (std::int64_t c = 0; c < x.cols(); ++c) sum += static_cast<float>(x.at(r, c));
    const float mean = sum / width;
    float squares = 0;
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const float d = static_cast<float>(x.at(r, c)) - mean;
      squares += d * d;
    }
    const float rstd = 1.0f / std::sqrt(squares / width + eps_f);
    out[kMean].push_back(mean);
    out[kRstd].push_back(rstd);
    for (std::int64_t c = 0; c < x.cols(); ++c)
      out[kY].push_back(q((static_cast<float>(x.at(r, c)) - mean) * rstd * static_cast<float>(w.at(c, 0)) +
                          static_cast<float>(b.at(c, 0))));
  }
  return out;
}

}  // namespace kverify
