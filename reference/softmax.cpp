#include "reference/softmax.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace kverify {
namespace {

constexpr double kEpsF32 = 0x1.0p-23;  // f32 unit roundoff is half of this

// softmax, arithmetic in f32, output stored in `dtype`.
//
// Relative error of y_i = exp(t_i) / s, with t_i = x_i - max computed in f32:
//   - the subtraction rounds t_i: absolute error |t_i| * eps/2, which exp turns into a relative
//     error of |t_i| * eps/2 (exp is ill-conditioned for large |t|: this term is not a kernel bug);
//   - expf: CUDA documents <= 2 ulp (host libm is within 1);
//   - the sum of n positive terms: each thread accumulates ~n/B terms sequentially, then a tree of
//     log2(B) levels; with B >= 32 threads, n/32 + log2(n) terms of eps/2 bound it for every
//     variant family we ship (a loose worst case; issue 4 calibrates it by measurement);
//   - the division: 0.5 ulp.
// Then the output rounding to f16/bf16 adds at most one ulp of that dtype (0.5 ulp from rounding,
// doubled because the f32 value can sit on the other side of a rounding midpoint).
// Absolute floor: probabilities that underflow. In f32, values below 2^-126 lose precision
// (subnormals); in f16, below 2^-14, with spacing 2^-24.
class SoftmaxTolerance final : public Tolerance {
 public:
  SoftmaxTolerance(DType dtype, std::int64_t n)
      : dtype_(dtype), n_(n), sum_terms_(static_cast<double>(n) / 32.0 + std::log2(static_cast<double>(n) + 1)) {}

  double bound(const Expected& e) const override {
    const double v = std::fabs(e.value);
    const double rel_f32 = kEpsF32 * (0.5 * e.condition + 2.0 + 0.5 * sum_terms_ + 0.5);
    double b = rel_f32 * v;
    if (dtype_ != DType::f32) b += ulp(dtype_, v);
    const double floor = dtype_ == DType::f16 ? 0x1.0p-24 : 0x1.0p-126;
    return std::max(b, floor);
  }

  std::string describe() const override {
    std::ostringstream out;
    out << "softmax " << name(dtype_) << ": |err| <= eps32*(|x-max|/2 + 2.5 + (n/32+log2 n)/2)*|y|"
        << (dtype_ == DType::f32 ? "" : " + 1 ulp(" + std::string(name(dtype_)) + ")") << ", floor "
        << (dtype_ == DType::f16 ? "2^-24" : "2^-126") << " (n=" << n_ << ")";
    return out.str();
  }

 private:
  DType dtype_;
  std::int64_t n_;
  double sum_terms_;
};

}  // namespace


Expectations softmax_reference(const TensorView& x) {
  Expectations out{x.rows(), x.cols(), std::vector<Expected>(static_cast<std::size_t>(x.rows() * x.cols()))};
  std::vector<double> row(static_cast<std::size_t>(x.cols()));
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    bool nan_row = false;
    double max = -std::numeric_limits<double>::infinity();
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      row[c] = x.at(r, c);
      if (std::isnan(row[c]) || row[c] == std::numeric_limits<double>::infinity()) nan_row = true;
      max = std::max(max, row[c]);
    }
    if (max == -std::numeric_limits<double>::infinity()) nan_row = true;  // all -inf
    Expected* y = &out.values[static_cast<std::size_t>(r * x.cols())];
    if (nan_row) {
      for (std::int64_t c = 0; c < x.cols(); ++c) y[c] = {std::numeric_limits<double>::quiet_NaN(), Expected::Kind::nan, 0};
      continue;
    }
    // f64 keeps 29 more bits than f32: exp's and the sum's rounding errors here are far below the
    // f32 kernel's, so this reference decides every f32/f16/bf16 softmax output.
    double sum = 0;
    for (std::int64_t c = 0; c < x.cols(); ++c) sum += std::exp(row[c] - max);
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      if (row[c] == -std::numeric_limits<double>::infinity()) {
        y[c] = {0.0, Expected::Kind::exact, 0};
      } else {
        y[c] = {std::exp(row[c] - max) / sum, Expected::Kind::approx, max - row[c]};
      }
    }
  }
  return out;
}

std::unique_ptr<Tolerance> softmax_tolerance(DType dtype, std::int64_t row_length) {
  return std::make_unique<SoftmaxTolerance>(dtype, row_length);
}

}  // namespace kverify
