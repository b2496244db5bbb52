// The gelu_tanh reference against the literal formula 0.5 x (1 + tanh(u)) evaluated with 1000
// decimal digits (Boost.Multiprecision, header-only): enough that 1 + tanh(u) does not cancel even
// at x = -30, where it is ~1e-857. Independent of the reference's own sigmoid and double-double
// rewriting. Then the contract's special values and signs, strides, and the tolerance policy.
#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "ops/gelu_tanh/gelu_tanh.hpp"

namespace {

using kverify::DType;
using kverify::Expected;
using Big = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<1000>, boost::multiprecision::et_off>;

// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), literally, correctly rounded to double at the end.
double literal_formula(double x) {
  const Big bx = x;
  const Big k = Big(44715) / Big(1000000);
  const Big c = sqrt(Big(2) / boost::math::constants::pi<Big>());
  const Big u = c * (bx + k * bx * bx * bx);
  return (Big(0.5) * bx * (Big(1) + tanh(u))).convert_to<double>();
}

double relative_error(double got, double want) { return std::fabs(got - want) / std::fabs(want); }

TEST(GeluTanhReference, MatchesTheLiteralFormulaInHighPrecision) {
  // f32 values (what an f32 kernel is given), over the whole range where y is a normal double.
  for (float xf : {-21.0f, -20.0f, -15.5f,  -10.0f,    -9.0f,  -5.0f, -3.0f, -2.0f,      -1.0f,
                   -0.5f,  -1e-3f, -1e-30f, 0x1p-149f, 1e-30f, 1e-3f, 0.5f,  0.7978846f, 1.0f,
                   2.0f,   3.0f,   5.0f,    10.0f,     11.0f,  16.0f, 1e6f,  1e20f,      3.4028235e38f}) {
    const double x = xf;
    const Expected e = kverify::gelu_tanh_expected(x);
    const double want = literal_formula(x);
    ASSERT_TRUE(std::isnormal(want)) << x;
    EXPECT_EQ(e.kind, Expected::Kind::approx) << x;
    EXPECT_LE(relative_error(e.value, want), 1e-15) << "x = " << x << ": " << e.value << " vs " << want;
  }
}

TEST(GeluTanhReference, NegativeTailKeepsFullPrecisionWhereTanhCancels) {
  // 1 + tanh(u) is ~9e-8 at x = -5, ~1e-37 at -10, ~1e-261 at -20: the plain f64 formula keeps no
  // correct digit at -20 (it gives exactly 0); the reference keeps ~16.
  const double cancelled = 0.5 * -20.0 * (1.0 + std::tanh(0.7978845608028654 * (-20.0 + 0.044715 * -8000.0)));
  EXPECT_EQ(cancelled, 0.0);
  for (double x : {-5.0, -10.0, -20.0}) {
    const double want = literal_formula(x);
    EXPECT_LE(relative_error(kverify::gelu_tanh_expected(x).value, want), 1e-15) << x;
  }
  EXPECT_NEAR(literal_formula(-20.0) / -3.3754509563109673e-261, 1.0, 1e-15) << "the high-precision side itself";
  // At x = -30 the value (~ -1e-856) is below every double: it rounds to -0, and so does the reference.
  const Big tiny = [] {
    const Big x = -30;
    const Big u = sqrt(Big(2) / boost::math::constants::pi<Big>()) * (x + Big(44715) / Big(1000000) * x * x * x);
    return Big(0.5) * x * (Big(1) + tanh(u));
  }();
  EXPECT_LT(tiny, Big(0));
  EXPECT_GT(tiny, Big("-1e-800"));
  const double y30 = kverify::gelu_tanh_expected(-30.0).value;
  EXPECT_EQ(y30, 0.0);
  EXPECT_TRUE(std::signbit(y30));
  EXPECT_EQ(literal_formula(-30.0), y30);
}

TEST(GeluTanhReference, FiniteForEveryFiniteInputWithTheLimitsAtTheEnds) {
  const double y11 = kverify::gelu_tanh_expected(11.0).value;
  EXPECT_TRUE(std::isfinite(y11));
  EXPECT_EQ(y11, 11.0) << "1 - sigmoid(2u) ~ 1e-49 at x = 11";
  const double max32 = std::numeric_limits<float>::max();
  EXPECT_EQ(kverify::gelu_tanh_expected(max32).value, max32);
  const double y_neg = kverify::gelu_tanh_expected(-max32).value;
  EXPECT_EQ(y_neg, 0.0);
  EXPECT_TRUE(std::signbit(y_neg)) << "y has the sign of x";
  EXPECT_EQ(kverify::gelu_tanh_expected(-max32).condition * 0.0, 0.0) << "finite condition";
  EXPECT_EQ(kverify::gelu_tanh_expected(1e100).value, 1e100) << "f64 inputs beyond x^3's range";
  EXPECT_TRUE(std::signbit(kverify::gelu_tanh_expected(-1e100).value));
}

TEST(GeluTanhReference, ZerosInfinitiesAndNanFollowTheContract) {
  const double inf = std::numeric_limits<double>::infinity();
  const Expected pz = kverify::gelu_tanh_expected(0.0), nz = kverify::gelu_tanh_expected(-0.0);
  EXPECT_EQ(pz.kind, Expected::Kind::exact);
  EXPECT_EQ(nz.kind, Expected::Kind::exact);
  EXPECT_EQ(pz.value, 0.0);
  EXPECT_FALSE(std::signbit(pz.value));
  EXPECT_EQ(nz.value, 0.0);
  EXPECT_TRUE(std::signbit(nz.value));
  const Expected pi = kverify::gelu_tanh_expected(inf), ni = kverify::gelu_tanh_expected(-inf);
  EXPECT_EQ(pi.kind, Expected::Kind::exact);
  EXPECT_EQ(pi.value, inf);
  EXPECT_EQ(ni.kind, Expected::Kind::exact);
  EXPECT_EQ(ni.value, 0.0);
  EXPECT_TRUE(std::signbit(ni.value)) << "-inf -> -0";
  EXPECT_EQ(kverify::gelu_tanh_expected(std::nan("")).kind, Expected::Kind::nan);
  // The smallest subnormal f32 halves (y = x sigmoid(~0)), keeping its sign.
  EXPECT_EQ(kverify::gelu_tanh_expected(-0x1p-149).value, -0x1p-150);
}

TEST(GeluTanhReference, ConditionIsTheExpArgumentsLeverage) {
  // |t| (1 - sigmoid(t)), t = sqrt(8/pi)(x + 0.044715 x^3): ~|t| for x << 0, ~0 for x >> 0.
  const double t10 = std::sqrt(8.0 / std::numbers::pi) * (10.0 + 44.715);
  EXPECT_NEAR(kverify::gelu_tanh_expected(-10.0).condition, t10, 1e-9);
  EXPECT_LT(kverify::gelu_tanh_expected(10.0).condition, 1e-30);
  const double t1 = std::sqrt(8.0 / std::numbers::pi) * (1.0 + 0.044715);
  EXPECT_NEAR(kverify::gelu_tanh_expected(1.0).condition, t1 / (1.0 + std::exp(t1)), 1e-15);
}

TEST(GeluTanhReference, ReadsThroughStridesIntoLogicalRowMajorOrder) {
  // A 2 x 3 f32 tensor stored column-major (strides 1, 2) after an offset of 1 element.
  const std::vector<float> storage{99.0f, -1.0f, 2.0f, 0.5f, -20.0f, 11.0f, -0.0f};
  const kverify::TensorView x{reinterpret_cast<const unsigned char*>(storage.data()), kverify::Layout2D{2, 3, 1, 2, 1},
                              DType::f32};
  const auto y = kverify::gelu_tanh_reference(x);
  ASSERT_EQ(y.rows, 2);
  ASSERT_EQ(y.cols, 3);
  const double logical[2][3] = {{-1.0, 0.5, 11.0}, {2.0, -20.0, -0.0}};
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      const Expected want = kverify::gelu_tanh_expected(logical[r][c]);
      EXPECT_EQ(y.at(r, c).value, want.value) << r << "," << c;
      EXPECT_EQ(std::signbit(y.at(r, c).value), std::signbit(want.value)) << r << "," << c;
    }
  EXPECT_LE(relative_error(y.at(0, 0).value, literal_formula(-1.0)), 1e-15);
}

