#include <cmath>
#include <limits>
#include <sstream>

#include "ops/row_sum/row_sum.hpp"
#include "reference/baseline.hpp"
#include "reference/exact.hpp"

namespace kverify {
namespace {

constexpr double kUnitRoundoffF32 = 0x1.0p-24;

// row_sum, f32 accumulation, result stored in `dtype`.
//
// Any f32 summation of n terms in which each term passes through at most d additions has
// |error| <= d * u * sum|x| (u = 2^-24, first order). Every row_sum variant we ship adds each
// element into a per-thread accumulator that sees at most ceil(n/256) terms (block and split
// variants run >= 256 threads per row; the warp variant, used up to width 1024, at most 32), then
// a tree of at most 16 levels (warp butterfly 5, block 5, split combine up to 6): d <= ceil(n/32)
// for narrow rows and ceil(n/256) + 16 otherwise. This worst case is sound for any input and any
// of our variants; it is loose for random signs (the baseline-relative rule is the tight one).
// f16/bf16: the f32 result is rounded once more: + 1 ulp of the output dtype.
// The fast-math policy (POLICY fast_math: nvcc --use_fast_math): only flush-to-zero reaches a sum
// (no transcendental, no division). A subnormal f32 input (bf16's subnormals are f32's) reads as 0
// and a subnormal partial sum is flushed: at most 2^-126 each, n inputs and n additions, so
// 2n * 2^-126 absolute on top of the bound, which is also the approximation allowance (the eager
// composition flushes nothing). Integer rows stay exact.
class RowSumTolerance final : public Tolerance {
 public:
  RowSumTolerance(DType dtype, std::int64_t n, bool fast_math)
      : dtype_(dtype), n_(n), flushed_(fast_math ? 2.0 * static_cast<double>(n) * 0x1.0p-126 : 0.0) {
    const double narrow = std::ceil(static_cast<double>(n) / 32.0) + 5;
    const double wide = std::ceil(static_cast<double>(n) / 256.0) + 16;
    depth_ = std::min(static_cast<double>(n), n <= 1024 ? std::max(narrow, wide) : wide);
  }

  double bound(const Expected& e) const override {
    double b = depth_ * kUnitRoundoffF32 * e.condition + flushed_;
    if (dtype_ != DType::f32) b += ulp(dtype_, e.value);
    return std::max(b, dtype_ == DType::f16 ? 0x1.0p-24 : 0x1.0p-149);
  }

  double approximation_allowance(const Expected&) const override { return flushed_; }

  double error_unit(const Expected& e, DType out) const override {
    return std::max(ulp(out, e.value), 0x1.0p-24 * e.condition);
  }

  std::string describe() const override {
    std::ostringstream out;
    out << "row_sum " << name(dtype_) << (flushed_ > 0 ? " fast_math (flush-to-zero)" : "") << ": |err| <= " << depth_
        << " * 2^-24 * sum|x|" << (flushed_ > 0 ? " + 2n * 2^-126" : "")
        << (dtype_ == DType::f32 ? "" : " + 1 ulp(" + std::string(name(dtype_)) + ")") << " (n=" << n_
        << "); integer rows with sum|x| < 2^24 exact";
    return out.str();
  }

 private:
  DType dtype_;
  std::int64_t n_;
  double flushed_;  // what flush-to-zero may drop from one sum (fast math), else 0
  double depth_ = 1;
};

// One row's sum, the accumulator a parameter: the reference sums in f64 (and decides exactly
// where f64 cannot), the eager baseline in f32 as torch.sum does for every storage dtype.
template <typename Acc>
Acc sum_in(const TensorView& x, std::int64_t r) {
  Acc sum = 0;
  for (std::int64_t c = 0; c < x.cols(); ++c) sum += static_cast<Acc>(x.at(r, c));
  return sum;
}

}  // namespace

Expectations row_sum_reference(const TensorView& x, DType out) {
  Expectations y{x.rows(), 1, std::vector<Expected>(static_cast<std::size_t>(x.rows()))};
  std::vector<double> row;
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    double plain = 0;  // NaN and infinities propagate here; the compensated sum needs finite terms
    CompensatedSum sum;
    bool integers = true;
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const double v = x.at(r, c);
      plain += v;
      if (std::isfinite(v)) sum.add(v);
      integers = integers && std::isfinite(v) && v == std::trunc(v);
    }
    Expected& e = y.values[static_cast<std::size_t>(r)];
    if (std::isnan(plain)) {
      e = {std::numeric_limits<double>::quiet_NaN(), Expected::Kind::nan, 0};
    } else if (std::isinf(plain)) {
      e = {plain, Expected::Kind::exact, 0};
    } else if (integers && sum.magnitude < 0x1.0p24) {
      // Integer partial sums below 2^24 are exact in f32 and in f64: the sum is exact.
      e = {round_to(out, plain), Expected::Kind::exact, sum.magnitude};
    } else {
      double value = sum.value();
      if (!sum.certified()) {  // cancellation: float64, even compensated, cannot decide
        row.resize(static_cast<std::size_t>(x.cols()));
        for (std::int64_t c = 0; c < x.cols(); ++c) row[static_cast<std::size_t>(c)] = x.at(r, c);
        value = exact_sum(row);
      }
      e = {value, Expected::Kind::approx, sum.magnitude};
    }
  }
  return y;
}

std::unique_ptr<Tolerance> row_sum_tolerance(DType dtype, std::int64_t row_length) {
  return std::make_unique<RowSumTolerance>(dtype, row_length, false);
}
std::unique_ptr<Tolerance> row_sum_fast_math_tolerance(DType dtype, std::int64_t row_length) {
  return std::make_unique<RowSumTolerance>(dtype, row_length, true);
}

std::vector<double> row_sum_eager(const TensorView& x, DType storage) {
  const StorageRounding q{storage};
  std::vector<double> y;
  for (std::int64_t r = 0; r < x.rows(); ++r) y.push_back(q(sum_in<float>(x, r)));
  return y;
}

}  // namespace kverify
