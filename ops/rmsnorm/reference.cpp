#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "ops/rmsnorm/rmsnorm.hpp"
#include "reference/baseline.hpp"

namespace kverify {
namespace {

constexpr double kUnitRoundoffF32 = 0x1.0p-24;
constexpr int kY = 0, kRstd = 1;

// rmsnorm's policy, f32 arithmetic, u = 2^-24 (first order throughout).
//
// The sum of squares: a kernel gives each row at least 32 threads (a warp), each of which adds
// its share of at most ceil(C/32) squares in sequence (or, holding 16-byte vectors, each vector's
// up to 8 squares as a tree of 3 levels, then its vectors in sequence), then the threads' partials
// meet in a tree of at most 10 levels (5 in a warp, 5 across a block of up to 1024 threads). Every
// term is positive, so with each square rounded once and each partial sum passing through at most
// d = ceil(C/32) + 13 additions the sum's relative error is at most n u, n = d + 1.
//   / C (C < 2^24 is exact in f32):                       + u
//   + eps (eps rounded to f32, then the addition):        + 2u   (eps <= mean + eps)
// so s = mean + eps is within (n + 3) u. An f32 square of a subnormal or tiny x underflows by at
// most 2^-149 per term, which eps >= 1e-12 makes negligible (2^-149 << u * 1e-12).
//   rstd = rsqrt(s): half of s's relative error, plus CUDA's rsqrtf (2 ulp, <= 4u; 1/sqrtf is 2u):
//                                                         rstd within ((n + 3) / 2 + 4) u
//   y = x * rstd * w, two f32 products:                   y within ((n + 3) / 2 + 6) u
// y stored in f16/bf16 adds one ulp of that dtype (half an ulp of rounding, doubled: the f32
// value may sit on the other side of a binade's edge). Results that underflow: rstd's floor is
// one subnormal spacing of its dtype, y's two (x * rstd rounded in the subnormal range, times
// w, rounded again: up to 1.5 spacings in f32). A kernel with fewer than 32 threads per row (a
// thread summing a whole wide row in sequence) is outside this model and may fail wide rows.
class RmsnormTolerance final : public Tolerance {
 public:
  RmsnormTolerance(DType dtype, std::int64_t width, int output)
      : out_(output == kY ? dtype : DType::f32),
        terms_(std::ceil(static_cast<double>(width) / 32.0) + 14),
        output_(output) {}

  double relative_f32() const { return ((terms_ + 3) / 2 + (output_ == kY ? 6 : 4)) * kUnitRoundoffF32; }

  double bound(const Expected& e) const override {
    const double v = std::fabs(e.value);
    double b = relative_f32() * v;
    if (out_ != DType::f32) b += ulp(out_, v);
    return std::max(b, (output_ == kY ? 2 : 1) * ulp(out_, 0));
  }

  // rsqrtf is an approximation (CUDA: 2 ulp; torch.rsqrt runs it on the GPU too) that the eager
  // composition here (1/sqrtf, correctly rounded) does not make: the baseline rule judges only the
  // error past its 4u of rstd, which y inherits. Found on an H100: warp_per_row's rsqrtf put rstd
  // 3.1 ulps off where 1/sqrtf was 0.08 off, for a row of 1025 values near 1.
  double approximation_allowance(const Expected& e) const override { return 4 * kUnitRoundoffF32 * std::fabs(e.value); }

  // The accuracy-note tier: LlamaRMSNorm (the eager baseline's formula) rounds x * rstd to the
  // storage dtype before the product with w, so a 16-bit y is rounded twice: the first rounding's
  // half ulp of h = x * rstd, times |w|, is at most one ulp of y (ulp(h) |w| <= 2 ulp(h w)). Such an
  // element is within bound() + 1 ulp(y); an f32 y has no extra rounding (the products are f32).
  double framework_bound(const Expected& e) const override {
    return bound(e) + (output_ == kY && out_ != DType::f32 ? ulp(out_, std::fabs(e.value)) : 0.0);
  }
  std::string framework_formula() const override {
    if (output_ != kY || out_ == DType::f32) return "";
    return "LlamaRMSNorm (transformers' modeling_llama.py): x * rstd rounded to the storage dtype, then times w in it: "
           "the derived bound + 1 ulp(y)";
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "rmsnorm " << (output_ == kY ? "y" : "rstd") << " " << name(out_) << ": |err| <= ((n+3)/2 + "
      << (output_ == kY ? 6 : 4) << ") * 2^-24 * |v|"
      << (out_ == DType::f32 ? "" : " + 1 ulp(" + std::string(name(out_)) + ")")
      << ", n = ceil(C/32) + 14 = " << terms_;
    return s.str();
  }

 private:
  DType out_;
  double terms_;
  int output_;
};

}  // namespace

RmsRow rmsnorm_row(const TensorView& x, std::int64_t row, double eps) {
  RmsRow r;
  for (std::int64_t c = 0; c < x.cols(); ++c) r.mean_square += x.at(row, c) * x.at(row, c);
  r.mean_square /= static_cast<double>(x.cols());
  r.rstd = 1.0 / std::sqrt(r.mean_square + eps);  // +inf in the sum gives 0, a NaN gives NaN
  return r;
}

OutputExpectations rmsnorm_reference(const TensorView& x, const TensorView& w, double eps) {
  const std::int64_t rows = x.rows(), width = x.cols();
  Expectations y{rows, width, {}}, rstd{rows, 1, {}};
  y.values.reserve(static_cast<std::size_t>(rows * width));
  const auto expected = [](double v) {
    return Expected{v, std::isnan(v) ? Expected::Kind::nan : Expected::Kind::approx, 0};
  };
  for (std::int64_t r = 0; r < rows; ++r) {
    const RmsRow row = rmsnorm_row(x, r, eps);
    rstd.values.push_back(expected(row.rstd));
    for (std::int64_t c = 0; c < width; ++c) y.values.push_back(expected(x.at(r, c) * row.rstd * w.at(c, 0)));
  }
  OutputExpectations out;
  out.push_back(std::move(y));
  out.push_back(std::move(rstd));
  return out;
}

std::unique_ptr<Tolerance> rmsnorm_tolerance(DType dtype, std::int64_t width, int output) {
  return std::make_unique<RmsnormTolerance>(dtype, width, output);
}

OutputValues rmsnorm_eager(const TensorView& x, const TensorView& w, double eps, DType storage) {
  const StorageRounding q{storage};
  const auto eps_f = static_cast<float>(eps);
  OutputValues out(2);
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    float sum = 0;
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const auto v = static_cast<float>(x.at(r, c));
      sum += v * v;
    }
    const float rstd = 1.0f / std::sqrt(sum / static_cast<float>(x.cols()) + eps_f);
    out[kRstd].push_back(rstd);
    for (std::int64_t c = 0; c < x.cols(); ++c)
      out[kY].push_back(q(static_cast<float>(w.at(c, 0)) * q(static_cast<float>(x.at(r, c)) * rstd)));
  }
  return out;
}

}  // namespace kverify
