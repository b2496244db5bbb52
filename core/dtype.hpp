// Storage dtypes and their exact conversions; and the fixed element types an op may give a tensor
// beside its storage dtype (f64, indices i32/i64, masks u8).
//
// f16/bf16 are held as raw bits. The conversions round exactly as CUDA's __float2half_rn and
// __float2bfloat16_rn do (round to nearest even; any NaN becomes the canonical 0x7fff), which
// core/tests/dtype_test.cpp checks against CUDA's own host implementation on every f16 value and
// on the bf16 rounding boundaries. Header-only and free of CUDA headers: the emu kernels use it.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

namespace kverify {

enum class DType : std::uint8_t { f32, f16, bf16, f64, i32, i64, u8 };

struct f16 {
  std::uint16_t bits;
};
struct bf16 {
  std::uint16_t bits;
};

constexpr std::uint16_t f32_to_f16_bits(float value) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t u = x & 0x7fffffffu;
  if (u > 0x7f800000u) return 0x7fff;                            // NaN
  if (u == 0x7f800000u) return sign | 0x7c00u;                   // inf
  if (u > 0x477fefffu) return sign | 0x7c00u;                    // rounds past 65504
  if (u < 0x33000001u) return static_cast<std::uint16_t>(sign);  // rounds to zero (2^-25 ties to even 0)
  std::uint32_t result;
  std::uint32_t remainder;  // the dropped bits, left-aligned in 32 bits
  if (u >= 0x38800000u) {   // normal half
    remainder = u << 19;
    result = (u - 0x38000000u) >> 13;
  } else {  // subnormal half
    const std::uint32_t shift = 0x7eu - (u >> 23);
    const std::uint32_t mantissa = (u & 0x7fffffu) | 0x800000u;
    remainder = mantissa << (32u - shift);
    result = mantissa >> shift;
  }
  if (remainder > 0x80000000u || (remainder == 0x80000000u && (result & 1u))) ++result;
  return static_cast<std::uint16_t>(sign | result);
}

constexpr float f16_bits_to_f32(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  std::uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  if (mantissa == 0) return std::bit_cast<float>(sign);
  // Subnormal half: normalise into an f32 (always representable exactly).
  std::uint32_t e = 113;
  while ((mantissa & 0x400u) == 0) {
    mantissa <<= 1;
    --e;
  }
  return std::bit_cast<float>(sign | (e << 23) | ((mantissa & 0x3ffu) << 13));
}

constexpr std::uint16_t f32_to_bf16_bits(float value) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fff;  // NaN
  std::uint32_t result = x >> 16;
  const std::uint32_t remainder = x << 16;
  if (remainder > 0x80000000u || (remainder == 0x80000000u && (result & 1u))) ++result;
  return static_cast<std::uint16_t>(result);
}

constexpr float bf16_bits_to_f32(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

// f64 -> f32 rounding to odd: a later rounding to f16/bf16 (which keep at least two bits fewer
// than f32) then rounds exactly as a single f64 -> f16/bf16 rounding would.
constexpr float f64_to_f32_round_to_odd(double v) {
  const float t = static_cast<float>(v);
  if (v != v || static_cast<double>(t) == v) return t;
  std::uint32_t bits = std::bit_cast<std::uint32_t>(t);
  // t lies beyond v (a magnitude that rounded up, or overflowed to inf): step back toward zero.
  if ((t < 0 ? -static_cast<double>(t) : static_cast<double>(t)) > (v < 0 ? -v : v)) --bits;
  return std::bit_cast<float>(bits | 1u);
}
constexpr std::uint16_t f64_to_f16_bits(double v) { return f32_to_f16_bits(f64_to_f32_round_to_odd(v)); }
constexpr std::uint16_t f64_to_bf16_bits(double v) { return f32_to_bf16_bits(f64_to_f32_round_to_odd(v)); }

// Storage <-> f32, overloaded so that kernels and references can be templated on the storage type.
constexpr float to_f32(float v) { return v; }
constexpr float to_f32(f16 v) { return f16_bits_to_f32(v.bits); }
constexpr float to_f32(bf16 v) { return bf16_bits_to_f32(v.bits); }

template <typename T>
constexpr T from_f32(float v);
template <>
constexpr float from_f32<float>(float v) {
  return v;
}
template <>
constexpr f16 from_f32<f16>(float v) {
  return f16{f32_to_f16_bits(v)};
}
template <>
constexpr bf16 from_f32<bf16>(float v) {
  return bf16{f32_to_bf16_bits(v)};
}

// Facts about each dtype, in one table.
struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::size_t size;
  int mantissa_bits;  // explicit fraction bits
  int min_exponent;   // exponent of the smallest normal
  double max_finite;
  bool integer = false;  // an index or mask type: whole values, stored by rounding to nearest and saturating
};

