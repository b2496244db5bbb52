#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "ops/gelu_tanh/gelu_tanh.hpp"
#include "reference/baseline.hpp"

namespace kverify {
namespace {

constexpr double kEpsF32 = 0x1.0p-23;  // f32 unit roundoff is half of this

// --- the reference value -----------------------------------------------------------------------
//
// y = 0.5 x (1 + tanh(u)) = x sigmoid(t), t = 2u = sqrt(8/pi) (x + 0.044715 x^3), evaluated as
//   t >= 0: x / (1 + exp(-t)),   t < 0: x e / (1 + e), e = exp(t)
// so that nothing overflows and 1 + tanh(u) never cancels (in plain f64, 0.5 x (1 + tanh(u)) is
// exactly 0 at x = -20 where the value is -3.4e-261).
//
// exp multiplies t's relative rounding error by |t|: at x = -20, t = -603, and t rounded once in
// f64 would already cost ~1e-13 relative. So t is formed in double-double (hi + lo, ~2^-104
// relative, the constants split into hi + lo parts too), and exp(hi + lo) = exp(hi) (1 + lo)
// (|lo| <= 2^-53 |hi|: the dropped lo^2/2 is below 2^-100). What remains are ~5 f64 roundings
// (exp within 1 ulp, the product, the sum, the division): y to ~1e-15 relative wherever y is a
// normal double; ops/gelu_tanh/tests/reference_test.cpp checks that against the literal
// formula evaluated with 1000 digits.

struct DoubleDouble {
  double hi, lo;
};

DoubleDouble two_prod(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

DoubleDouble quick_two_sum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}

DoubleDouble two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

DoubleDouble mul(DoubleDouble a, DoubleDouble b) {
  DoubleDouble p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return quick_two_sum(p.hi, p.lo);
}

DoubleDouble add(DoubleDouble a, DoubleDouble b) {
  DoubleDouble s = two_sum(a.hi, b.hi);
  s.lo += a.lo + b.lo;
  return quick_two_sum(s.hi, s.lo);
}

// sqrt(8/pi) to ~2^-106 (hi: the nearest double; lo: the rest, from a 300-bit evaluation).
constexpr DoubleDouble kSqrt8OverPi{0x1.9884533d43651p+0, -0x1.cbc0d30ebfd15p-54};

// 0.044715 = 44715 / 10^6: hi is the nearest double; hi * 10^6 - 44715 is a multiple of ulp(hi) =
// 2^-57 below 2^-38 in magnitude, so fma gives it exactly, and lo = -(that) / 10^6.
DoubleDouble cubic_coefficient() {
  static const DoubleDouble k = [] {
    const double hi = 0.044715;
    return DoubleDouble{hi, -std::fma(hi, 1e6, -44715.0) / 1e6};
  }();
  return k;
}

// t = sqrt(8/pi) (x + 0.044715 x^3) in double-double; finite for |x| <= 1e50.
DoubleDouble exp_argument(double x) {
  const DoubleDouble x3 = mul(two_prod(x, x), {x, 0.0});
  return mul(kSqrt8OverPi, add({x, 0.0}, mul(cubic_coefficient(), x3)));
}

// --- the tolerance policy ------------------------------------------------------------------------
//
// gelu_tanh in f32 (kernels/gelu_tanh/gelu_tanh_math.cuh), output stored in `dtype`.
// Relative error of y = x sigmoid(t), against this reference, in units of eps32 = 2^-23:
//   - t in f32 carries <= 6 roundings of eps32/2 each (the constants sqrt(8/pi) and 0.044715 in f32,
//     0.044715 x, the fma with x, the products by x and by the constant): 3 eps32 relative.
//     y's relative sensitivity to t's relative error is |t| (1 - sigmoid(t)) = Expected::condition,
//     so this costs 3 * condition (exp is ill-conditioned for |t| large: for x = -10, t = -87 and
//     the f32 rounding of u alone is worth ~260 eps32; this is not a kernel bug);
//   - expf: CUDA documents <= 2 ulp (<= 2 eps32 relative; the host libm on emu is within 1);
//   - 1 + e, the product x e (t < 0) and the IEEE division: 1.5 eps32.
//   Together 3 * condition + 3.5, rounded up to 3 * condition + 4. __expf (2 + floor(1.173 |t|)
//   ulp) does not fit: a kernel built with --use_fast_math registers POLICY fast_math (below).
// Then the output rounding to f16/bf16 adds at most one ulp of that dtype (0.5 ulp from rounding,
// doubled because the f32 value can sit on the other side of a rounding midpoint).
// Absolute floor, for outputs that underflow (the negative tail, x <~ -9.5): f32 and bf16 keep
// full precision down to 2^-126, below which values are subnormal (and a flush-to-zero build would
// give 0); f16 stores nothing finer than 2^-24.
// What it catches: a wrong cubic coefficient (0.0447) moves t by 1.9e-4 at x = +-2, so y by
// 1.9e-4 (1 - sigmoid(t)) relative: ~36 eps32 at x = 2 (bound ~4.3 eps32) and ~1560 eps32 at
// x = -2 (bound ~15 eps32); the erf GELU differs by percents; tanh(u) as (e^2u - 1)/(e^2u + 1) is
// NaN at x = 11; 1 + tanhf(u) keeps ~1e-5 relative at x = -3 and nothing at x = -6
// (ops/gelu_tanh/tests/pipeline_test.cpp runs each of them and fails it).
//
// The fast-math policy (POLICY fast_math: nvcc --use_fast_math): expf is __expf, within
// 2 + floor(1.173 |t|) ulp (CUDA Programming Guide, intrinsic functions), x / y is __fdividef
// (2 ulp for divisors in [2^-126, 2^126]: 1 + e is in [1, 2]), subnormals flush to zero. exp's
// relative error reaches y times (1 - sigmoid t) on both branches (y = x / (1 + e) and x e / (1 + e)
// have d ln y / d ln e = -(1 - sigmoid t) and 1 - sigmoid t), so it costs (2 + 1.173 |t|)(1 - sigmoid t)
// <= 2 + 1.173 condition; the division 1.5 more than IEEE's. Together 4.173 condition + 5, rounded up
// to + 6. Flush-to-zero: a flushed result is below 2^-126, inside the floor (f16's is coarser
// still), but a flushed e = exp(t) < 2^-126 takes y = x e / (1 + e) with it: |x| 2^-126 more.
// What the baseline rule leaves to the eager composition is the rest: the excess
// (1.173 condition + 2) eps32 |y|, the flushed e, and an output near 2^-126 flushed, are the
// approximation allowance.
class GeluTanhTolerance final : public Tolerance {
 public:
  GeluTanhTolerance(DType dtype, bool fast_math) : dtype_(dtype), fast_math_(fast_math) {}

