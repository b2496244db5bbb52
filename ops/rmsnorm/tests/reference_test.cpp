// The rmsnorm reference against the exact sum of squares (MPFR, reference/exact.hpp), its special
// values, and the tolerance policy against an f32 kernel simulated as the policy models it (and a
// kernel with the mean over a padded width, which it must not admit).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ops/rmsnorm/rmsnorm.hpp"
#include "ops/tests/host_views.hpp"
#include "reference/exact.hpp"

namespace {

using kverify::DType;
using kverify::Expected;
using kverify::test_views::f64_rows;

// Rows of f32 values over the contract's whole range (|x| from 1e-30 to 1e15), and their weights.
std::vector<double> wide_range_rows(std::int64_t rows, std::int64_t cols, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> exponent(-30, 15), mantissa(-1, 1);
  std::vector<double> x(static_cast<std::size_t>(rows * cols));
  for (auto& v : x) v = static_cast<float>(mantissa(rng) * std::pow(10.0, exponent(rng)));
  return x;
}

TEST(RmsnormReference, MeanSquareIsTheExactOneToFloat64Accuracy) {
  for (const std::int64_t cols : {1, 33, 1000, 65536}) {
    const auto x = wide_range_rows(3, cols, static_cast<std::uint32_t>(cols));
    for (std::int64_t r = 0; r < 3; ++r) {
      const std::span<const double> row(x.data() + r * cols, static_cast<std::size_t>(cols));
      const double exact = kverify::exact_dot(row, row) / static_cast<double>(cols);
      const auto got = kverify::rmsnorm_row(f64_rows(x, 3, cols), r, 1e-6);
      // A sum of positive terms: float64's relative error is at most C 2^-53.
      EXPECT_LE(std::fabs(got.mean_square - exact), static_cast<double>(cols + 1) * 0x1p-53 * exact) << cols;
      const double rstd = 1.0 / std::sqrt(exact + 1e-6);
      EXPECT_LE(std::fabs(got.rstd - rstd), static_cast<double>(cols + 2) * 0x1p-53 * rstd) << cols;
    }
  }
}

TEST(RmsnormReference, SpecialValuesGiveWhatIeeeArithmeticGives) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x{1, nan, -2,  //
                              1, inf, -2,  //
                              0, 0,   -0.0};
  const std::vector<double> w{1, 1, 1};
  const auto out = kverify::rmsnorm_reference(f64_rows(x, 3, 3), f64_rows(w, 3, 1), 1e-12);
  const auto &y = out[0], &rstd = out[1];
  for (int c = 0; c < 3; ++c) EXPECT_EQ(y.at(0, c).kind, Expected::Kind::nan) << c;  // a NaN: the whole row
  EXPECT_EQ(rstd.at(0, 0).kind, Expected::Kind::nan);
  EXPECT_EQ(rstd.at(1, 0).value, 0.0);  // an infinity: rstd 0, finite elements +-0, the infinity NaN
  EXPECT_EQ(y.at(1, 0).value, 0.0);
  EXPECT_TRUE(std::signbit(y.at(1, 2).value));
  EXPECT_EQ(y.at(1, 1).kind, Expected::Kind::nan);
  EXPECT_DOUBLE_EQ(rstd.at(2, 0).value, 1e6);  // a zero row: 1/sqrt(eps), y 0
  EXPECT_EQ(y.at(2, 2).value, 0.0);
}

// An f32 kernel as the policy models it: 32 lanes each summing a strided share, a butterfly, the
// mean, rsqrt (here 1/sqrtf, within the policy's 4u), and y = x * rstd * w rounded to `dtype`.
// `padded` divides by the width rounded up to 32 (a planted bug).
std::vector<float> simulated_kernel(const std::vector<double>& x, const std::vector<double>& w, std::int64_t rows,
                                    std::int64_t cols, float eps, DType dtype, bool padded, std::vector<float>& rstd) {
  std::vector<float> y;
  for (std::int64_t r = 0; r < rows; ++r) {
    float lane[32] = {};
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto v = static_cast<float>(x[static_cast<std::size_t>(r * cols + c)]);
      lane[c % 32] += v * v;
    }
    for (int step = 16; step > 0; step /= 2)
      for (int l = 0; l < step; ++l) lane[l] += lane[l + step];
    const float width = static_cast<float>(padded ? (cols + 31) / 32 * 32 : cols);
    const float s = 1.0f / std::sqrt(lane[0] / width + eps);
    rstd.push_back(s);
    for (std::int64_t c = 0; c < cols; ++c)
      y.push_back(static_cast<float>(kverify::round_to(
          dtype, static_cast<float>(x[static_cast<std::size_t>(r * cols + c)]) * s * static_cast<float>(w[c]))));
  }
  return y;
}

