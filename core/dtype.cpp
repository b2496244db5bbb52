#include "core/dtype.hpp"

#include <cmath>

namespace kverify {

double round_to(DType d, double v) {
  switch (d) {
    case DType::f64:
      return v;
    case DType::f32:
      return static_cast<float>(v);
    case DType::f16:
      return f16_bits_to_f32(f64_to_f16_bits(v));
    case DType::bf16:
      return bf16_bits_to_f32(f64_to_bf16_bits(v));
  }
  return v;
}

double ulp(DType d, double v) {
  const DTypeInfo& i = info(d);
  const double a = std::fabs(v);
  if (std::isnan(a)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(a)) return std::ldexp(1.0, static_cast<int>(std::ilogb(i.max_finite)) - i.mantissa_bits);
  int e = a == 0.0 ? i.min_exponent : std::max(static_cast<int>(std::ilogb(a)), i.min_exponent);
  // Values at or beyond the largest finite number keep the top binade's spacing.
  e = std::min(e, static_cast<int>(std::ilogb(i.max_finite)));
  return std::ldexp(1.0, e - i.mantissa_bits);
}

void store_from_f64(DType d, double v, void* bytes) {
  switch (d) {
    case DType::f64:
      std::memcpy(bytes, &v, 8);
      return;
    case DType::f32: {
      const float f = static_cast<float>(v);
      std::memcpy(bytes, &f, 4);
      return;
    }
    case DType::f16:
    case DType::bf16: {
      const std::uint16_t b = d == DType::f16 ? f64_to_f16_bits(v) : f64_to_bf16_bits(v);
      std::memcpy(bytes, &b, 2);
      return;
    }
  }
}

}  // namespace kverify
