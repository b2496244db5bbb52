// The layernorm reference against exact arithmetic (MPFR, reference/exact.hpp) and rows whose
// statistics are known in closed form, and the tolerance policy against f32 kernels simulated as
// the policy models them (two passes, and Welford's one pass with Chan's merges), and against the
// bug classes it must not admit (E[x^2] - E[x]^2, a variance over a padded width).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ops/layernorm/layernorm.hpp"
#include "ops/tests/host_views.hpp"
#include "reference/exact.hpp"

namespace {

using kverify::DType;
using kverify::Expected;
using kverify::test_views::f64_rows;

// Rows of f32 values: `center` plus a spread of `spread` (normal), stored in `dtype`.
std::vector<double> rows_around(std::int64_t rows, std::int64_t cols, double center, double spread, DType dtype,
                                std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> x(static_cast<std::size_t>(rows * cols));
  for (auto& v : x) v = kverify::round_to(dtype, center + spread * normal(rng));
  return x;
}

TEST(LayernormReference, RowsWithKnownStatistics) {
  // M +- d alternating (and M in the middle of an odd row): mean M, variance d^2 (C-1)/C or d^2,
  // exactly, whatever the size of M against d (f32 values: M = 2^20, d = 2^-3).
  const double big = 0x1p20, d = 0x1p-3;
  for (const std::int64_t cols : {2, 3, 1000, 4097}) {
    std::vector<double> x(static_cast<std::size_t>(cols));
    for (std::int64_t c = 0; c < cols; ++c) x[static_cast<std::size_t>(c)] = big + (c % 2 ? d : -d);
    if (cols % 2) x.back() = big;
    const auto row = kverify::layernorm_row(f64_rows(x, 1, cols), 0, 1e-5);
    EXPECT_EQ(row.mean, big) << cols;
    const double variance = cols % 2 ? d * d * static_cast<double>(cols - 1) / static_cast<double>(cols) : d * d;
    EXPECT_DOUBLE_EQ(row.variance, variance) << cols;
    EXPECT_DOUBLE_EQ(row.rstd, 1 / std::sqrt(variance + 1e-5)) << cols;
  }
}

TEST(LayernormReference, MeanAndVarianceAreTheExactOnesToFloat64Accuracy) {
  for (const std::int64_t cols : {1, 33, 1000, 65536})
    for (const double center : {0.0, 1e4, -3e9}) {
      const auto x = rows_around(2, cols, center, 1, DType::f32, static_cast<std::uint32_t>(cols));
      for (std::int64_t r = 0; r < 2; ++r) {
        const std::span<const double> row(x.data() + r * cols, static_cast<std::size_t>(cols));
        const double mean = kverify::exact_sum(row) / static_cast<double>(cols);
        std::vector<double> deviations(row.begin(), row.end());
        for (double& v : deviations) v -= mean;
        const double variance = kverify::exact_dot(deviations, deviations) / static_cast<double>(cols);
        const auto got = kverify::layernorm_row(f64_rows(x, 2, cols), r, 1e-5);
        EXPECT_LE(std::fabs(got.mean - mean), 0x1p-52 * std::fabs(mean)) << cols << " " << center;
        EXPECT_LE(std::fabs(got.variance - variance), static_cast<double>(cols + 2) * 0x1p-52 * variance)
            << cols << " " << center;
      }
    }
}

// f32 kernels as the policy models them: 32 lanes over a row's strided shares, their partials
// merged by a butterfly. `how` picks the variance: two passes, Welford's updates merged by Chan's
// formula, the one-pass E[x^2] - E[x]^2, or two passes that count a padding of zeros up to 32 lanes in the variance.
enum class Kernel { two_pass, welford, one_pass_moments, padded_variance };

struct Simulated {
  std::vector<float> y, mean, rstd;
};

Simulated simulate(Kernel how, const std::vector<double>& x, const std::vector<double>& w, const std::vector<double>& b,
                   std::int64_t rows, std::int64_t cols, float eps, DType dtype) {
  Simulated out;
  const auto at = [&](std::int64_t r, std::int64_t c) {
    return static_cast<float>(x[static_cast<std::size_t>(r * cols + c)]);
  };
  const auto butterfly = [](float(&lane)[32]) {
    for (int step = 16; step > 0; step /= 2)
      for (int l = 0; l < step; ++l) lane[l] += lane[l + step];
    return lane[0];
  };
  for (std::int64_t r = 0; r < rows; ++r) {
    float mean = 0, variance = 0;
    if (how == Kernel::welford) {
      float count[32] = {}, m[32] = {}, m2[32] = {};
      for (std::int64_t c = 0; c < cols; ++c) {
        const int l = static_cast<int>(c % 32);
        count[l] += 1;
        const float delta = at(r, c) - m[l];
        m[l] += delta / count[l];
        m2[l] += delta * (at(r, c) - m[l]);
      }
      for (int step = 16; step > 0; step /= 2)
        for (int l = 0; l < step; ++l) {
          const float n = count[l] + count[l + step];
          if (n == 0) continue;
          const float delta = m[l + step] - m[l], share = count[l + step] / n;
          m[l] += delta * share;
          m2[l] += m2[l + step] + delta * delta * count[l] * share;
          count[l] = n;
        }
      mean = m[0];
      variance = m2[0] / static_cast<float>(cols);
    } else {
      float sums[32] = {}, squares[32] = {};
      for (std::int64_t c = 0; c < cols; ++c) {
        sums[c % 32] += at(r, c);
        squares[c % 32] += at(r, c) * at(r, c);
      }
      const std::int64_t width = how == Kernel::padded_variance ? (cols + 31) / 32 * 32 : cols;
      mean = butterfly(sums) / static_cast<float>(cols);
      if (how == Kernel::one_pass_moments) {
        variance = butterfly(squares) / static_cast<float>(cols) - mean * mean;
      } else {
        // The padded kernel loads 0 past the row (a masked load's `other=0`) and keeps its
        // deviation from the mean.
        float deviations[32] = {};
        for (std::int64_t c = 0; c < static_cast<std::int64_t>(width); ++c) {
          const float d = (c < cols ? at(r, c) : 0.0f) - mean;
          deviations[c % 32] += d * d;
        }
        variance = butterfly(deviations) / static_cast<float>(cols);
      }
    }
    const float rstd = 1.0f / std::sqrt(variance + eps);
    out.mean.push_back(mean);
    out.rstd.push_back(rstd);
    for (std::int64_t c = 0; c < cols; ++c)
      out.y.push_back(static_cast<float>(
          kverify::round_to(dtype, (at(r, c) - mean) * rstd * static_cast<float>(w[static_cast<std::size_t>(c)]) +
                                       static_cast<float>(b[static_cast<std::size_t>(c)]))));
  }
  return out;
}

// Whether every output of the simulated kernel is within the policy's bound.
bool within_policy(Kernel how, const std::vector<double>& x, std::int64_t rows, std::int64_t cols, DType dtype) {
  std::vector<double> w(static_cast<std::size_t>(cols)), b(w.size());
  for (std::size_t c = 0; c < w.size(); ++c) {
    w[c] = kverify::round_to(dtype, 1 + 0.1 * std::sin(static_cast<double>(c)));
    b[c] = kverify::round_to(dtype, 1 + std::cos(static_cast<double>(c)));
  }
  const double eps = 1e-5;
  const auto want =
      kverify::layernorm_reference(f64_rows(x, rows, cols), f64_rows(w, cols, 1), f64_rows(b, cols, 1), eps);
  const auto got = simulate(how, x, w, b, rows, cols, static_cast<float>(eps), dtype);
  const std::vector<float>* outputs[] = {&got.y, &got.mean, &got.rstd};
  for (int k = 0; k < 3; ++k) {
    const auto policy = kverify::layernorm_tolerance(dtype, cols, k);
    for (std::size_t i = 0; i < outputs[k]->size(); ++i) {
      const Expected& e = want[static_cast<std::size_t>(k)].values[i];
      if (!(std::fabs((*outputs[k])[i] - e.value) <= policy->bound(e))) return false;
    }
  }
  return true;
}

TEST(LayernormTolerance, AdmitsTwoPassAndWelfordKernels) {
  for (const DType dtype : {DType::f32, DType::bf16})
    for (const std::int64_t cols : {1, 33, 1000, 4097})
      for (const double center : {0.0, 3.0, 1e4})
        for (const double spread : {1.0, 1e-3}) {
          const auto x = rows_around(4, cols, center, spread, dtype, static_cast<std::uint32_t>(cols));
          for (const Kernel how : {Kernel::two_pass, Kernel::welford})
            EXPECT_TRUE(within_policy(how, x, 4, cols, dtype))
                << name(dtype) << " C=" << cols << " center " << center << " spread " << spread
                << (how == Kernel::welford ? " welford" : " two-pass");
        }
}

TEST(LayernormTolerance, RejectsTheOnePassMomentsOnALargeMeanAndAPaddedVariance) {
  // E[x^2] - E[x]^2 cancels where the mean is large against the spread (f32: 1e3 against 1).
  for (const std::int64_t cols : {33, 1000, 4097})
    EXPECT_FALSE(
        within_policy(Kernel::one_pass_moments, rows_around(4, cols, 1e3, 1, DType::f32, 5), 4, cols, DType::f32))
        << cols;
  // The padding's zeros in the variance (the triton tutorial's bug): each adds mean^2 / C, here
  // 9 (32 - C % 32) / C against a variance of 1: 3x at C = 33, 0.22 at 1000, 0.07 at 4097.
  for (const std::int64_t cols : {33, 1000, 4097})
    for (const DType dtype : {DType::f32, DType::bf16})
      EXPECT_FALSE(within_policy(Kernel::padded_variance, rows_around(4, cols, 3, 1, dtype, 6), 4, cols, dtype))
          << name(dtype) << " C=" << cols;
}

}  // namespace
