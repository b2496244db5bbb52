#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <limits>
#include <sstream>

#include "ops/softmax/softmax.hpp"
#include "reference/baseline.hpp"

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
//     variant family we ship (a loose worst case; the baseline rule bounds what the worst case leaves loose);
//   - the division: 0.5 ulp.
// Then the output rounding to f16/bf16 adds at most one ulp of that dtype (0.5 ulp from rounding,
// doubled because the f32 value can sit on the other side of a rounding midpoint).
// Absolute floor: probabilities that underflow. In f32, values below 2^-126 lose precision
// (subnormals); in f16, below 2^-14, with spacing 2^-24.
//
// The fast-math policy (POLICY fast_math: nvcc --use_fast_math): expf is __expf, x / y is
// __fdividef, subnormals flush to zero. The CUDA Programming Guide documents __expf(t) within
// 2 + floor(1.173 |t|) ulp (the argument t*log2(e) is rounded to f32 before ex2.approx, an error
// that grows with |t|) and __fdividef within 2 ulp for divisors in [2^-126, 2^126] (the sum is in
// [1, n]). So the exp term becomes 2 + 1.173|t| ulp and the division 2 ulp. Flush-to-zero drops
// terms below 2^-126 from a sum that is at least 1 (n * 2^-126 relative: below eps for every row
// kverify draws) and flushes outputs below 2^-126, which the absolute floor already allows. The
// baseline rule compares the rest with the eager composition: the excess of __expf and __fdividef
// over expf and IEEE division, (1.173|t| + 1.5) ulp, and the flushed outputs below 2^-125 are the
// approximation allowance.
class SoftmaxTolerance final : public Tolerance {
 public:
  SoftmaxTolerance(DType dtype, std::int64_t n, bool fast_math)
      : dtype_(dtype),
        n_(n),
        sum_terms_(static_cast<double>(n) / 32.0 + std::log2(static_cast<double>(n) + 1)),
        fast_math_(fast_math) {}

  double bound(const Expected& e) const override {
    const double v = std::fabs(e.value);
    const double exp_ulps = fast_math_ ? 2.0 + 1.173 * e.condition : 2.0;
    const double division_ulps = fast_math_ ? 2.0 : 0.5;
    const double rel_f32 = kEpsF32 * (0.5 * e.condition + exp_ulps + 0.5 * sum_terms_ + division_ulps);
    double b = rel_f32 * v;
    if (dtype_ != DType::f32) b += ulp(dtype_, v);
    const double floor = dtype_ == DType::f16 ? 0x1.0p-24 : 0x1.0p-126;
    return std::max(b, floor);
  }

  double approximation_allowance(const Expected& e) const override {
    if (!fast_math_) return 0.0;
    const double v = std::fabs(e.value);
    // Flush-to-zero: an output near or below 2^-126 may come out 0 (an error of all of it).
    return kEpsF32 * (1.173 * e.condition + 1.5) * v + (v < 0x1.0p-125 ? v : 0.0);
  }

  std::string describe() const override {
    std::ostringstream out;
    if (fast_math_)
      out << "softmax " << name(dtype_)
          << " fast_math (__expf 2 + 1.173|t| ulp, __fdividef 2 ulp, flush-to-zero): |err| <= eps32*(1.673|x-max| + "
             "4 + (n/32+log2 n)/2)*|y|";
    else
      out << "softmax " << name(dtype_) << ": |err| <= eps32*(|x-max|/2 + 2.5 + (n/32+log2 n)/2)*|y|";
    out << (dtype_ == DType::f32 ? "" : " + 1 ulp(" + std::string(name(dtype_)) + ")") << ", floor "
        << (dtype_ == DType::f16 ? "2^-24" : "2^-126") << " (n=" << n_ << ")";
    return out.str();
  }

 private:
  DType dtype_;
  std::int64_t n_;
  double sum_terms_;
  bool fast_math_;
};