  double bound(const Expected& e) const override {
    const double v = std::fabs(e.value);
    double b = fast_math_ ? kEpsF32 * (4.173 * e.condition + 6.0) * v + flushed_exp(e)
                          : kEpsF32 * (3.0 * e.condition + 4.0) * v;
    if (dtype_ != DType::f32) b += ulp(dtype_, v);
    const double floor = dtype_ == DType::f16 ? 0x1.0p-24 : 0x1.0p-126;
    return std::max(b, floor);
  }

  // The baseline rule's unit: an f32 evaluation must round t, and that rounding reaches y
  // amplified by the condition |t| (1 - sigmoid t) (near x = -1.4 about 2.2): one rounding of t is
  // 2^-23 * condition * |y|, more than an output ulp there. Without it the rule compared rounding
  // luck (a fuzzer found an 8x3 Case where the eager composition happened to be 1 ulp off and a
  // correct kernel 4).
  double error_unit(const Expected& e, DType out) const override {
    return std::max(ulp(out, e.value), 0x1.0p-23 * e.condition * std::fabs(e.value));
  }

  double approximation_allowance(const Expected& e) const override {
    if (!fast_math_) return 0.0;
    const double v = std::fabs(e.value);
    return kEpsF32 * (1.173 * e.condition + 2.0) * v + flushed_exp(e) + (v < 0x1.0p-125 ? v : 0.0);
  }

  // The formula eager frameworks compute (the accuracy-note tier): PyTorch's
  // F.gelu(x, approximate="tanh") evaluates 0.5 x (1 + tanh(u)) in f32 (its CUDA kernel,
  // aten/src/ATen/native/cuda/ActivationGeluKernel.cu, in opmath_t = float for every storage
  // dtype) and rounds once to the storage dtype; llm.c and most tutorials write the same line.
  // Its error against this reference, in the terms above:
  //   - u carries the same 6 roundings as t: 3 * condition eps32 relative, as in bound();
  //   - tanhf: <= 2 ulp of |tanh(u)| <= 1, so <= eps32 absolute, and 1 + tanh(u) keeps that
  //     absolute error however small 1 + tanh(u) = 2 sigmoid(t) has become: 0.5 |x| eps32 on y
  //     (at x = -6, y = -6e-8 carries up to 3.6e-7: the whole value; at x = -10 the formula gives -0);
  //   - 1 + tanh, the product: eps32 relative; the output rounding: as in bound().
  // So bound() + 0.5 |x| eps32. Each element is judged on its own: a kernel that is off where the
  // formula is exact (a wrong constant at x = 2) still fails, whatever the formula loses at x = -10.
  double framework_bound(const Expected& e) const override {
    return bound(e) + 0.5 * static_cast<double>(e.input_magnitude) * kEpsF32;
  }

