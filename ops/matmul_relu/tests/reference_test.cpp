// The matmul_relu reference against products worked out by hand, through strided layouts, with
// the ReLU after the full K sum, its exact-mode classification, its non-finite contract, and the
// tolerance policy's shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ops/matmul_relu/matmul_relu.hpp"
#include "ops/tests/host_views.hpp"

namespace {

using kverify::DType;
using kverify::Expected;
using kverify::Layout2D;
using kverify::TensorView;
using kverify::test_views::f64_rows;
using kverify::test_views::f64_view;

// f16 storage from values that are exact in f16.
std::vector<std::uint16_t> f16_bits(const std::vector<double>& v) {
  std::vector<std::uint16_t> bits;
  for (double x : v) bits.push_back(kverify::f32_to_f16_bits(static_cast<float>(x)));
  return bits;
}
TensorView f16_rows(const std::vector<std::uint16_t>& v, std::int64_t rows, std::int64_t cols) {
  return {reinterpret_cast<const unsigned char*>(v.data()), Layout2D::row_major(rows, cols), DType::f16};
}

// A 2x3 times a 3x2, by hand:
//   [ 1 -2  3]   [ 7  8]   [ 7-18+33   8-20+36]   [ 22  24]            [22 24]
//   [-4  5 -6] x [ 9 10] = [-28+45-66 -32+50-72] = [-49 -54]  -> relu: [ 0  0]
//                [11 12]
const std::vector<double> kA{1, -2, 3, -4, 5, -6};
const std::vector<double> kB{7, 8, 9, 10, 11, 12};

TEST(MatmulReluReference, SmallProductByHand) {
  const auto c = kverify::matmul_relu_reference(f64_rows(kA, 2, 3), f64_rows(kB, 3, 2));
  ASSERT_EQ(c.rows, 2);
  ASSERT_EQ(c.cols, 2);
  EXPECT_EQ(c.at(0, 0).value, 22.0);
  EXPECT_EQ(c.at(0, 1).value, 24.0);
  EXPECT_EQ(c.at(1, 0).value, 0.0);
  EXPECT_EQ(c.at(1, 1).value, 0.0);
  EXPECT_FALSE(std::signbit(c.at(1, 0).value)) << "relu of a negative sum is +0";
  // condition = sum |a b|: 7+18+33 and 28+45+66.
  EXPECT_EQ(c.at(0, 0).condition, 58.0);
  EXPECT_EQ(c.at(1, 0).condition, 139.0);
}

TEST(MatmulReluReference, ReluComesAfterTheFullKSum) {
  // A = [1 1 1 1]; the first half of K sums one sign, the whole K the other.
  const std::vector<double> a{1, 1, 1, 1};
  const std::vector<double> b{-3, 3,    //
                              -2, 2,    //
                              4,  -4,   //
                              5,  -5};  // column 0: -5 then +9 -> 4; column 1: +5 then -9 -> -4
  const auto c = kverify::matmul_relu_reference(f64_rows(a, 1, 4), f64_rows(b, 4, 2));
  EXPECT_EQ(c.at(0, 0).value, 4.0) << "relu per half would give 0 + 9 = 9";
  EXPECT_EQ(c.at(0, 1).value, 0.0) << "relu per half would give 5 + 0 = 5";
}

TEST(MatmulReluReference, ReadsThroughStridesAndOffsets) {
  // kA stored column-major (strides 1, 2), kB padded (row stride 4) after an offset of 1.
  const std::vector<double> a_col_major{1, -4, -2, 5, 3, -6};
  const double pad = std::numeric_limits<double>::quiet_NaN();  // never read
  const std::vector<double> b_padded{pad, 7, 8, pad, pad, 9, 10, pad, pad, 11, 12};
  const auto want = kverify::matmul_relu_reference(f64_rows(kA, 2, 3), f64_rows(kB, 3, 2));
  const auto got =
      kverify::matmul_relu_reference(f64_view(a_col_major, {2, 3, 1, 2, 0}), f64_view(b_padded, {3, 2, 4, 1, 1}));
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 2; ++n) {
      EXPECT_EQ(got.at(m, n).value, want.at(m, n).value) << m << "," << n;
      EXPECT_EQ(got.at(m, n).kind, want.at(m, n).kind) << m << "," << n;
      EXPECT_EQ(got.at(m, n).condition, want.at(m, n).condition) << m << "," << n;
    }
}

