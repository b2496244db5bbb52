#include "reference/exact.hpp"

#include <algorithm>
#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <limits>

namespace kverify {
namespace {

namespace mp = boost::multiprecision;
using Wide = mp::number<mp::mpfr_float_backend<200>, mp::et_off>;  // 665 bits: exact sums

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

double exact_log_sum_exp(std::span<const double> x, double minus) {
  const double largest = *std::max_element(x.begin(), x.end());
  Wide acc = 0;
  for (double v : x) acc += mp::exp(Wide(v) - largest);
  return static_cast<double>(mp::log(acc) + (Wide(largest) - minus));
}

bool compensated_sum_certified(double value, double magnitude, std::int64_t terms) {
  constexpr double u = 0x1.0p-53;
  const double n = static_cast<double>(terms > 1 ? terms - 1 : 0);
  if (n * u >= 0.5) return false;
  const double gamma = n * u / (1 - n * u);
  // From |r - s| <= u |s| + g: |r - s| <= (u |r| + g) / (1 - u), rounded up by a further 4u.
  const double bound = (u * std::fabs(value) + gamma * gamma * magnitude) * (1 + 4 * u);
  const double f32_ulp =
      std::ldexp(1.0, std::max(std::ilogb(std::fabs(value) > 0 ? std::fabs(value) : 0x1.0p-149), -126) - 23);
  return bound <= f32_ulp * 0x1.0p-8;
}

}  // namespace kverify