TEST(GeluTanhTolerance, RelativeBoundGrowsWithTheConditionPlusUlpAndFloor) {
  const auto f32 = kverify::gelu_tanh_tolerance(DType::f32);
  const auto f16 = kverify::gelu_tanh_tolerance(DType::f16);
  const auto bf16 = kverify::gelu_tanh_tolerance(DType::bf16);
  const double eps = 0x1p-23;
  EXPECT_DOUBLE_EQ(f32->bound({1.0, Expected::Kind::approx, 0}), 4 * eps);
  EXPECT_DOUBLE_EQ(f32->bound({1.0, Expected::Kind::approx, 100}), 304 * eps);
  EXPECT_DOUBLE_EQ(f16->bound({1.0, Expected::Kind::approx, 0}), 4 * eps + kverify::ulp(DType::f16, 1.0));
  EXPECT_DOUBLE_EQ(bf16->bound({1.0, Expected::Kind::approx, 0}), 4 * eps + kverify::ulp(DType::bf16, 1.0));
  EXPECT_EQ(f32->bound({0.0, Expected::Kind::approx, 110}), 0x1p-126) << "underflowed negative tail";
  EXPECT_EQ(bf16->bound({-1e-40, Expected::Kind::approx, 110}), 0x1p-126);
  EXPECT_EQ(f16->bound({0.0, Expected::Kind::approx, 30}), 0x1p-24);
  EXPECT_NE(f32->describe().find("gelu_tanh f32"), std::string::npos) << f32->describe();
  EXPECT_NE(f16->describe().find("1 ulp(f16)"), std::string::npos) << f16->describe();
  EXPECT_EQ(f32->describe().find('\n'), std::string::npos) << "one line";
}

}  // namespace

// The accuracy-note tier's bound is the framework formula's, element by element: it holds the whole
// value where 1 + tanhf(u) cancels (x = -10: PyTorch's formula gives -0), and adds nothing that would
// excuse a wrong coefficient where the formula is accurate (x = 2: 0.0447 for 0.044715 is ~36 eps32).
TEST(GeluTanhTolerance, TheFrameworkBoundHoldsTheCancelledTailAndNothingElse) {
  const auto f32 = kverify::gelu_tanh_tolerance(DType::f32);
  const Expected tail = kverify::gelu_tanh_expected(-10.0);
  const double pytorch_tail = 0.5 * -10.0f * (1.0f + std::tanh(0.7978845608f * (-10.0f + 0.044715f * -1000.0f)));
  EXPECT_EQ(pytorch_tail, 0.0);
  EXPECT_GT(std::fabs(tail.value), f32->bound(tail));
  EXPECT_LE(std::fabs(tail.value), f32->framework_bound(tail));
  const Expected two = kverify::gelu_tanh_expected(2.0);
  const double wrong_constant_error = 36 * 0x1.0p-23 * std::fabs(two.value);
  EXPECT_GT(wrong_constant_error, f32->framework_bound(two));
  EXPECT_FALSE(f32->framework_formula().empty());
}