TEST(RmsnormTolerance, AdmitsTheModelledKernelAndNotAPaddedMean) {
  for (const DType dtype : {DType::f32, DType::bf16}) {
    for (const std::int64_t cols : {1, 33, 1000, 4097}) {
      const std::int64_t rows = 4;
      // Stored in the dtype, |x| from 1e-42 (f32 subnormals, products that underflow) to 1e3; the
      // rows' mean squares far above eps, so that a wrong mean shows.
      auto x = wide_range_rows(rows, cols, 7);
      for (auto& v : x) v = kverify::round_to(dtype, v / 1e12);
      for (std::int64_t r = 0; r < rows; ++r) x[static_cast<std::size_t>(r * cols)] = 100;
      std::vector<double> w(static_cast<std::size_t>(cols));
      for (std::size_t c = 0; c < w.size(); ++c) w[c] = kverify::round_to(dtype, 1 + 0.1 * std::sin(c));
      const auto want = kverify::rmsnorm_reference(f64_rows(x, rows, cols), f64_rows(w, cols, 1), 1e-6);
      const auto y_policy = kverify::rmsnorm_tolerance(dtype, cols, 0);
      const auto rstd_policy = kverify::rmsnorm_tolerance(dtype, cols, 1);
      for (const bool padded : {false, true}) {
        std::vector<float> rstd;
        const auto y = simulated_kernel(x, w, rows, cols, 1e-6f, dtype, padded, rstd);
        bool within = true;
        for (std::int64_t r = 0; r < rows; ++r) {
          within = within && std::fabs(rstd[r] - want[1].at(r, 0).value) <= rstd_policy->bound(want[1].at(r, 0));
          for (std::int64_t c = 0; c < cols; ++c) {
            const Expected& e = want[0].at(r, c);
            within = within && std::fabs(y[static_cast<std::size_t>(r * cols + c)] - e.value) <= y_policy->bound(e);
          }
        }
        // No width here is a multiple of 32 (which would hide the padded mean): C = 1 is off 32x.
        EXPECT_EQ(within, !padded) << name(dtype) << " C=" << cols << (padded ? " padded mean" : "");
      }
    }
  }
}

// The eager composition (LlamaRMSNorm's double rounding of a 16-bit y) stays within the
// accuracy-note tier's bound everywhere; a stored y three ulps of its dtype away is outside it
// (for normal values: in the subnormal range the floor of two spacings plus one covers three).
TEST(RmsnormTolerance, TheFrameworkBoundHoldsLlamaRmsnormAndNothingFarther) {
  const std::int64_t rows = 6, cols = 4097;
  auto x = wide_range_rows(rows, cols, 11);
  for (auto& v : x) v = kverify::round_to(DType::bf16, v / 1e12);
  for (std::int64_t r = 0; r < rows; ++r) x[static_cast<std::size_t>(r * cols)] = 100;
  std::vector<double> w(static_cast<std::size_t>(cols));
  for (std::size_t c = 0; c < w.size(); ++c) w[c] = kverify::round_to(DType::bf16, 1.5 + 0.4 * std::sin(c));
  const auto want = kverify::rmsnorm_reference(f64_rows(x, rows, cols), f64_rows(w, cols, 1), 1e-6);
  const auto eager = kverify::rmsnorm_eager(f64_rows(x, rows, cols), f64_rows(w, cols, 1), 1e-6, DType::bf16);
  const auto policy = kverify::rmsnorm_tolerance(DType::bf16, cols, 0);
  EXPECT_NE(policy->framework_formula().find("LlamaRMSNorm"), std::string::npos);
  EXPECT_EQ(kverify::rmsnorm_tolerance(DType::f32, cols, 0)->framework_formula(), "");
  std::int64_t beyond_bound = 0;
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    const Expected& e = want[0].values[static_cast<std::size_t>(i)];
    const double err = std::fabs(eager[0][static_cast<std::size_t>(i)] - e.value);
    ASSERT_LE(err, policy->framework_bound(e)) << i;
    beyond_bound += err > policy->bound(e);
    const double three_ulps_away =
        kverify::round_to(DType::bf16, e.value + 3 * kverify::ulp(DType::bf16, e.value) * (e.value < 0 ? -1 : 1));
    if (std::fabs(e.value) > 0x1p-120) EXPECT_GT(std::fabs(three_ulps_away - e.value), policy->framework_bound(e)) << i;
  }
  // Reported, not required: how often the double rounding leaves the single-rounding bound here.
  std::printf("LlamaRMSNorm-style bf16 y: %lld of %lld elements past bound(), none past framework_bound()\n",
              static_cast<long long>(beyond_bound), static_cast<long long>(rows * cols));
}

}  // namespace
