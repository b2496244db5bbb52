#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "ops/cross_entropy/cross_entropy.hpp"
#include "reference/baseline.hpp"

namespace kverify {
namespace {

constexpr double kUnitRoundoffF32 = 0x1.0p-24;
constexpr int kLoss = 0, kTotal = 1;

// cross_entropy's policy: f32 arithmetic, u = 2^-24, first order in u. Each element's budget B (in
// units of u) comes from its row; the bound is B u.
//
// The kernel model: a row's exponentials summed by at least 32 threads, each adding at most
// ceil(V/32) terms in sequence, the partials meeting in a tree of at most 10 levels: a sum passes
// through at most n = ceil(V/32) + 14 additions. d_c = x[c] - m <= 0 are the gaps to the row's
// largest logit m, w_c = exp(d_c) / s the row's softmax, s = sum_c exp(d_c).
//   an exponential: d_c rounds (u |d_c|), an exp2f-based kernel also rounds d_c log2(e) (twice
//          more: 3 u |d_c| in all); expf is within 2 ulp (4u). An online kernel (a running max,
//          the sum rescaled by exp(m_old - m_new) when it grows) adds u |m_old - m_new| + 4u to
//          each term per rescale, and the gaps along a term's rescales add up to its own d_c: its
//          error stays 3 u |d_c| + 4u (1 + its rescales, at most n)
//   s:     the terms are positive, so the additions add n u relative:
//          rho = 3 sum_c w_c |d_c| + 4 + 5n bounds s's relative error, in units of u
//   log s: rho u absolute, and logf's 1 ulp (2u log s)
//   loss = lse - x[t] with lse = m + log s, or (m - x[t]) + log s: each form rounds twice, at most
//          u (|m| + log s + |x[t]| + |loss|):
//          B = rho + 3 log s + |m| + |x[t]| + |loss|
// The underflow floor is one f32 subnormal spacing. A row's terms below 2^-126 relative to its
// largest are lost by every f32 kernel alike (n of them change s by at most n 2^-126).
//   total: the kernel's losses (each within its B u) added in any order, at most R - 1 additions
//          of non-negative terms: sum_r B_r + (R - 1) sum_r loss_r; the mean divides by the count,
//          rounding once more (|total|).
// A 16-bit accumulator, a sum over the wrong rows or count, a missing rescale or a dropped tile
// all move the loss by far more than B u (the mutants in kernels/cross_entropy/mutants).
double summation_terms(std::int64_t classes) { return std::ceil(static_cast<double>(classes) / 32.0) + 14; }
double sum_budget(const CrossEntropyRow& row, double terms) { return 3 * row.weighted_gap + 4 + 5 * terms; }

class CrossEntropyTolerance final : public Tolerance {
 public:
  CrossEntropyTolerance(std::int64_t classes, std::int64_t rows, int output)
      : terms_(summation_terms(classes)), rows_(static_cast<double>(rows)), output_(output) {}

  double bound(const Expected& e) const override {
    return std::max(e.condition * kUnitRoundoffF32, ulp(DType::f32, 0));
  }

  // One rounding error at this element: its budget shared among the roundings it counts (two
  // summation orders of a row's exponentials differ by many ulps of a small loss).
  double error_unit(const Expected& e, DType out) const override {
    const double roundings = output_ == kLoss ? 5 * terms_ + 4 : rows_ + 1;
    return std::max(ulp(out, e.value), e.condition * kUnitRoundoffF32 / roundings);
  }

  // What the policy grants that the eager composition does not make, so the baseline rule judges
  // only the error past it (in units of u, in Expected::input_magnitude; total's is its rows'):
  // expf's 2 ulp once per exponential and per rescale and logf's 1 ulp (the eager composition
  // calls the C library's), and the fused kernels' lse - x[t]. They keep lse in f32 for the
  // backward pass (Liger, flash-attn's and Unsloth's cross-entropy, examples/cuda_styles'
  // chunked_cross_entropy), which rounds at |lse| and |x[t]|; the eager (x[t] - max) - log s rounds
  // at |x[t] - max|, so for logits far from 0 (a row of -300s) the fused form is 10 to 30 of the
  // policy's units worse than the eager one while well inside the policy.
  double approximation_allowance(const Expected& e) const override {
    return static_cast<double>(e.input_magnitude) * kUnitRoundoffF32;
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "cross_entropy " << (output_ == kLoss ? "loss" : "total") << " f32: |err| <= B * 2^-24, B from "
      << (output_ == kLoss ? "the row (3 sum w|x-max| + 4 + 5n + 3 log s + |max| + |x[t]| + |loss|)"
                           : "the rows (sum of their B + (R-1) sum loss, / count for the mean, + |total|)")
      << ", n = ceil(V/32) + 14 = " << terms_;
    return s.str();
  }

