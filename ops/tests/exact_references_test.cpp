// The exact references: correctly rounded sums and dot products (checked against integer
// arithmetic), where plain float64 goes wrong, and the float64 references against the exact ones.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ops/matmul_relu/matmul_relu.hpp"
#include "ops/row_sum/row_sum.hpp"
#include "ops/softmax/softmax.hpp"
#include "reference/exact.hpp"
#include "reference/metrics.hpp"

namespace {

using kverify::DType;

double plain_sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

TEST(ExactSum, CancellationThatFloat64Loses) {
  const std::vector<double> v{1e30, 1, -1e30};
  EXPECT_EQ(plain_sum(v), 0.0) << "float64 loses the 1";
  EXPECT_EQ(kverify::exact_sum(v), 1.0);
}

// Values m * 2^e with |m| < 2^24 and e in [-40, 40]: scaled by 2^40 they are integers below 2^104,
// so an __int128 sum of up to 2^20 of them is exact, and converting it to double rounds once (to
// nearest even): an oracle independent of MPFR.
std::vector<double> scaled_integer_values(std::mt19937_64& rng, int n, bool cancel) {
  std::uniform_int_distribution<int> mant(-(1 << 24) + 1, (1 << 24) - 1), exp(-40, 40);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(std::ldexp(mant(rng), exp(rng)));
  if (cancel) {
    const std::size_t half = v.size();
    for (std::size_t i = 0; i < half; ++i) v.push_back(-v[i] * (i % 7 == 0 ? 1.0 : 1.0));  // exact negation
    v.push_back(std::ldexp(1.0, -40));                                                     // the survivor
  }
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

double oracle_sum(const std::vector<double>& v) {
  __int128 s = 0;
  for (double x : v) s += static_cast<__int128>(std::ldexp(x, 40));
  return std::ldexp(static_cast<double>(s), -40);
}

TEST(ExactSum, CorrectlyRoundedAgainstIntegerArithmetic) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const auto v = scaled_integer_values(rng, 1 + trial * 37 % 3000, trial % 3 == 0);
    ASSERT_EQ(kverify::exact_sum(v), oracle_sum(v)) << "trial " << trial;
  }
}

TEST(ExactDot, CorrectlyRoundedAgainstIntegerArithmetic) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> mant(-(1 << 11), 1 << 11), exp(-20, 20);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> a, b;
    __int128 oracle = 0;  // products scaled by 2^40 are integers below 2^(22+40+40)
    for (int i = 0; i < 500; ++i) {
      a.push_back(std::ldexp(mant(rng), exp(rng)));
      b.push_back(std::ldexp(mant(rng), exp(rng)));
      oracle += static_cast<__int128>(std::ldexp(a.back(), 20)) * static_cast<__int128>(std::ldexp(b.back(), 20));
    }
    ASSERT_EQ(kverify::exact_dot(a, b), std::ldexp(static_cast<double>(oracle), -40)) << "trial " << trial;
  }
}

TEST(RowSumReference, SeedExampleOneToTenIs55AndCancellationIsDecidedExactly) {
  std::vector<float> ramp{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const kverify::TensorView x{reinterpret_cast<const unsigned char*>(ramp.data()), kverify::Layout2D::row_major(1, 10),
                              DType::f32};
  const auto y = kverify::row_sum_reference(x, DType::f32);
  EXPECT_EQ(y.at(0, 0).value, 55.0);
  EXPECT_EQ(y.at(0, 0).kind, kverify::Expected::Kind::exact) << "integers: the kernel must match bit for bit";

  std::vector<float> cancel{1e30f, 1.0f, -1e30f};
  const kverify::TensorView z{reinterpret_cast<const unsigned char*>(cancel.data()), kverify::Layout2D::row_major(1, 3),
                              DType::f32};
  EXPECT_EQ(kverify::row_sum_reference(z, DType::f32).at(0, 0).value, 1.0);
}

TEST(MatmulReluReference, CancellingDotProductsAreDecidedExactly) {
  // Row of A: [1e20, 1, -1e20]; column of B: all ones. float64 gives 0, the exact dot gives 1.
  const std::vector<float> a{1e20f, 1.0f, -1e20f};
  const std::vector<float> b{1.0f, 1.0f, 1.0f};
  const kverify::TensorView A{reinterpret_cast<const unsigned char*>(a.data()), kverify::Layout2D::row_major(1, 3),
                              DType::f32};
  const kverify::TensorView B{reinterpret_cast<const unsigned char*>(b.data()), kverify::Layout2D::row_major(3, 1),
                              DType::f32};
  EXPECT_EQ(1e20 + 1.0 - 1e20, 0.0);
  EXPECT_EQ(kverify::matmul_relu_reference(A, B).at(0, 0).value, 1.0);
}

TEST(MatmulReluReference, Float64AgreesWithTheExactDotOnRandomData) {
  std::mt19937_64 rng(5);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> a(16 * 300), b(300 * 8);
  for (auto& v : a) v = normal(rng);
  for (auto& v : b) v = normal(rng);
  const kverify::TensorView A{reinterpret_cast<const unsigned char*>(a.data()), kverify::Layout2D::row_major(16, 300),
                              DType::f32};
  const kverify::TensorView B{reinterpret_cast<const unsigned char*>(b.data()), kverify::Layout2D::row_major(300, 8),
                              DType::f32};
  const auto c = kverify::matmul_relu_reference(A, B);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      std::vector<double> row(a.begin() + m * 300, a.begin() + (m + 1) * 300), col;
      for (int k = 0; k < 300; ++k) col.push_back(b[k * 8 + n]);
      const double exact = std::max(0.0, kverify::exact_dot(row, col));
      EXPECT_NEAR(c.at(m, n).value, exact, 300 * 0x1.0p-53 * c.at(m, n).condition) << m << "," << n;
    }
}