  std::string framework_formula() const override {
    return "PyTorch's F.gelu(x, approximate='tanh'), 0.5 x (1 + tanhf(u)) in f32 (ATen's ActivationGeluKernel.cu): "
           "the derived bound + 0.5|x| eps32";
  }

  std::string describe() const override {
    std::ostringstream out;
    if (fast_math_)
      out << "gelu_tanh " << name(dtype_)
          << " fast_math (__expf 2 + 1.173|t| ulp, __fdividef 2 ulp, flush-to-zero): |err| <= "
             "eps32*(4.173*|t|(1-sigmoid "
             "t) + 6)*|y| + |x|*2^-126";
    else
      out << "gelu_tanh " << name(dtype_) << ": |err| <= eps32*(3*|t|(1-sigmoid t) + 4)*|y|";
    out << (dtype_ == DType::f32 ? "" : " + 1 ulp(" + std::string(name(dtype_)) + ")") << ", floor "
        << (dtype_ == DType::f16 ? "2^-24" : "2^-126") << " (t = 2u = sqrt(8/pi)(x + 0.044715 x^3))";
    return out.str();
  }

 private:
  static double flushed_exp(const Expected& e) { return static_cast<double>(e.input_magnitude) * 0x1.0p-126; }

  DType dtype_;
  bool fast_math_;
};

}  // namespace

Expected gelu_tanh_expected(double x) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (std::isnan(x)) return {std::numeric_limits<double>::quiet_NaN(), Expected::Kind::nan, 0};
  if (x == kInf) return {kInf, Expected::Kind::exact, 0};
  if (x == -kInf || x < -1e50) return {-0.0, x == -kInf ? Expected::Kind::exact : Expected::Kind::approx, 0};
  if (x > 1e50) return {x, Expected::Kind::approx, 0};  // f64 inputs only: every f32 goes through t
  if (x == 0) return {x, Expected::Kind::exact, 0};     // keeps the sign of zero
  const DoubleDouble t = exp_argument(x);
  double y, one_minus_sigmoid;
  if (t.hi >= 0) {
    const double e = std::exp(-t.hi) * (1.0 - t.lo);
    y = x / (1.0 + e);
    one_minus_sigmoid = e / (1.0 + e);
  } else {
    const double e = std::exp(t.hi) * (1.0 + t.lo);
    y = (x * e) / (1.0 + e);
    one_minus_sigmoid = 1.0 / (1.0 + e);
  }
  return {y, Expected::Kind::approx, std::fabs(t.hi) * one_minus_sigmoid,
          static_cast<float>(std::min(std::fabs(x), 0x1.fffffep+127))};
}

Expectations gelu_tanh_reference(const TensorView& x) {
  Expectations out{x.rows(), x.cols(), std::vector<Expected>(static_cast<std::size_t>(x.rows() * x.cols()))};
  for (std::int64_t r = 0; r < x.rows(); ++r)
    for (std::int64_t c = 0; c < x.cols(); ++c)
      out.values[static_cast<std::size_t>(r * x.cols() + c)] = gelu_tanh_expected(x.at(r, c));
  return out;
}

std::unique_ptr<Tolerance> gelu_tanh_tolerance(DType dtype) {
  return std::make_unique<GeluTanhTolerance>(dtype, false);
}
std::unique_ptr<Tolerance> gelu_tanh_fast_math_tolerance(DType dtype) {
  return std::make_unique<GeluTanhTolerance>(dtype, true);
}

std::vector<double> gelu_tanh_eager(const TensorView& x, DType storage) {
  const StorageRounding q{storage};
  std::vector<double> y;
  const float k0 = 0.7978845608028654f, k1 = 0.044715f;
  for (std::int64_t r = 0; r < x.rows(); ++r)
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const float v = static_cast<float>(x.at(r, c));
      const float cube = q(q(v * v) * v);
      const float inner = q(k0 * q(v + q(k1 * cube)));
      y.push_back(q(q(0.5f * v) * q(1.0f + q(std::tanh(inner)))));
    }
  return y;
}

}  // namespace kverify
