#include "reference/tolerance.hpp"

#include <cmath>
#include <memory>
#include <sstream>

#include "core/error.hpp"

namespace kverify {
namespace {

constexpr double kEpsF32 = 0x1.0p-23;  // f32 unit roundoff is half of this

// softmax, arithmetic in f32, output stored in `dtype`.
//
// Relative error of y_i = exp(t_i) / s, with t_i = x_i - max computed in f32:
//   - the subtraction rounds t_i: absolute error |t_i| * eps/2, which exp turns into a relative
//     error of |t_i| * eps/2 (exp is ill-conditioned for large |t|: this term is not a kernel bug);
//   - expf: CUDA documents <= 2 ulp (host libm is within 1);
//   - the sum of n positive terms: each thread accumulates ~n/B terms sequentially, then a tree of
//     log2(B) levels; with B >= 32 threads, n/32 + log2(n) terms of eps/2 bound it for every
//     variant family we ship (a loose worst case; issue 4 calibrates it by measurement);
//   - the division: 0.5 ulp.
// Then the output rounding to f16/bf16 adds at most one ulp of that dtype (0.5 ulp from rounding,
// doubled because the f32 value can sit on the other side of a rounding midpoint).
// Absolute floor: probabilities that underflow. In f32, values below 2^-126 lose precision
// (subnormals); in f16, below 2^-14, with spacing 2^-24.
class SoftmaxTolerance final : public Tolerance {
 public:
  SoftmaxTolerance(DType dtype, std::int64_t n)
      : dtype_(dtype), n_(n), sum_terms_(static_cast<double>(n) / 32.0 + std::log2(static_cast<double>(n) + 1)) {}

  double bound(const Expected& e) const override {
    const double v = std::fabs(e.value);
    const double rel_f32 = kEpsF32 * (0.5 * e.condition + 2.0 + 0.5 * sum_terms_ + 0.5);
    double b = rel_f32 * v;
    if (dtype_ != DType::f32) b += ulp(dtype_, v);
    const double floor = dtype_ == DType::f16 ? 0x1.0p-24 : 0x1.0p-126;
    return std::max(b, floor);
  }

  std::string describe() const override {
    std::ostringstream out;
    out << "softmax " << name(dtype_) << ": |err| <= eps32*(|x-max|/2 + 2.5 + (n/32+log2 n)/2)*|y|"
        << (dtype_ == DType::f32 ? "" : " + 1 ulp(" + std::string(name(dtype_)) + ")") << ", floor "
        << (dtype_ == DType::f16 ? "2^-24" : "2^-126") << " (n=" << n_ << ")";
    return out.str();
  }

 private:
  DType dtype_;
  std::int64_t n_;
  double sum_terms_;
};

}  // namespace

std::unique_ptr<Tolerance> tolerance_for(std::string_view op, DType dtype, const ToleranceInput& in) {
  if (op == "softmax") return std::make_unique<SoftmaxTolerance>(dtype, in.reduction_length);
  throw InputError("no tolerance policy for op '" + std::string(op) + "' yet (policies exist for: softmax)");
}

}  // namespace kverify