TEST(MatmulReluReference, ExactModeForIntegersWhoseMagnitudeStaysWithin2To24) {
  // Integers: exact.
  const auto ints = kverify::matmul_relu_reference(f64_rows(kA, 2, 3), f64_rows(kB, 3, 2));
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 2; ++n) EXPECT_EQ(ints.at(m, n).kind, Expected::Kind::exact) << m << "," << n;

  // A non-integer anywhere in the dot product: approx (only where it enters).
  const std::vector<double> a_half{1, -2, 3.5, -4, 5, -6};  // row 0 holds 3.5
  const auto mixed = kverify::matmul_relu_reference(f64_rows(a_half, 2, 3), f64_rows(kB, 3, 2));
  EXPECT_EQ(mixed.at(0, 0).kind, Expected::Kind::approx);
  EXPECT_EQ(mixed.at(0, 0).value, 22.0 + 0.5 * 11);
  EXPECT_EQ(mixed.at(1, 0).kind, Expected::Kind::exact);

  // sum |a b| exactly 2^24: exact; one more: approx (partial sums may no longer be exact in f32).
  const std::vector<double> a{4096, 1};
  const std::vector<double> b_at{4096, 4096, 0, 1};  // column 0: 2^24 + 0; column 1: 2^24 + 1
  const auto edge = kverify::matmul_relu_reference(f64_rows(a, 1, 2), f64_rows(b_at, 2, 2));
  EXPECT_EQ(edge.at(0, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(edge.at(0, 0).value, 0x1.0p24);
  EXPECT_EQ(edge.at(0, 1).kind, Expected::Kind::approx);
  EXPECT_EQ(edge.at(0, 1).condition, 0x1.0p24 + 1);
}

TEST(MatmulReluReference, ExactModeRoundsOnceToTheStorageDtype) {
  // f16: 1*2048 + 1*1 = 2049, exact in f32, rounds (to nearest even) to 2048 in f16.
  const auto a = f16_bits({1, 1});
  const auto b = f16_bits({2048, 1});
  const auto c = kverify::matmul_relu_reference(f16_rows(a, 1, 2), f16_rows(b, 2, 1));
  EXPECT_EQ(c.at(0, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(c.at(0, 0).value, 2048.0);
  // 2051 rounds up to 2052.
  const auto b3 = f16_bits({2048, 3});
  EXPECT_EQ(kverify::matmul_relu_reference(f16_rows(a, 1, 2), f16_rows(b3, 2, 1)).at(0, 0).value, 2052.0);
}

TEST(MatmulReluReference, OverflowOfTheOutputDtypeIsExactInfinity) {
  // f16: 300 * 300 = 90000 > 65504: the f32 sum is finite, its f16 rounding is +inf.
  const auto a = f16_bits({300});
  const auto b = f16_bits({300, -300});
  const auto c = kverify::matmul_relu_reference(f16_rows(a, 1, 1), f16_rows(b, 1, 2));
  EXPECT_EQ(c.at(0, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(c.at(0, 0).value, std::numeric_limits<double>::infinity());
  EXPECT_EQ(c.at(0, 1).kind, Expected::Kind::exact);
  EXPECT_EQ(c.at(0, 1).value, 0.0) << "relu(-90000) is 0, whatever the overflow";
}

TEST(MatmulReluReference, NonFiniteInputsPropagateAndReluKeepsNan) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Rows of A against the single column B = [1, 2]^T (and a second column [0, 1]^T).
  const std::vector<double> a{nan,  1,     // NaN in the row: NaN, whatever the column
                              inf,  1,     // +inf * 1 = +inf (kept); +inf * 0 = NaN
                              -inf, 1,     // -inf: relu gives exactly 0; -inf * 0 = NaN
                              inf,  -inf,  // +inf - inf = NaN; 0*inf = NaN
                              0.5,  1};    // finite
  const std::vector<double> b{1, 0, 2, 1};
  const auto c = kverify::matmul_relu_reference(f64_rows(a, 5, 2), f64_rows(b, 2, 2));
  EXPECT_EQ(c.at(0, 0).kind, Expected::Kind::nan);
  EXPECT_EQ(c.at(0, 1).kind, Expected::Kind::nan);
  EXPECT_EQ(c.at(1, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(c.at(1, 0).value, inf);
  EXPECT_EQ(c.at(1, 1).kind, Expected::Kind::nan);
  EXPECT_EQ(c.at(2, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(c.at(2, 0).value, 0.0);
  EXPECT_EQ(c.at(2, 1).kind, Expected::Kind::nan);
  EXPECT_EQ(c.at(3, 0).kind, Expected::Kind::nan);
  EXPECT_EQ(c.at(3, 1).kind, Expected::Kind::nan);
  EXPECT_EQ(c.at(4, 0).kind, Expected::Kind::approx);
  EXPECT_EQ(c.at(4, 0).value, 2.5);

  EXPECT_TRUE(std::isnan(kverify::relu_keep_nan(nan)));
  EXPECT_EQ(kverify::relu_keep_nan(-0.0), 0.0);
  EXPECT_FALSE(std::signbit(kverify::relu_keep_nan(-0.0)));
  EXPECT_EQ(kverify::relu_keep_nan(-3.0), 0.0);
  EXPECT_EQ(kverify::relu_keep_nan(3.0), 3.0);
}

TEST(MatmulReluReference, RejectsMismatchedInnerDimensions) {
  EXPECT_THROW(kverify::matmul_relu_reference(f64_rows(kA, 2, 3), f64_rows(kB, 2, 3)), std::invalid_argument);
}

// One row of K values a few f32 ulps apart (the nearties recipe: every rounding goes one way)
// times ones: the products are the values, and their sum is exact in f64 (multiples of 2^10 below
// 2^53). The eager baseline must be as far off as the worst of its three orders, each written
// out here as its own loop: the sequential chain, and K cut into 2 and into 4 ranges.
TEST(MatmulReluEager, IsTheWorstOfTheSequentialChainAndItsRangeCuts) {
  const float scale = 1e10f;
  int lucky_lengths = 0;
  for (const std::int64_t K : {100, 200, 409, 600, 800, 1200}) {
    std::vector<double> a(static_cast<std::size_t>(K)), ones(static_cast<std::size_t>(K), 1.0);
    double exact = 0;
    for (std::int64_t k = 0; k < K; ++k) {
      a[static_cast<std::size_t>(k)] =
          static_cast<double>(scale * (1.0f + static_cast<float>(k * 5 % 9 - 4) * 0x1.0p-22f));
      exact += a[static_cast<std::size_t>(k)];
    }
    const auto cut_sum = [&](std::int64_t ranges) {
      const std::int64_t length = (K + ranges - 1) / ranges;
      float total = 0;
      for (std::int64_t start = 0; start < K; start += length) {
        float chain = 0;
        for (std::int64_t k = start; k < std::min(K, start + length); ++k)
          chain += static_cast<float>(a[static_cast<std::size_t>(k)]);
        total += chain;
      }
      return total;
    };
    const double sequential = std::fabs(cut_sum(1) - exact);
    const double worst = std::max({sequential, std::fabs(cut_sum(2) - exact), std::fabs(cut_sum(4) - exact)});
    const auto eager = kverify::matmul_relu_eager(f64_rows(a, 1, K), f64_rows(ones, K, 1), DType::f32);
    ASSERT_EQ(eager.size(), 1u);
    EXPECT_EQ(std::fabs(eager[0] - exact), worst) << "K = " << K;
    lucky_lengths += worst > 2 * sequential;
  }
  EXPECT_GT(lucky_lengths, 0) << "some length where the sequential chain alone would be a lucky bar";
}

TEST(MatmulReluTolerance, GammaKTimesTheMagnitudePlusOneOutputUlp) {
  const double u = 0x1.0p-24;
  const auto f32 = kverify::matmul_relu_tolerance(DType::f32, 64);
  const Expected e{10.0, Expected::Kind::approx, 100.0};
  const double gamma = 64 * u / (1 - 64 * u);
  EXPECT_GE(f32->bound(e), gamma * 100.0);
  EXPECT_LT(f32->bound(e), 1.01 * gamma * 100.0) << "little beyond gamma(K) sum|ab|";
  // Worst case: a sequential chain of K same-signed terms may use all of it, so the bound grows with K.
  EXPECT_GT(kverify::matmul_relu_tolerance(DType::f32, 1000)->bound(e), 10 * f32->bound(e));

  const auto bf16 = kverify::matmul_relu_tolerance(DType::bf16, 64);
  const auto f16 = kverify::matmul_relu_tolerance(DType::f16, 64);
  EXPECT_GE(bf16->bound(e), kverify::ulp(DType::bf16, 10.0));
  EXPECT_GE(f16->bound(e), kverify::ulp(DType::f16, 10.0));
  EXPECT_LT(f16->bound(e), 2 * kverify::ulp(DType::f16, 10.0) + gamma * 100.0);
}

TEST(MatmulReluTolerance, NearZeroSumsAcceptZeroOrATinyPositiveValue) {
  // The f64 sum is slightly negative (relu: 0); an f32 chain may end slightly positive.
  const auto f32 = kverify::matmul_relu_tolerance(DType::f32, 64);
  const Expected zero{0.0, Expected::Kind::approx, 100.0};
  EXPECT_GE(f32->bound(zero), 1e-5) << "a tiny positive output within gamma(K) sum|ab| passes";
  EXPECT_LT(f32->bound(zero), 1e-3) << "a real positive value does not";
  EXPECT_GT(f32->bound({0.0, Expected::Kind::approx, 0.0}), 0.0) << "an absolute floor";
  EXPECT_FALSE(f32->describe().empty());
  EXPECT_EQ(f32->describe().find('\n'), std::string::npos) << "describe() is one line";
}

}  // namespace