TEST(SoftmaxReference, Float64AgreesWithMpfrOnRandomAndAdversarialRows) {
  std::mt19937_64 rng(3);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (float scale : {1.0f, 30.0f, 1e4f}) {
    for (int width : {1, 7, 1000, 20000}) {
      std::vector<float> v(static_cast<std::size_t>(2 * width));
      for (auto& x : v) x = normal(rng) * scale;
      v[3 % v.size()] = 88.0f * scale;  // a dominant logit
      const kverify::TensorView x{reinterpret_cast<const unsigned char*>(v.data()),
                                  kverify::Layout2D::row_major(2, width), DType::f32};
      const auto plain = kverify::softmax_reference(x);
      const auto exact = kverify::softmax_reference_exact(x);
      double worst = 0;
      for (std::size_t i = 0; i < plain.values.size(); ++i) {
        const double e = exact.values[i].value;
        if (e < 1e-300) continue;  // underflowed in f64: an absolute error below 1e-300
        worst = std::max(worst, std::fabs(plain.values[i].value - e) / e);
      }
      // float64's own error: exp within 1 ulp, a sum of `width` positive terms, a division.
      EXPECT_LT(worst, (width + 4) * 0x1.0p-52) << "scale " << scale << " width " << width;
    }
  }
}

TEST(UlpDistance, AcrossZeroSubnormalsInfinitiesAndEveryDtype) {
  for (DType d : {DType::f32, DType::f16, DType::bf16}) {
    const auto& i = kverify::info(d);
    const double tiny = std::ldexp(1.0, i.min_exponent - i.mantissa_bits);  // smallest subnormal
    const double min_normal = std::ldexp(1.0, i.min_exponent);
    EXPECT_EQ(kverify::ulp_distance(d, 0.0, -0.0), 0);
    EXPECT_EQ(kverify::ulp_distance(d, tiny, -tiny), 2) << "one step each side of zero";
    EXPECT_EQ(kverify::ulp_distance(d, 0.0, 3 * tiny), 3);
    EXPECT_EQ(kverify::ulp_distance(d, min_normal - tiny, min_normal), 1) << "subnormal to normal";
    EXPECT_EQ(kverify::ulp_distance(d, i.max_finite, INFINITY), 1);
    EXPECT_EQ(kverify::ulp_distance(d, -i.max_finite, i.max_finite),
              2 * static_cast<double>(kverify::ordinal(d, i.max_finite)));
    EXPECT_EQ(kverify::ulp_distance(d, 1.0, 1.0 + std::ldexp(1.0, -i.mantissa_bits)), 1);
    EXPECT_EQ(kverify::ulp_distance(d, 1.0, 1.0 - std::ldexp(1.0, -i.mantissa_bits - 1)), 1) << "binade below 1";
    EXPECT_TRUE(std::isnan(kverify::ulp_distance(d, NAN, 1.0)));
    EXPECT_EQ(kverify::classify(d, tiny), kverify::ValueClass::subnormal);
    EXPECT_EQ(kverify::classify(d, min_normal), kverify::ValueClass::normal);
    EXPECT_EQ(kverify::classify(d, -INFINITY), kverify::ValueClass::infinite);
  }
  // f16's known figures: 65504 is 0x7bff, 2^-24 is 0x0001.
  EXPECT_EQ(kverify::ordinal(DType::f16, 65504.0), 0x7bff);
  EXPECT_EQ(kverify::ordinal(DType::f16, std::ldexp(1.0, -24)), 1);
}

}  // namespace