 private:
  double terms_, rows_;
  int output_;
};

bool ignored(const TensorView& targets, std::int64_t row, std::int64_t ignore_index) {
  return static_cast<std::int64_t>(targets.at(row, 0)) == ignore_index;
}

}  // namespace

CrossEntropyRow cross_entropy_row(const TensorView& logits, std::int64_t row) {
  const std::int64_t classes = logits.cols();
  CrossEntropyRow r;
  r.max = -std::numeric_limits<double>::infinity();
  std::int64_t argmax = 0;
  bool nan = false;
  for (std::int64_t c = 0; c < classes; ++c) {
    nan = nan || std::isnan(logits.at(row, c));
    if (logits.at(row, c) > r.max) r.max = logits.at(row, c), argmax = c;
  }
  // A NaN or +inf logit makes the row's log-sum-exp NaN; every logit -inf too (no class is possible).
  if (nan || !std::isfinite(r.max)) {
    r.max = r.log_sum = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  // s - 1 without the largest term's 1: log1p keeps a loss near 0 (a confident row) to float64's
  // relative accuracy, where log(s) would round it to a multiple of 2^-52.
  double rest = 0, gaps = 0;
  for (std::int64_t c = 0; c < classes; ++c) {
    const double gap = r.max - logits.at(row, c);
    if (c == argmax || std::isinf(gap)) continue;  // a masked class adds 0 (and 0 * inf is NaN)
    const double term = std::exp(-gap);
    rest += term;
    gaps += term * gap;
  }
  r.log_sum = std::log1p(rest);
  r.weighted_gap = gaps / (1 + rest);
  return r;
}

OutputExpectations cross_entropy_reference(const TensorView& logits, const TensorView& targets,
                                           std::int64_t ignore_index, int reduction) {
  const std::int64_t rows = logits.rows();
  const double terms = summation_terms(logits.cols());
  Expectations loss{rows, 1, {}}, total{1, 1, {}};
  loss.values.reserve(static_cast<std::size_t>(rows));
  double sum = 0, budgets = 0;
  double allowances = 0;  // the rows' approximation allowances, for total
  std::int64_t kept = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    if (ignored(targets, r, ignore_index)) {
      loss.values.push_back(Expected{0, Expected::Kind::exact});
      continue;
    }
    const CrossEntropyRow row = cross_entropy_row(logits, r);
    const double target = logits.at(r, static_cast<std::int64_t>(targets.at(r, 0)));
    // (m - x[t]) + log s: two non-negative terms.
    const double v = (row.max - target) + row.log_sum;
    if (!std::isfinite(v)) {  // NaN (a NaN or +inf in the row, or every logit -inf); +inf (x[t] = -inf)
      loss.values.push_back(Expected{v, std::isnan(v) ? Expected::Kind::nan : Expected::Kind::exact});
      sum += v;
      ++kept;
      continue;
    }
    const double budget =
        sum_budget(row, terms) + 3 * row.log_sum + std::fabs(row.max) + std::fabs(target) + std::fabs(v);
    const double allowance = 4 * (1 + terms) + 2 * row.log_sum + std::fabs(row.max) + std::fabs(target);
    loss.values.push_back(Expected{v, Expected::Kind::approx, budget, static_cast<float>(allowance)});
    sum += v;
    budgets += budget;
    allowances += allowance;
    ++kept;
  }
  const double count = static_cast<double>(kept);
  if ((reduction == kCrossEntropyMean && kept == 0) || std::isnan(sum)) {
    total.values.push_back(Expected{std::numeric_limits<double>::quiet_NaN(), Expected::Kind::nan});
  } else if (std::isinf(sum)) {
    total.values.push_back(Expected{sum, Expected::Kind::exact});
  } else if (kept == 0) {
    total.values.push_back(Expected{0, Expected::Kind::exact});
  } else {
    const double additions = static_cast<double>(rows - 1);
    const double value = reduction == kCrossEntropyMean ? sum / count : sum;
    const double scale = reduction == kCrossEntropyMean ? count : 1;
    total.values.push_back(Expected{value, Expected::Kind::approx,
                                    (budgets + additions * sum) / scale + std::fabs(value),
                                    static_cast<float>(allowances / scale)});
  }
  OutputExpectations out;
  out.push_back(std::move(loss));
  out.push_back(std::move(total));
  return out;
}

std::unique_ptr<Tolerance> cross_entropy_tolerance(std::int64_t classes, std::int64_t rows, int output) {
  return std::make_unique<CrossEntropyTolerance>(classes, rows, output);
}

OutputValues cross_entropy_eager(const TensorView& logits, const TensorView& targets, std::int64_t ignore_index,
                                 int reduction, DType storage) {
  const StorageRounding q{storage};
  OutputValues out(2);
  float sum = 0;
  std::int64_t kept = 0;
  for (std::int64_t r = 0; r < logits.rows(); ++r) {
    if (ignored(targets, r, ignore_index)) {
      out[kLoss].push_back(0);
      continue;
    }
    float max = -std::numeric_limits<float>::infinity();
    for (std::int64_t c = 0; c < logits.cols(); ++c) max = std::max(max, static_cast<float>(logits.at(r, c)));
    float exps = 0;
    for (std::int64_t c = 0; c < logits.cols(); ++c) exps += std::exp(static_cast<float>(logits.at(r, c)) - max);
    const auto t = static_cast<std::int64_t>(targets.at(r, 0));
    const float log_probability = q(static_cast<float>(logits.at(r, t)) - max - std::log(exps));
    const float loss = q(-log_probability);
    out[kLoss].push_back(loss);
    sum += loss;
    ++kept;
  }
  const float total = reduction == kCrossEntropyMean ? sum / static_cast<float>(kept) : sum;
  out[kTotal].push_back(q(total));
  return out;
}

}  // namespace kverify