inline constexpr DTypeInfo kDTypes[] = {
    {DType::f32, "f32", 4, 23, -126, 3.4028234663852886e38},
    {DType::f16, "f16", 2, 10, -14, 65504.0},
    {DType::bf16, "bf16", 2, 7, -126, 3.3895313892515355e38},
    {DType::f64, "f64", 8, 52, -1022, 1.7976931348623157e308},
    {DType::i32, "i32", 4, 0, 0, 2147483647.0, true},
    {DType::i64, "i64", 8, 0, 0, 9223372036854775807.0, true},
    {DType::u8, "u8", 1, 0, 0, 255.0, true},
};

// The storage dtypes a Case may name (dtype=): the element type of every tensor the op does not fix.
constexpr bool is_storage_dtype(DType d) { return d == DType::f32 || d == DType::f16 || d == DType::bf16; }

constexpr const DTypeInfo& info(DType d) { return kDTypes[static_cast<int>(d)]; }
constexpr std::string_view name(DType d) { return info(d).name; }
constexpr std::size_t size_of(DType d) { return info(d).size; }

inline std::optional<DType> parse_dtype(std::string_view text) {
  for (const auto& entry : kDTypes)
    if (entry.name == text) return entry.dtype;
  return std::nullopt;
}

// Rounds an f64 to the dtype and widens it back (what storing the value in that dtype keeps).
// f64 -> f32 first is a double rounding for f16/bf16; callers that need a single rounding use
// the *_from_f64 helpers below.
double round_to(DType d, double v);

// The spacing of the dtype's representable numbers at |v| (ULP), with subnormal spacing for
// tiny values: the unit in which kernel errors are measured.
double ulp(DType d, double v);

// Raw storage <-> f64, reading `bytes` of one element of the dtype.
// v rounded once to the storage dtype, as its raw bits in the low bytes. constexpr: nvcc compiles it
// for the device too (the bench draws its inputs there, bench/device_image.cu).
// An integer type saturates and rounds to nearest (an index recipe's values are whole already).
constexpr std::int64_t saturated_integer(double v, double lo, double hi) {
  if (v != v) return 0;
  const double clamped = v < lo ? lo : v > hi ? hi : v;
  const double whole = clamped < 0 ? -static_cast<double>(static_cast<std::int64_t>(-clamped + 0.5))
                                   : static_cast<double>(static_cast<std::int64_t>(clamped + 0.5));
  return static_cast<std::int64_t>(whole);
}
constexpr std::uint64_t storage_bits(DType d, double v) {
  switch (d) {
    case DType::i32:
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(saturated_integer(v, -2147483648.0, 2147483647.0)));
    case DType::i64:
      // 2^63 itself does not fit: the largest double below it does.
      return static_cast<std::uint64_t>(saturated_integer(v, -9223372036854775808.0, 9223372036854774784.0));
    case DType::u8:
      return static_cast<std::uint64_t>(saturated_integer(v, 0.0, 255.0));
    case DType::f32:  // a NaN as the GPU's arithmetic gives every NaN: 0x7fffffff (emu matches it)
      return v != v ? 0x7fffffffu : std::bit_cast<std::uint32_t>(static_cast<float>(v));
    case DType::f16:
      return f64_to_f16_bits(v);
    case DType::bf16:
      return f64_to_bf16_bits(v);
    case DType::f64:
      break;
  }
  return std::bit_cast<std::uint64_t>(v);
}

// Inline: the references read every element through it.
inline double load_as_f64(DType d, const void* bytes) {
  switch (d) {
    case DType::f64: {
      double v;
      std::memcpy(&v, bytes, 8);
      return v;
    }
    case DType::f32: {
      float v;
      std::memcpy(&v, bytes, 4);
      return v;
    }
    case DType::f16:
    case DType::bf16: {
      std::uint16_t b;
      std::memcpy(&b, bytes, 2);
      return d == DType::f16 ? f16_bits_to_f32(b) : bf16_bits_to_f32(b);
    }
    case DType::i32: {
      std::int32_t v;
      std::memcpy(&v, bytes, 4);
      return v;
    }
    case DType::i64: {
      std::int64_t v;
      std::memcpy(&v, bytes, 8);
      return static_cast<double>(v);
    }
    case DType::u8:
      return *static_cast<const unsigned char*>(bytes);
  }
  return 0.0;
}
void store_from_f64(DType d, double v, void* bytes);

}  // namespace kverify
