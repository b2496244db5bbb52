#include "reference/metrics.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace kverify {

std::int64_t ordinal(DType d, double v) {
  unsigned char bytes[8] = {};
  store_from_f64(d, v, bytes);
  const std::size_t size = size_of(d);
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes, size);
  const int width = static_cast<int>(size * 8);
  const std::uint64_t sign = bits >> (width - 1);
  const std::uint64_t magnitude = bits & ((1ull << (width - 1)) - 1);
  // Sign-magnitude to a monotonic integer: -x maps to -|x|, both zeros to 0.
  return sign ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
}

double ulp_distance(DType d, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  if (info(d).integer) return std::fabs(round_to(d, a) - round_to(d, b));  // an index's unit is 1
  const std::int64_t oa = ordinal(d, a), ob = ordinal(d, b);
  return static_cast<double>(oa > ob ? oa - ob : ob - oa);
}

ValueClass classify(DType d, double v) {
  if (std::isnan(v)) return ValueClass::nan;
  if (std::isinf(v)) return ValueClass::infinite;
  if (v == 0) return ValueClass::zero;
  if (info(d).integer) return ValueClass::normal;
  return std::fabs(v) < std::ldexp(1.0, info(d).min_exponent) ? ValueClass::subnormal : ValueClass::normal;
}

std::string_view name(ValueClass c) {
  switch (c) {
    case ValueClass::zero:
      return "zero";
    case ValueClass::subnormal:
      return "subnormal";
    case ValueClass::normal:
      return "normal";
    case ValueClass::infinite:
      return "inf";
    case ValueClass::nan:
      return "NaN";
  }
  return "?";
}

double relative_error(double got, double expected) {
  const double diff = std::fabs(got - expected);
  if (diff == 0) return 0;
  return expected == 0 ? std::numeric_limits<double>::infinity() : diff / std::fabs(expected);
}

}  // namespace kverify