// One row of softmax, the precision a parameter (CUTLASS's host reference style): Real is the
// arithmetic, round() what each intermediate is stored as. The reference is Real = double with no
// rounding; the eager baseline is Real = float with every intermediate rounded to the storage dtype,
// as an eager framework stores each op's output (its sum accumulates in f32, as torch.sum does for
// half types). The contract's out-of-domain rows are the reference's business (softmax_reference).
template <typename Real, typename Round>
void softmax_row(const TensorView& x, std::int64_t r, Round round, std::vector<Real>& e, double* y) {
  Real max = -std::numeric_limits<Real>::infinity();
  for (std::int64_t c = 0; c < x.cols(); ++c) max = std::fmax(max, static_cast<Real>(x.at(r, c)));
  Real sum = 0;
  for (std::int64_t c = 0; c < x.cols(); ++c) {
    e[c] = round(std::exp(round(static_cast<Real>(x.at(r, c)) - max)));
    sum += e[c];
  }
  sum = round(sum);
  for (std::int64_t c = 0; c < x.cols(); ++c) y[c] = round(e[c] / sum);
}

}  // namespace

Expectations softmax_reference(const TensorView& x) {
  Expectations out{x.rows(), x.cols(), std::vector<Expected>(static_cast<std::size_t>(x.rows() * x.cols()))};
  std::vector<double> e(static_cast<std::size_t>(x.cols())), y(static_cast<std::size_t>(x.cols()));
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    bool nan_row = false;
    double max = -std::numeric_limits<double>::infinity();
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const double v = x.at(r, c);
      if (std::isnan(v) || v == std::numeric_limits<double>::infinity()) nan_row = true;
      max = std::max(max, v);
    }
    if (max == -std::numeric_limits<double>::infinity()) nan_row = true;  // all -inf
    Expected* out_row = &out.values[static_cast<std::size_t>(r * x.cols())];
    if (nan_row) {
      for (std::int64_t c = 0; c < x.cols(); ++c)
        out_row[c] = {std::numeric_limits<double>::quiet_NaN(), Expected::Kind::nan, 0};
      continue;
    }
    // f64 keeps 29 more bits than f32: exp's and the sum's rounding errors here are far below the
    // f32 kernel's, so this reference decides every f32/f16/bf16 softmax output.
    softmax_row<double>(x, r, NoRounding{}, e, y.data());
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const double v = x.at(r, c);
      if (v == -std::numeric_limits<double>::infinity())
        out_row[c] = {0.0, Expected::Kind::exact, 0};
      else
        out_row[c] = {y[c], Expected::Kind::approx, max - v};
    }
  }
  return out;
}

std::vector<double> softmax_eager(const TensorView& x, DType storage) {
  std::vector<double> y(static_cast<std::size_t>(x.rows() * x.cols()));
  std::vector<float> e(static_cast<std::size_t>(x.cols()));
  for (std::int64_t r = 0; r < x.rows(); ++r) softmax_row<float>(x, r, StorageRounding{storage}, e, &y[r * x.cols()]);
  return y;
}

Expectations softmax_reference_exact(const TensorView& x) {
  namespace mp = boost::multiprecision;
  using Precise = mp::number<mp::mpfr_float_backend<50>, mp::et_off>;  // 166 bits
  Expectations out = softmax_reference(x);  // the contract; only the in-domain arithmetic differs
  std::vector<Precise> e(static_cast<std::size_t>(x.cols()));
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    if (out.at(r, 0).kind == Expected::Kind::nan) continue;
    double max = -std::numeric_limits<double>::infinity();
    for (std::int64_t c = 0; c < x.cols(); ++c) max = std::max(max, x.at(r, c));
    Precise sum = 0;
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const double v = x.at(r, c);
      e[c] = std::isinf(v) ? Precise(0) : mp::exp(Precise(v) - max);
      sum += e[c];
    }
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      Expected& y = out.values[static_cast<std::size_t>(r * x.cols() + c)];
      if (y.kind == Expected::Kind::approx) y.value = static_cast<double>(e[c] / sum);
    }
  }
  return out;
}

std::unique_ptr<Tolerance> softmax_tolerance(DType dtype, std::int64_t row_length) {
  return std::make_unique<SoftmaxTolerance>(dtype, row_length, false);
}

std::unique_ptr<Tolerance> softmax_fast_math_tolerance(DType dtype, std::int64_t row_length) {
  return std::make_unique<SoftmaxTolerance>(dtype, row_length, true);
}

}  // namespace kverify
