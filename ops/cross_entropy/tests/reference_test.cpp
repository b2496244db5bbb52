// The cross_entropy reference against exact arithmetic (MPFR, reference/exact.hpp), its ignored
// rows and reductions, and the tolerance policy against f32 kernels simulated as the policy models
// them (two passes; an online running max with rescales) and against the bug classes it must not
// admit (no max subtracted, a sum kept in bf16, a missing rescale, the mean over every row).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/case.hpp"
#include "ops/cross_entropy/cross_entropy.hpp"
#include "ops/tests/host_views.hpp"
#include "reference/compare.hpp"
#include "reference/exact.hpp"

namespace {

using kverify::DType;
using kverify::Expected;
using kverify::test_views::f64_rows;

// Rows of f32 logits: `center` + `spread` * normal, one logit per row raised by `lead`.
std::vector<double> logits_of(std::int64_t rows, std::int64_t cols, double center, double spread, double lead,
                              std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> x(static_cast<std::size_t>(rows * cols));
  for (auto& v : x) v = static_cast<float>(center + spread * normal(rng));
  for (std::int64_t r = 0; r < rows; ++r) x[static_cast<std::size_t>(r * cols + (r * 7) % cols)] += lead;
  for (auto& v : x) v = static_cast<float>(v);
  return x;
}

// A kernel as the policy models it, in f32: 32 threads, each with its strided share of the row,
// partials met in a tree. online: each thread keeps a running max and rescales its sum when the
// max grows, and the partials merge (m, s) pairs; else a max pass, then a pass of expf(x - m).
float simulated_loss(const std::vector<double>& x, std::int64_t cols, std::int64_t row, std::int64_t target,
                     bool online, bool rescale = true, DType accumulator = DType::f32) {
  const auto at = [&](std::int64_t c) { return static_cast<float>(x[static_cast<std::size_t>(row * cols + c)]); };
  const auto keep = [&](float v) { return static_cast<float>(kverify::round_to(accumulator, v)); };
  std::vector<float> m(32, -std::numeric_limits<float>::infinity()), s(32, 0.0f);
  if (online) {
    for (int t = 0; t < 32; ++t)
      for (std::int64_t c = t; c < cols; c += 32) {
        const float next = std::max(m[t], at(c));
        if (rescale) s[t] = keep(s[t] * std::exp(m[t] - next));
        m[t] = next;
        s[t] = keep(s[t] + std::exp(at(c) - m[t]));
      }
    for (int width = 16; width >= 1; width /= 2)
      for (int t = 0; t < width; ++t) {
        const float next = std::max(m[t], m[t + width]);
        if (m[t + width] == -std::numeric_limits<float>::infinity()) continue;  // a thread past the row
        s[t] = keep(s[t] * std::exp(m[t] - next) + s[t + width] * std::exp(m[t + width] - next));
        m[t] = next;
      }
  } else {
    float max = -std::numeric_limits<float>::infinity();
    for (std::int64_t c = 0; c < cols; ++c) max = std::max(max, at(c));
    for (int t = 0; t < 32; ++t)
      for (std::int64_t c = t; c < cols; c += 32) s[t] = keep(s[t] + std::exp(at(c) - max));
    for (int width = 16; width >= 1; width /= 2)
      for (int t = 0; t < width; ++t) s[t] = keep(s[t] + s[t + width]);
    m[0] = max;
  }
  const float lse = m[0] + std::log(s[0]);
  return lse - at(target);
}

TEST(CrossEntropyReference, LossIsTheExactLogSumExpMinusTheTargetLogit) {
  for (const std::int64_t cols : {1, 2, 33, 1000, 32000})
    for (const double center : {0.0, 1e4, -3e9})
      for (const double lead : {0.0, 40.0}) {
        const auto x = logits_of(2, cols, center, 3, lead, static_cast<std::uint32_t>(cols));
        std::vector<double> targets = {0, static_cast<double>(cols - 1)};
        const auto want = kverify::cross_entropy_reference(f64_rows(x, 2, cols), f64_rows(targets, 2, 1), -100,
                                                           kverify::kCrossEntropySum);
        double sum = 0;
        for (std::int64_t r = 0; r < 2; ++r) {
          const std::span<const double> row(x.data() + r * cols, static_cast<std::size_t>(cols));
          const double exact =
              kverify::exact_log_sum_exp(row, row[static_cast<std::size_t>(targets[static_cast<std::size_t>(r)])]);
          const double got = want[0].at(r, 0).value;
          // Far below f32's u = 2^-24 relative to the terms the loss adds (it never cancels).
          EXPECT_LE(std::fabs(got - exact), 0x1p-44 * (std::fabs(exact) + std::log(static_cast<double>(cols)) + 1))
              << cols << " " << center << " " << lead << " row " << r;
          sum += exact;
        }
        EXPECT_NEAR(want[1].at(0, 0).value, sum, 0x1p-43 * std::fabs(sum) + 1e-300) << cols << " " << center;
      }
}

TEST(CrossEntropyReference, AConfidentRowKeepsItsTinyLoss) {
  // The target 60 above the rest: loss = log1p(sum of e^-60 terms), about 1e-24, where the log of
  // the sum would give 0.
  std::vector<double> x(100, 0.0);
  x[5] = 60;
  const std::vector<double> target = {5};
  const auto want =
      kverify::cross_entropy_reference(f64_rows(x, 1, 100), f64_rows(target, 1, 1), -100, kverify::kCrossEntropyMean);
  EXPECT_NEAR(want[0].at(0, 0).value, 99 * std::exp(-60.0), 1e-12 * 99 * std::exp(-60.0));
}

TEST(CrossEntropyReference, IgnoredRowsAreExactZerosOutOfTheMeansCount) {
  const auto x = logits_of(4, 10, 0, 2, 0, 7);
  const std::vector<double> targets = {3, -1, 9, -1};
  const auto mean =
      kverify::cross_entropy_reference(f64_rows(x, 4, 10), f64_rows(targets, 4, 1), -1, kverify::kCrossEntropyMean);
  const auto sum =
      kverify::cross_entropy_reference(f64_rows(x, 4, 10), f64_rows(targets, 4, 1), -1, kverify::kCrossEntropySum);
  EXPECT_EQ(mean[0].at(1, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(mean[0].at(1, 0).value, 0);
  EXPECT_EQ(mean[0].at(3, 0).value, 0);
  const double kept = mean[0].at(0, 0).value + mean[0].at(2, 0).value;
  EXPECT_DOUBLE_EQ(sum[1].at(0, 0).value, kept);
  EXPECT_DOUBLE_EQ(mean[1].at(0, 0).value, kept / 2);  // two rows kept, not four
  const std::vector<double> none = {-1, -1, -1, -1};
  const auto empty =
      kverify::cross_entropy_reference(f64_rows(x, 4, 10), f64_rows(none, 4, 1), -1, kverify::kCrossEntropyMean);
  EXPECT_EQ(empty[1].at(0, 0).kind, Expected::Kind::nan);
  const auto empty_sum =
      kverify::cross_entropy_reference(f64_rows(x, 4, 10), f64_rows(none, 4, 1), -1, kverify::kCrossEntropySum);
  EXPECT_EQ(empty_sum[1].at(0, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(empty_sum[1].at(0, 0).value, 0);
}

TEST(CrossEntropyReference, MaskedClassesAndNonFiniteRowsAreDefined) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  // Rows: a masked class (-inf) that is not the target; the target masked; a +inf; a NaN; every
  // class masked.
  const std::vector<double> x = {1, -inf, 2, 1, -inf, 2, 1, inf, 2, 1, nan, 2, -inf, -inf, -inf};
  const std::vector<double> targets = {0, 1, 0, 0, 0};
  const auto want =
      kverify::cross_entropy_reference(f64_rows(x, 5, 3), f64_rows(targets, 5, 1), -100, kverify::kCrossEntropySum);
  EXPECT_NEAR(want[0].at(0, 0).value, std::log(std::exp(1.0) + std::exp(2.0)) - 1, 1e-15);
  EXPECT_EQ(want[0].at(1, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(want[0].at(1, 0).value, inf);
  for (const std::int64_t r : {2, 3, 4}) EXPECT_EQ(want[0].at(r, 0).kind, Expected::Kind::nan) << r;
  EXPECT_EQ(want[1].at(0, 0).kind, Expected::Kind::nan);  // a NaN loss among those added
  const std::vector<double> first_two = {0, 1, -100, -100, -100};
  const auto sum =
      kverify::cross_entropy_reference(f64_rows(x, 5, 3), f64_rows(first_two, 5, 1), -100, kverify::kCrossEntropySum);
  EXPECT_EQ(sum[1].at(0, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(sum[1].at(0, 0).value, inf);
}

// The fused kernels' lse - x[t] (lse = max + log s kept in f32) on rows of logits far from 0: in the
// policy, and through the baseline rule thanks to the allowance for that form; the same error
// doubled past the allowance is not.
TEST(CrossEntropyTolerance, TheFusedLseFormPassesTheBaselineRule) {
  const std::int64_t cols = 65;
  std::vector<double> x(static_cast<std::size_t>(2 * cols), -300.0);
  for (std::int64_t c = 0; c < cols; ++c) x[static_cast<std::size_t>(cols + c)] = -300.0 + 0.25 * (c % 5);
  const std::vector<double> targets = {0, 3};
  const auto want =
      kverify::cross_entropy_reference(f64_rows(x, 2, cols), f64_rows(targets, 2, 1), -100, kverify::kCrossEntropySum);
  const auto eager = kverify::cross_entropy_eager(f64_rows(x, 2, cols), f64_rows(targets, 2, 1), -100,
                                                  kverify::kCrossEntropySum, DType::f32);
  const auto tolerance = kverify::cross_entropy_tolerance(cols, 2, 0);
  std::vector<double> fused(2), doubled(2);
  for (std::int64_t r = 0; r < 2; ++r) {
    const auto row = [&](std::int64_t c) { return static_cast<float>(x[static_cast<std::size_t>(r * cols + c)]); };
    float max = row(0), s = 0;
    for (std::int64_t c = 1; c < cols; ++c) max = std::max(max, row(c));
    for (std::int64_t c = 0; c < cols; ++c) s += std::exp(row(c) - max);
    const float lse = max + std::log(s);
    fused[static_cast<std::size_t>(r)] = lse - row(static_cast<std::int64_t>(targets[static_cast<std::size_t>(r)]));
    const double error = fused[static_cast<std::size_t>(r)] - want[0].at(r, 0).value;
    EXPECT_GT(std::fabs(error), 4 * std::fabs(eager[0][static_cast<std::size_t>(r)] - want[0].at(r, 0).value)) << r;
    doubled[static_cast<std::size_t>(r)] =
        want[0].at(r, 0).value + 2 * (std::fabs(error) + tolerance->approximation_allowance(want[0].at(r, 0)));
  }
  EXPECT_TRUE(kverify::check_against_baseline(f64_rows(fused, 2, 1), eager[0], want[0], *tolerance).ok);
  EXPECT_FALSE(kverify::check_against_baseline(f64_rows(doubled, 2, 1), eager[0], want[0], *tolerance).ok);
}

struct RowKind {
  double center, spread, lead;
};
constexpr RowKind kRows[] = {{0, 1, 0}, {0, 3, 20}, {1e4, 5, 0}, {-3e4, 100, 0}, {0, 0, 0}, {1e29, 1e28, 0}};

TEST(CrossEntropyTolerance, KernelsAsThePolicyModelsThemPass) {
  for (const std::int64_t cols : {1, 3, 32, 1000, 4097, 32000})
    for (const RowKind& k : kRows)
      for (const bool online : {false, true}) {
        const auto x = logits_of(2, cols, k.center, k.spread, k.lead, static_cast<std::uint32_t>(cols + 1));
        const std::vector<double> targets = {static_cast<double>(cols / 2), 0};
        const auto want = kverify::cross_entropy_reference(f64_rows(x, 2, cols), f64_rows(targets, 2, 1), -100,
                                                           kverify::kCrossEntropySum);
        const auto tolerance = kverify::cross_entropy_tolerance(cols, 2, 0);
        for (std::int64_t r = 0; r < 2; ++r) {
          const float got =
              simulated_loss(x, cols, r, static_cast<std::int64_t>(targets[static_cast<std::size_t>(r)]), online);
          const Expected& e = want[0].at(r, 0);
          EXPECT_LE(std::fabs(got - e.value), tolerance->bound(e))
              << "cols " << cols << " center " << k.center << " online " << online << " row " << r << ": " << got
              << " vs " << e.value;
        }
      }
}

TEST(CrossEntropyTolerance, TheBugClassesFail) {
  const std::int64_t cols = 1000;
  const auto x = logits_of(1, cols, 0, 3, 0, 11);
  const std::vector<double> target = {17};
  const auto want =
      kverify::cross_entropy_reference(f64_rows(x, 1, cols), f64_rows(target, 1, 1), -100, kverify::kCrossEntropyMean);
  const Expected& e = want[0].at(0, 0);
  const auto bound = kverify::cross_entropy_tolerance(cols, 1, 0)->bound(e);
  // A sum kept in bf16 (rounded after every addition).
  EXPECT_GT(std::fabs(simulated_loss(x, cols, 0, 17, false, true, DType::bf16) - e.value), bound);
  // An online kernel that never rescales its sum when the max grows (a ramp makes it grow).
  std::vector<double> ramp(static_cast<std::size_t>(cols));
  for (std::int64_t c = 0; c < cols; ++c) ramp[static_cast<std::size_t>(c)] = static_cast<double>(c) * 0.05;
  const auto ramp_want = kverify::cross_entropy_reference(f64_rows(ramp, 1, cols), f64_rows(target, 1, 1), -100,
                                                          kverify::kCrossEntropyMean);
  EXPECT_GT(std::fabs(simulated_loss(ramp, cols, 0, 17, true, false) - ramp_want[0].at(0, 0).value),
            kverify::cross_entropy_tolerance(cols, 1, 0)->bound(ramp_want[0].at(0, 0)));
  // No max subtracted: exp(x) overflows f32 from x = 89 on.
  std::vector<double> big(x);
  for (double& v : big) v += 100;
  float s = 0;
  for (double v : big) s += std::exp(static_cast<float>(v));
  EXPECT_TRUE(std::isinf(std::log(s) - static_cast<float>(big[17])));
  // The mean over every row, ignored ones too.
  const std::vector<double> targets = {3, -100, 5, -100};
  const auto four = logits_of(4, 10, 0, 2, 0, 5);
  const auto mean = kverify::cross_entropy_reference(f64_rows(four, 4, 10), f64_rows(targets, 4, 1), -100,
                                                     kverify::kCrossEntropyMean);
  const double over_all_rows = (mean[0].at(0, 0).value + mean[0].at(2, 0).value) / 4;
  EXPECT_GT(std::fabs(over_all_rows - mean[1].at(0, 0).value),
            kverify::cross_entropy_tolerance(10, 4, 1)->bound(mean[1].at(0, 0)));
}

// bench_bytes never counts more bytes than a bench Case needs read (the logits of its rows not
// drawn at ignore_index, the targets, the losses and the total), for any seed: a fraction of the
// copy ceiling may be understated, never inflated.
TEST(CrossEntropyBench, TheByteCountNeverExceedsWhatABenchCaseReads) {
  const kverify::OpSpec* op = kverify::find_op("cross_entropy");
  ASSERT_NE(op, nullptr);
  ASSERT_FALSE(op->bench_shapes.empty());
  for (const std::string_view shape : op->bench_shapes)
    for (int seed = 0; seed < 16; ++seed) {
      const kverify::Case c =
          kverify::parse_case("op=cross_entropy shape=" + std::string(shape) + " seed=" + std::to_string(seed));
      kverify::recipe_math::Draw d = kverify::input_draw(c, 1);
      const std::int64_t rows = c.shape[0], classes = c.shape[1];
      std::int64_t kept = 0;
      for (std::int64_t r = 0; r < rows; ++r) {
        d.row = r, d.col = 0;
        kept += kverify::recipe_math::value(d) != c.param(0);
      }
      const double needed = static_cast<double>(kept * classes * 2 + rows * (8 + 4) + 4);  // bf16 logits
      const double counted = op->bench_bytes(c.shape, DType::bf16);
      EXPECT_LE(counted, needed) << c.to_text();
      EXPECT_GT(counted, 0.85 * needed) << c.to_text();  // understated by less than 15 %
    }
}

}  // namespace
