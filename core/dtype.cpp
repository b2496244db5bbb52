#include "core/dtype.hpp"

#include <cmath>

namespace kverify {

namespace {
// Index and mask types: rare, and kept out of round_to's hot switch.
[[gnu::noinline]] double round_to_integer(DType d, double v) {
  unsigned char bytes[8];
  store_from_f64(d, v, bytes);
  return load_as_f64(d, bytes);
}
}  // namespace

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
    case DType::i32:
    case DType::i64:
    case DType::u8:
      return round_to_integer(d, v);
  }
  return v;
}

double ulp(DType d, double v) {
  const DTypeInfo& i = info(d);
  const double a = std::fabs(v);
  if (i.integer) return 1.0;
  if (std::isnan(a)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(a)) return std::ldexp(1.0, static_cast<int>(std::ilogb(i.max_finite)) - i.mantissa_bits);
  int e = a == 0.0 ? i.min_exponent : std::max(static_cast<int>(std::ilogb(a)), i.min_exponent);
  // Values at or beyond the largest finite number keep the top binade's spacing.
  e = std::min(e, static_cast<int>(std::ilogb(i.max_finite)));
  return std::ldexp(1.0, e - i.mantissa_bits);
}

void store_from_f64(DType d, double v, void* bytes) {
  const std::uint64_t bits = storage_bits(d, v);
  std::memcpy(bytes, &bits, size_of(d));  // the low bytes: x86-64 and the GPUs are little-endian
}

}  // namespace kverify
