#include "reference/exact.hpp"

#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <limits>

#include "reference/softmax.hpp"

namespace kverify {
namespace {

namespace mp = boost::multiprecision;
using Wide = mp::number<mp::mpfr_float_backend<200>, mp::et_off>;   // 665 bits: exact sums
using Precise = mp::number<mp::mpfr_float_backend<50>, mp::et_off>;  // 166 bits: transcendental

}  // namespace

double exact_sum(std::span<const double> terms) {
  Wide acc = 0;
  for (double t : terms) acc += t;
  return static_cast<double>(acc);
}

double exact_dot(std::span<const double> a, std::span<const double> b) {
  Wide acc = 0;
  for (std::size_t i = 0; i < a.size(); ++i) acc += Wide(a[i]) * b[i];
  return static_cast<double>(acc);
}

bool certified_f64_sum(double sum, double magnitude, std::int64_t terms) {
  const double bound = static_cast<double>(terms > 1 ? terms - 1 : 0) * 0x1.0p-53 * magnitude;
  const double f32_ulp = std::ldexp(1.0, std::max(std::ilogb(std::fabs(sum) > 0 ? std::fabs(sum) : 0x1.0p-149), -126) - 23);
  return bound <= f32_ulp * 0x1.0p-8;
}

Expectations softmax_reference_exact(const TensorView& x) {
  // Same contract as softmax_reference; only the in-domain arithmetic differs.
  Expectations out = softmax_reference(x);
  std::vector<Precise> e(static_cast<std::size_t>(x.cols()));
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    if (out.at(r, 0).kind == Expected::Kind::nan) continue;
    double max = -std::numeric_limits<double>::infinity();
    for (std::int64_t c = 0; c < x.cols(); ++c) max = std::max(max, x.at(r, c));
    Precise sum = 0;
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const double v = x.at(r, c);
      e[c] = std::isinf(v) ? Precise(0) : mp::exp(Precise(v) - max);
      sum += e[c];
    }
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      Expected& y = out.values[static_cast<std::size_t>(r * x.cols() + c)];
      if (y.kind == Expected::Kind::approx) y.value = static_cast<double>(e[c] / sum);
    }
  }
  return out;
}

}  // namespace kverify
