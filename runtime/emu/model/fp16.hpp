// CUDA's 16-bit floating point types for the emu backend: what cuda_fp16.h and cuda_bf16.h give a
// kernel (__half, __half2, __nv_bfloat16, __nv_bfloat162 and the typedefs half, half2,
// nv_bfloat16, nv_bfloat162), with the conversions, arithmetic, comparisons and math functions
// kernels use, under CUDA's names.
//
// One implementation, kverify's own: the toolkit's host implementation needs the toolkit (emu
// also builds without one) and lacks the functions that have only a device path (__hfma, hexp,
// hsqrt, ...). The conversions are core/dtype.hpp's, which core/tests/dtype_test.cpp checks
// against the toolkit on every f16 value; runtime/emu/tests/fp16_test.cpp checks everything here
// against the toolkit's host functions where they exist (every value for conversions, sampled
// and boundary pairs for arithmetic) and against an exact computation where they do not.
//
// Rounding. The device computes each f16/bf16 operation as the round-to-nearest-even of the
// exact result (add.rn/sub.rn/mul.rn/fma.rn .f16/.bf16, cvt.rn). Here:
//  - add, sub, mul, div, sqrt are computed in f32 and rounded once to f16/bf16. That f32 step is
//    itself rounded, so the result is rounded twice; double rounding is innocuous when the
//    intermediate format has at least 2p+2 bits for a p-bit target (Figueroa, "When is double
//    rounding innocuous?", 1995): 24 >= 2*11+2 for f16 and 24 >= 2*8+2 for bf16. Where f32 has
//    fewer bits (its subnormal range) only bf16 results lie, on a grid 2^16 times coarser; a
//    sum or product of bf16 values there is exact in f32 or below 2^-134 (the first bf16
//    midpoint, which then rounds to 0 either way), and a quotient stays at least 2^-142 from a
//    bf16 midpoint it is not equal to, farther than f32's half-spacing 2^-150.
//  - fma is NOT safe that way: a*b can land exactly on a target midpoint and c pull it off by
//    less than the intermediate's half-ulp (f16: 3/2 * 683/1024 = 1 + 2^-11, a midpoint, plus
//    c = 2^-24 rounds in f32 back to the midpoint, which then ties to even, down, where the
//    exact sum rounds up; bf16 in f64: 7/4 * 37/64 = 1 + 3*2^-8 minus 2^-100). So fma takes the
//    exact product (22 or 16 bits, exact in f64), adds c in f64 with the error term recovered
//    (TwoSum) to round to odd, and rounds that to odd in f32 and then to nearest even in 16
//    bits: rounding to odd first and to nearest last, with two spare bits, is one correct
//    rounding (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums", 2008).
//  - hexp, hexp2, hlog, hsqrt, hrsqrt, ... are modelled as correctly rounded: the double result
//    of the host libm rounded once (through round-to-odd). The device computes them with an
//    f32 MUFU approximation, then rounds to f16 and patches the inputs NVIDIA found misrounded
//    (cuda_fp16.hpp lists them), which suggests, but does not prove, the correctly rounded
//    result for every input. Only a GPU run establishes it: compat_table.cu --exhaustive
//    compares every input on the device.
//  - __hdiv on the device is rcp.approx.ftz.f32 times a, rounded to f16, with an fma correction
//    for tiny results; emu gives the correctly rounded quotient (as the toolkit's host path
//    does). Whether the device agrees for all 2^32 pairs is again compat_table.cu --exhaustive.
//  - NaN results are the canonical NaN 0x7fff (f16 and bf16), as the toolkit's host paths give
//    them; __hneg and __habs of a NaN also give 0x7fff there (the device's neg.f16 may keep the
//    payload: compat_table.cu has rows for it).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "../../../core/dtype.hpp"
#include "runtime/emu/model/vector_types.hpp"

struct alignas(2) __half_raw {
  unsigned short x;
};
struct alignas(4) __half2_raw {
  unsigned short x, y;
};
struct alignas(2) __nv_bfloat16_raw {
  unsigned short x;
};
struct alignas(4) __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __half;
struct __nv_bfloat16;

namespace kverify::emu::fp {

// The bits of an f16/bf16 value and back, without the class conversions' overload sets.
template <typename H>
constexpr std::uint16_t bits(H h);
template <typename H>
constexpr H from_bits(std::uint16_t b);

// Exact conversions from integers: through f64 with the dropped bits kept as a sticky bit (round
// to odd), then the f64 -> 16-bit rounding of core/dtype.hpp, so an integer wider than f64's 53
// bits is still rounded once.
constexpr double integer_to_f64_round_to_odd(unsigned long long magnitude, bool negative) {
  const int width = std::bit_width(magnitude);
  double d;
  if (width <= 53) {
    d = static_cast<double>(magnitude);
  } else {
    const int shift = width - 53;
    unsigned long long top = magnitude >> shift;
    if ((magnitude & ((1ull << shift) - 1)) != 0) top |= 1u;
    d = static_cast<double>(top) * static_cast<double>(1ull << shift);
  }
  return negative ? -d : d;
}
constexpr double signed_to_f64_round_to_odd(long long v) {
  const unsigned long long magnitude =
      v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  return integer_to_f64_round_to_odd(magnitude, v < 0);
}

// f16 -> f32 as __half2float: exact, and a NaN of any payload becomes the canonical 0x7fffffff
// (the toolkit's conversion; bf16 -> f32 is a shift and keeps the payload).
constexpr float f16_to_f32(std::uint16_t b) {
  return (b & 0x7fffu) > 0x7c00u ? std::bit_cast<float>(0x7fffffffu) : ::kverify::f16_bits_to_f32(b);
}

// 16-bit float (as f32) -> integer toward zero as the device's cvt.rzi: out of range gives the
// limit; NaN gives 0, except for the 64-bit types, where it gives 0x8000000000000000 (the
// toolkit's __half2ll_rz and __half2ull_rz).
template <typename I>
constexpr I to_integer_rz(float f) {
  if (f != f) return sizeof(I) == 8 ? static_cast<I>(0x8000000000000000ull) : I{0};
  constexpr auto lo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr auto hi = static_cast<double>(std::numeric_limits<I>::max());
  const double t = static_cast<double>(f);
  if (t <= lo) return std::numeric_limits<I>::min();
  if (t >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(t);  // truncates toward zero
}

}  // namespace kverify::emu::fp

struct alignas(2) __half {
 protected:
  unsigned short __x;

 public:
  __half() = default;
  constexpr __half(const __half_raw& r) : __x(r.x) {}
  constexpr __half& operator=(const __half_raw& r) {
    __x = r.x;
    return *this;
  }
  constexpr operator __half_raw() const { return __half_raw{__x}; }

  explicit constexpr __half(__nv_bfloat16 b);
  constexpr __half(float f) : __x(::kverify::f32_to_f16_bits(f)) {}
  constexpr __half(double d) : __x(::kverify::f64_to_f16_bits(d)) {}
  constexpr operator float() const { return ::kverify::emu::fp::f16_to_f32(__x); }
  constexpr __half& operator=(float f) {
    __x = ::kverify::f32_to_f16_bits(f);
    return *this;
  }
  constexpr __half& operator=(double d) {
    __x = ::kverify::f64_to_f16_bits(d);
    return *this;
  }

  // nvcc's implicit integer conversions (the host-compiler opt-out macro does not apply: emu
  // stands in for nvcc). To integers: toward zero, saturating, NaN -> 0 (__half2int_rz & co.).
  constexpr __half(short v) : __half(static_cast<long long>(v)) {}
  constexpr __half(unsigned short v) : __half(static_cast<unsigned long long>(v)) {}
  constexpr __half(int v) : __half(static_cast<long long>(v)) {}
  constexpr __half(unsigned int v) : __half(static_cast<unsigned long long>(v)) {}
  constexpr __half(long v) : __half(static_cast<long long>(v)) {}
  constexpr __half(unsigned long v) : __half(static_cast<unsigned long long>(v)) {}
  constexpr __half(long long v) : __x(::kverify::f64_to_f16_bits(::kverify::emu::fp::signed_to_f64_round_to_odd(v))) {}
  constexpr __half(unsigned long long v)
      : __x(::kverify::f64_to_f16_bits(::kverify::emu::fp::integer_to_f64_round_to_odd(v, false))) {}
  constexpr operator signed char() const { return ::kverify::emu::fp::to_integer_rz<signed char>(float(*this)); }
  constexpr operator unsigned char() const { return ::kverify::emu::fp::to_integer_rz<unsigned char>(float(*this)); }
  constexpr operator char() const { return ::kverify::emu::fp::to_integer_rz<char>(float(*this)); }
  constexpr operator short() const { return ::kverify::emu::fp::to_integer_rz<short>(float(*this)); }
  constexpr operator unsigned short() const { return ::kverify::emu::fp::to_integer_rz<unsigned short>(float(*this)); }
  constexpr operator int() const { return ::kverify::emu::fp::to_integer_rz<int>(float(*this)); }
  constexpr operator unsigned int() const { return ::kverify::emu::fp::to_integer_rz<unsigned int>(float(*this)); }
  constexpr operator long() const { return ::kverify::emu::fp::to_integer_rz<long>(float(*this)); }
  constexpr operator unsigned long() const { return ::kverify::emu::fp::to_integer_rz<unsigned long>(float(*this)); }
  constexpr operator long long() const { return ::kverify::emu::fp::to_integer_rz<long long>(float(*this)); }
  constexpr operator unsigned long long() const {
    return ::kverify::emu::fp::to_integer_rz<unsigned long long>(float(*this));
  }
  constexpr __half& operator=(short v) { return *this = __half(v); }
  constexpr __half& operator=(unsigned short v) { return *this = __half(v); }
  constexpr __half& operator=(int v) { return *this = __half(v); }
  constexpr __half& operator=(unsigned int v) { return *this = __half(v); }
  constexpr __half& operator=(long long v) { return *this = __half(v); }
  constexpr __half& operator=(unsigned long long v) { return *this = __half(v); }
  constexpr operator bool() const { return (__x & 0x7fffu) != 0; }
};

struct alignas(2) __nv_bfloat16 {
 protected:
  unsigned short __x;

 public:
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
  constexpr __nv_bfloat16& operator=(const __nv_bfloat16_raw& r) {
    __x = r.x;
    return *this;
  }
  constexpr operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }

  explicit constexpr __nv_bfloat16(__half h) : __x(::kverify::f32_to_bf16_bits(float(h))) {}
  constexpr __nv_bfloat16(float f) : __x(::kverify::f32_to_bf16_bits(f)) {}
  constexpr __nv_bfloat16(double d) : __x(::kverify::f64_to_bf16_bits(d)) {}
  constexpr operator float() const { return ::kverify::bf16_bits_to_f32(__x); }
  constexpr __nv_bfloat16& operator=(float f) {
    __x = ::kverify::f32_to_bf16_bits(f);
    return *this;
  }
  constexpr __nv_bfloat16& operator=(double d) {
    __x = ::kverify::f64_to_bf16_bits(d);
    return *this;
  }

  constexpr __nv_bfloat16(short v) : __nv_bfloat16(static_cast<long long>(v)) {}
  constexpr __nv_bfloat16(unsigned short v) : __nv_bfloat16(static_cast<unsigned long long>(v)) {}
  constexpr __nv_bfloat16(int v) : __nv_bfloat16(static_cast<long long>(v)) {}
  constexpr __nv_bfloat16(unsigned int v) : __nv_bfloat16(static_cast<unsigned long long>(v)) {}
  constexpr __nv_bfloat16(long v) : __nv_bfloat16(static_cast<long long>(v)) {}
  constexpr __nv_bfloat16(unsigned long v) : __nv_bfloat16(static_cast<unsigned long long>(v)) {}
  constexpr __nv_bfloat16(long long v)
      : __x(::kverify::f64_to_bf16_bits(::kverify::emu::fp::signed_to_f64_round_to_odd(v))) {}
  constexpr __nv_bfloat16(unsigned long long v)
      : __x(::kverify::f64_to_bf16_bits(::kverify::emu::fp::integer_to_f64_round_to_odd(v, false))) {}
  constexpr operator signed char() const { return ::kverify::emu::fp::to_integer_rz<signed char>(float(*this)); }
  constexpr operator unsigned char() const { return ::kverify::emu::fp::to_integer_rz<unsigned char>(float(*this)); }
  constexpr operator char() const { return ::kverify::emu::fp::to_integer_rz<char>(float(*this)); }
  constexpr operator short() const { return ::kverify::emu::fp::to_integer_rz<short>(float(*this)); }
  constexpr operator unsigned short() const { return ::kverify::emu::fp::to_integer_rz<unsigned short>(float(*this)); }
  constexpr operator int() const { return ::kverify::emu::fp::to_integer_rz<int>(float(*this)); }
  constexpr operator unsigned int() const { return ::kverify::emu::fp::to_integer_rz<unsigned int>(float(*this)); }
  constexpr operator long() const { return ::kverify::emu::fp::to_integer_rz<long>(float(*this)); }
  constexpr operator unsigned long() const { return ::kverify::emu::fp::to_integer_rz<unsigned long>(float(*this)); }
  constexpr operator long long() const { return ::kverify::emu::fp::to_integer_rz<long long>(float(*this)); }
  constexpr operator unsigned long long() const {
    return ::kverify::emu::fp::to_integer_rz<unsigned long long>(float(*this));
  }
  constexpr __nv_bfloat16& operator=(short v) { return *this = __nv_bfloat16(v); }
  constexpr __nv_bfloat16& operator=(unsigned short v) { return *this = __nv_bfloat16(v); }
  constexpr __nv_bfloat16& operator=(int v) { return *this = __nv_bfloat16(v); }
  constexpr __nv_bfloat16& operator=(unsigned int v) { return *this = __nv_bfloat16(v); }
  constexpr __nv_bfloat16& operator=(long long v) { return *this = __nv_bfloat16(v); }
  constexpr __nv_bfloat16& operator=(unsigned long long v) { return *this = __nv_bfloat16(v); }
  constexpr operator bool() const { return (__x & 0x7fffu) != 0; }
};

constexpr __half::__half(__nv_bfloat16 b) : __x(::kverify::f32_to_f16_bits(float(b))) {}

// Trivially copyable (CUDA's __half2 declares its copy operations; the emu's are implicit), so
// that shuffles, memcpy and std::bit_cast take them.
struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  constexpr __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  constexpr __half2& operator=(const __half2_raw& r) { return *this = __half2(r); }
  constexpr operator __half2_raw() const {
    return __half2_raw{static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x};
  }
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
  constexpr __nv_bfloat162(const __nv_bfloat162_raw& r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  constexpr __nv_bfloat162& operator=(const __nv_bfloat162_raw& r) { return *this = __nv_bfloat162(r); }
  constexpr operator __nv_bfloat162_raw() const {
    return __nv_bfloat162_raw{static_cast<__nv_bfloat16_raw>(x).x, static_cast<__nv_bfloat16_raw>(y).x};
  }
};

using half = __half;
using half2 = __half2;
using __nv_half = __half;
using __nv_half2 = __half2;
using __nv_half_raw = __half_raw;
using __nv_half2_raw = __half2_raw;
using nv_half = __half;
using nv_half2 = __half2;
using nv_bfloat16 = __nv_bfloat16;
using nv_bfloat162 = __nv_bfloat162;

static_assert(sizeof(__half) == 2 && alignof(__half) == 2 && std::is_trivially_copyable_v<__half>);
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4 && std::is_trivially_copyable_v<__half2>);
static_assert(sizeof(__nv_bfloat16) == 2 && std::is_trivially_copyable_v<__nv_bfloat16>);
static_assert(sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4);

namespace kverify::emu::fp {

template <>
constexpr std::uint16_t bits<__half>(__half h) {
  return static_cast<__half_raw>(h).x;
}
template <>
constexpr std::uint16_t bits<__nv_bfloat16>(__nv_bfloat16 h) {
  return static_cast<__nv_bfloat16_raw>(h).x;
}
template <>
constexpr __half from_bits<__half>(std::uint16_t b) {
  return __half(__half_raw{b});
}
template <>
constexpr __nv_bfloat16 from_bits<__nv_bfloat16>(std::uint16_t b) {
  return __nv_bfloat16(__nv_bfloat16_raw{b});
}

template <typename H>
concept Half16 = std::is_same_v<H, __half> || std::is_same_v<H, __nv_bfloat16>;

template <Half16 H>
constexpr float widen(H h) {
  if constexpr (std::is_same_v<H, __half>)
    return f16_to_f32(bits(h));
  else
    return ::kverify::bf16_bits_to_f32(bits(h));
}
template <Half16 H>
constexpr H narrow(float f) {
  if constexpr (std::is_same_v<H, __half>)
    return from_bits<H>(::kverify::f32_to_f16_bits(f));
  else
    return from_bits<H>(::kverify::f32_to_bf16_bits(f));
}
template <Half16 H>
constexpr H narrow(double d) {
  if constexpr (std::is_same_v<H, __half>)
    return from_bits<H>(::kverify::f64_to_f16_bits(d));
  else
    return from_bits<H>(::kverify::f64_to_bf16_bits(d));
}
template <Half16 H>
constexpr bool is_nan(H h) {
  return (bits(h) & 0x7fffu) > (std::is_same_v<H, __half> ? 0x7c00u : 0x7f80u);
}
template <Half16 H>
constexpr H canonical_nan() {
  return from_bits<H>(0x7fffu);
}

// a*b + c rounded once (see the header comment): the product is exact in f64, the sum is rounded
// to odd in f64 with its error from TwoSum, then to odd in f32, then to nearest even.
template <Half16 H>
inline H fma(H a, H b, H c) {
  const double p = static_cast<double>(widen(a)) * static_cast<double>(widen(b));
  const double q = static_cast<double>(widen(c));
  double s = p + q;
  if (std::isfinite(s)) {
    const double qv = s - p;  // TwoSum: s + err == p + q exactly
    const double err = (p - (s - qv)) + (q - qv);
    std::uint64_t u = std::bit_cast<std::uint64_t>(s);
    if (err != 0 && (u & 1u) == 0) {
      // s is even and inexact: the odd neighbour on err's side is the round-to-odd result.
      // (s is never 0 here: an f16/bf16 p + q that is not exactly 0 is far above f64's underflow.)
      u = (err > 0) == (s > 0) ? u + 1 : u - 1;
      s = std::bit_cast<double>(u);
    }
  }
  return narrow<H>(s);
}

// max/min as the device's max.f16 / min.f16: a NaN operand gives the other one, two NaNs the
// canonical NaN, and +0 is above -0.
template <Half16 H>
constexpr H max(H a, H b) {
  if (is_nan(a) && is_nan(b)) return canonical_nan<H>();
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  const float fa = widen(a), fb = widen(b);
  if (fa == fb) return (bits(a) & 0x8000u) ? b : a;
  return fa > fb ? a : b;
}
template <Half16 H>
constexpr H min(H a, H b) {
  if (is_nan(a) && is_nan(b)) return canonical_nan<H>();
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  const float fa = widen(a), fb = widen(b);
  if (fa == fb) return (bits(a) & 0x8000u) ? a : b;
  return fa < fb ? a : b;
}
// The _nan variants propagate a NaN operand (as the canonical NaN). For two zeros the device
// orders -0 below +0 in both f16 and bf16, as __hmax/__hmin do (compat_table.cu's rows, run on an
// H200; the toolkit's host bf16 form returns the first operand instead).
template <Half16 H>
constexpr H max_nan(H a, H b) {
  if (is_nan(a) || is_nan(b)) return canonical_nan<H>();
  return max(a, b);
}
template <Half16 H>
constexpr H min_nan(H a, H b) {
  if (is_nan(a) || is_nan(b)) return canonical_nan<H>();
  return min(a, b);
}
// Saturation to [0, 1]; NaN -> +0 (the .sat modifier).
template <Half16 H>
constexpr H saturate(H v) {
  if (is_nan(v)) return from_bits<H>(0);
  const float f = widen(v);
  if (f <= 0.0f) return from_bits<H>(0);
  if (f >= 1.0f) return narrow<H>(1.0f);
  return v;
}
// ReLU with NaN kept (fma.rn.relu: negative results become +0, NaN the canonical NaN).
template <Half16 H>
constexpr H relu(H v) {
  if (is_nan(v)) return canonical_nan<H>();
  return widen(v) < 0.0f || bits(v) == 0x8000u ? from_bits<H>(0) : v;
}
// A correctly rounded unary function through f64 (see the header comment on the device).
template <Half16 H, typename F>
inline H unary_f64(H a, F f) {
  return narrow<H>(f(static_cast<double>(widen(a))));
}

}  // namespace kverify::emu::fp

// --- conversions ---------------------------------------------------------------------------------

constexpr __half __float2half(float a) { return __half(a); }
constexpr __half __float2half_rn(float a) { return __half(a); }
constexpr __half __double2half(double a) { return __half(a); }
constexpr float __half2float(__half a) { return float(a); }
constexpr __half2 __float2half2_rn(float a) { return __half2(__half(a), __half(a)); }
constexpr __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
constexpr __half2 __float22half2_rn(float2 a) { return __half2(__half(a.x), __half(a.y)); }
constexpr float2 __half22float2(__half2 a) { return float2{float(a.x), float(a.y)}; }
constexpr float __low2float(__half2 a) { return float(a.x); }
constexpr float __high2float(__half2 a) { return float(a.y); }
constexpr __half __low2half(__half2 a) { return a.x; }
constexpr __half __high2half(__half2 a) { return a.y; }
constexpr __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
constexpr __half2 __half2half2(__half a) { return __half2(a, a); }
constexpr __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
constexpr __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
constexpr __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
constexpr __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
constexpr __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
constexpr __half2 make_half2(__half x, __half y) { return __half2(x, y); }
constexpr unsigned short __half_as_ushort(__half h) { return static_cast<__half_raw>(h).x; }
constexpr short __half_as_short(__half h) { return static_cast<short>(static_cast<__half_raw>(h).x); }
constexpr __half __ushort_as_half(unsigned short i) { return __half(__half_raw{i}); }
constexpr __half __short_as_half(short i) { return __half(__half_raw{static_cast<unsigned short>(i)}); }
constexpr __half __int2half_rn(int i) { return __half(i); }
constexpr __half __uint2half_rn(unsigned int i) { return __half(i); }
constexpr __half __short2half_rn(short i) { return __half(i); }
constexpr __half __ushort2half_rn(unsigned short i) { return __half(i); }
constexpr __half __ll2half_rn(long long i) { return __half(i); }
constexpr __half __ull2half_rn(unsigned long long i) { return __half(i); }
constexpr signed char __half2char_rz(__half h) { return static_cast<signed char>(h); }
constexpr unsigned char __half2uchar_rz(__half h) { return static_cast<unsigned char>(h); }
constexpr short __half2short_rz(__half h) { return static_cast<short>(h); }
constexpr unsigned short __half2ushort_rz(__half h) { return static_cast<unsigned short>(h); }
constexpr int __half2int_rz(__half h) { return static_cast<int>(h); }
constexpr unsigned int __half2uint_rz(__half h) { return static_cast<unsigned int>(h); }
constexpr long long __half2ll_rz(__half h) { return static_cast<long long>(h); }
constexpr unsigned long long __half2ull_rz(__half h) { return static_cast<unsigned long long>(h); }
// The other rounding modes: f16 values are exact in f32, so rounding the f32 is rounding the f16.
inline int __half2int_rn(__half h) { return kverify::emu::fp::to_integer_rz<int>(std::nearbyint(float(h))); }
inline int __half2int_rd(__half h) { return kverify::emu::fp::to_integer_rz<int>(std::floor(float(h))); }
inline int __half2int_ru(__half h) { return kverify::emu::fp::to_integer_rz<int>(std::ceil(float(h))); }

constexpr __nv_bfloat16 __float2bfloat16(float a) { return __nv_bfloat16(a); }
constexpr __nv_bfloat16 __float2bfloat16_rn(float a) { return __nv_bfloat16(a); }
constexpr __nv_bfloat16 __double2bfloat16(double a) { return __nv_bfloat16(a); }
constexpr float __bfloat162float(__nv_bfloat16 a) { return float(a); }
constexpr __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(a)); }
constexpr __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
constexpr __nv_bfloat162 __float22bfloat162_rn(float2 a) {
  return __nv_bfloat162(__nv_bfloat16(a.x), __nv_bfloat16(a.y));
}
constexpr float2 __bfloat1622float2(__nv_bfloat162 a) { return float2{float(a.x), float(a.y)}; }
constexpr float __low2float(__nv_bfloat162 a) { return float(a.x); }
constexpr float __high2float(__nv_bfloat162 a) { return float(a.y); }
constexpr __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
constexpr __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
constexpr __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
constexpr __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
constexpr __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
constexpr __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
constexpr __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
constexpr __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
constexpr __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }
constexpr __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return __nv_bfloat162(x, y); }
constexpr unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return static_cast<__nv_bfloat16_raw>(h).x; }
constexpr short __bfloat16_as_short(__nv_bfloat16 h) { return static_cast<short>(static_cast<__nv_bfloat16_raw>(h).x); }
constexpr __nv_bfloat16 __ushort_as_bfloat16(unsigned short i) { return __nv_bfloat16(__nv_bfloat16_raw{i}); }
constexpr __nv_bfloat16 __short_as_bfloat16(short i) {
  return __nv_bfloat16(__nv_bfloat16_raw{static_cast<unsigned short>(i)});
}
constexpr __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16(i); }
constexpr __nv_bfloat16 __uint2bfloat16_rn(unsigned int i) { return __nv_bfloat16(i); }
constexpr __nv_bfloat16 __short2bfloat16_rn(short i) { return __nv_bfloat16(i); }
constexpr __nv_bfloat16 __ushort2bfloat16_rn(unsigned short i) { return __nv_bfloat16(i); }
constexpr __nv_bfloat16 __ll2bfloat16_rn(long long i) { return __nv_bfloat16(i); }
constexpr __nv_bfloat16 __ull2bfloat16_rn(unsigned long long i) { return __nv_bfloat16(i); }
constexpr signed char __bfloat162char_rz(__nv_bfloat16 h) { return static_cast<signed char>(h); }
constexpr unsigned char __bfloat162uchar_rz(__nv_bfloat16 h) { return static_cast<unsigned char>(h); }
constexpr short __bfloat162short_rz(__nv_bfloat16 h) { return static_cast<short>(h); }
constexpr unsigned short __bfloat162ushort_rz(__nv_bfloat16 h) { return static_cast<unsigned short>(h); }
constexpr int __bfloat162int_rz(__nv_bfloat16 h) { return static_cast<int>(h); }
constexpr unsigned int __bfloat162uint_rz(__nv_bfloat16 h) { return static_cast<unsigned int>(h); }
constexpr long long __bfloat162ll_rz(__nv_bfloat16 h) { return static_cast<long long>(h); }
constexpr unsigned long long __bfloat162ull_rz(__nv_bfloat16 h) { return static_cast<unsigned long long>(h); }
inline int __bfloat162int_rn(__nv_bfloat16 h) { return kverify::emu::fp::to_integer_rz<int>(std::nearbyint(float(h))); }
constexpr __nv_bfloat16 __float2bfloat16_rz(float a) {
  // Toward zero: drop the low 16 bits (NaN stays the canonical NaN).
  const std::uint32_t u = std::bit_cast<std::uint32_t>(a);
  if ((u & 0x7fffffffu) > 0x7f800000u) return __ushort_as_bfloat16(0x7fffu);
  return __ushort_as_bfloat16(static_cast<unsigned short>(u >> 16));
}

// --- arithmetic: one overload set per operation for __half and __nv_bfloat16, as CUDA has ------

#define KV_EMU_HALF_BINARY(name, expr)                             \
  constexpr __half name(__half a, __half b) {                      \
    using namespace ::kverify::emu::fp;                            \
    const float x = widen(a), y = widen(b);                        \
    return narrow<__half>(static_cast<float>(expr));               \
  }                                                                \
  constexpr __nv_bfloat16 name(__nv_bfloat16 a, __nv_bfloat16 b) { \
    using namespace ::kverify::emu::fp;                            \
    const float x = widen(a), y = widen(b);                        \
    return narrow<__nv_bfloat16>(static_cast<float>(expr));        \
  }
KV_EMU_HALF_BINARY(__hadd, x + y)
KV_EMU_HALF_BINARY(__hsub, x - y)
KV_EMU_HALF_BINARY(__hmul, x* y)
KV_EMU_HALF_BINARY(__hdiv, x / y)
// The _rn forms differ from the plain ones only in that nvcc never contracts them into an fma.
KV_EMU_HALF_BINARY(__hadd_rn, x + y)
KV_EMU_HALF_BINARY(__hsub_rn, x - y)
KV_EMU_HALF_BINARY(__hmul_rn, x* y)
#undef KV_EMU_HALF_BINARY

#define KV_EMU_HALF_BOTH(decl) decl(__half) decl(__nv_bfloat16)

#define KV_EMU_DECL(H)                                                                                              \
  constexpr H __hadd_sat(H a, H b) { return ::kverify::emu::fp::saturate(__hadd(a, b)); }                           \
  constexpr H __hsub_sat(H a, H b) { return ::kverify::emu::fp::saturate(__hsub(a, b)); }                           \
  constexpr H __hmul_sat(H a, H b) { return ::kverify::emu::fp::saturate(__hmul(a, b)); }                           \
  inline H __hfma(H a, H b, H c) { return ::kverify::emu::fp::fma(a, b, c); }                                       \
  inline H __hfma_sat(H a, H b, H c) { return ::kverify::emu::fp::saturate(::kverify::emu::fp::fma(a, b, c)); }     \
  inline H __hfma_relu(H a, H b, H c) { return ::kverify::emu::fp::relu(::kverify::emu::fp::fma(a, b, c)); }        \
  constexpr H __hneg(H a) {                                                                                         \
    using namespace ::kverify::emu::fp;                                                                             \
    return is_nan(a) ? canonical_nan<H>() : from_bits<H>(static_cast<std::uint16_t>(bits(a) ^ 0x8000u));            \
  }                                                                                                                 \
  constexpr H __habs(H a) {                                                                                         \
    using namespace ::kverify::emu::fp;                                                                             \
    return is_nan(a) ? canonical_nan<H>() : from_bits<H>(static_cast<std::uint16_t>(bits(a) & 0x7fffu));            \
  }                                                                                                                 \
  constexpr H __hmax(H a, H b) { return ::kverify::emu::fp::max(a, b); }                                            \
  constexpr H __hmin(H a, H b) { return ::kverify::emu::fp::min(a, b); }                                            \
  constexpr H __hmax_nan(H a, H b) { return ::kverify::emu::fp::max_nan(a, b); }                                    \
  constexpr H __hmin_nan(H a, H b) { return ::kverify::emu::fp::min_nan(a, b); }                                    \
  constexpr bool __hisnan(H a) { return ::kverify::emu::fp::is_nan(a); }                                            \
  constexpr int __hisinf(H a) {                                                                                     \
    const float f = ::kverify::emu::fp::widen(a);                                                                   \
    return f == std::numeric_limits<float>::infinity() ? 1 : f == -std::numeric_limits<float>::infinity() ? -1 : 0; \
  }                                                                                                                 \
  /* Ordered comparisons are false when either side is NaN; the ...u forms are true then. */                        \
  constexpr bool __heq(H a, H b) { return float(a) == float(b); }                                                   \
  constexpr bool __hne(H a, H b) { return float(a) < float(b) || float(a) > float(b); }                             \
  constexpr bool __hlt(H a, H b) { return float(a) < float(b); }                                                    \
  constexpr bool __hle(H a, H b) { return float(a) <= float(b); }                                                   \
  constexpr bool __hgt(H a, H b) { return float(a) > float(b); }                                                    \
  constexpr bool __hge(H a, H b) { return float(a) >= float(b); }                                                   \
  constexpr bool __hequ(H a, H b) { return !__hne(a, b); }                                                          \
  constexpr bool __hneu(H a, H b) { return !__heq(a, b); }                                                          \
  constexpr bool __hltu(H a, H b) { return !__hge(a, b); }                                                          \
  constexpr bool __hleu(H a, H b) { return !__hgt(a, b); }                                                          \
  constexpr bool __hgtu(H a, H b) { return !__hle(a, b); }                                                          \
  constexpr bool __hgeu(H a, H b) { return !__hlt(a, b); }                                                          \
  inline H hexp(H a) {                                                                                              \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::exp(x); });                                  \
  }                                                                                                                 \
  inline H hexp2(H a) {                                                                                             \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::exp2(x); });                                 \
  }                                                                                                                 \
  inline H hexp10(H a) {                                                                                            \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::pow(10.0, x); });                            \
  }                                                                                                                 \
  inline H hlog(H a) {                                                                                              \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::log(x); });                                  \
  }                                                                                                                 \
  inline H hlog2(H a) {                                                                                             \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::log2(x); });                                 \
  }                                                                                                                 \
  inline H hlog10(H a) {                                                                                            \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::log10(x); });                                \
  }                                                                                                                 \
  inline H hsqrt(H a) {                                                                                             \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::sqrt(x); });                                 \
  }                                                                                                                 \
  inline H hrsqrt(H a) {                                                                                            \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return 1.0 / std::sqrt(x); });                           \
  }                                                                                                                 \
  inline H hrcp(H a) {                                                                                              \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return 1.0 / x; });                                      \
  }                                                                                                                 \
  inline H hsin(H a) {                                                                                              \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::sin(x); });                                  \
  }                                                                                                                 \
  inline H hcos(H a) {                                                                                              \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::cos(x); });                                  \
  }                                                                                                                 \
  inline H htanh(H a) {                                                                                             \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::tanh(x); });                                 \
  }                                                                                                                 \
  inline H hceil(H a) {                                                                                             \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::ceil(x); });                                 \
  }                                                                                                                 \
  inline H hfloor(H a) {                                                                                            \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::floor(x); });                                \
  }                                                                                                                 \
  inline H htrunc(H a) {                                                                                            \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::trunc(x); });                                \
  }                                                                                                                 \
  inline H hrint(H a) {                                                                                             \
    return ::kverify::emu::fp::unary_f64(a, [](double x) { return std::nearbyint(x); });                            \
  }                                                                                                                 \
  /* Operators (nvcc's, unless __CUDA_NO_HALF_OPERATORS__ / __CUDA_NO_BFLOAT16_OPERATORS__). */                     \
  constexpr H operator+(const H& a, const H& b) { return __hadd(a, b); }                                            \
  constexpr H operator-(const H& a, const H& b) { return __hsub(a, b); }                                            \
  constexpr H operator*(const H& a, const H& b) { return __hmul(a, b); }                                            \
  constexpr H operator/(const H& a, const H& b) { return __hdiv(a, b); }                                            \
  constexpr H& operator+=(H& a, const H& b) { return a = __hadd(a, b); }                                            \
  constexpr H& operator-=(H& a, const H& b) { return a = __hsub(a, b); }                                            \
  constexpr H& operator*=(H& a, const H& b) { return a = __hmul(a, b); }                                            \
  constexpr H& operator/=(H& a, const H& b) { return a = __hdiv(a, b); }                                            \
  constexpr H& operator++(H& a) { return a = __hadd(a, H(1.0f)); }                                                  \
  constexpr H& operator--(H& a) { return a = __hsub(a, H(1.0f)); }                                                  \
  constexpr H operator++(H& a, int) {                                                                               \
    const H old = a;                                                                                                \
    a = __hadd(a, H(1.0f));                                                                                         \
    return old;                                                                                                     \
  }                                                                                                                 \
  constexpr H operator--(H& a, int) {                                                                               \
    const H old = a;                                                                                                \
    a = __hsub(a, H(1.0f));                                                                                         \
    return old;                                                                                                     \
  }                                                                                                                 \
  constexpr H operator+(const H& a) { return a; }                                                                   \
  constexpr H operator-(const H& a) { return __hneg(a); }                                                           \
  constexpr bool operator==(const H& a, const H& b) { return __heq(a, b); }                                         \
  constexpr bool operator!=(const H& a, const H& b) { return __hneu(a, b); }                                        \
  constexpr bool operator<(const H& a, const H& b) { return __hlt(a, b); }                                          \
  constexpr bool operator<=(const H& a, const H& b) { return __hle(a, b); }                                         \
  constexpr bool operator>(const H& a, const H& b) { return __hgt(a, b); }                                          \
  constexpr bool operator>=(const H& a, const H& b) { return __hge(a, b); }
KV_EMU_HALF_BOTH(KV_EMU_DECL)
#undef KV_EMU_DECL

// --- pairs: each lane as the scalar operation -----------------------------------------------------

// clang-format 14 rewraps this macro differently on every pass: left as it is.
// clang-format off
#define KV_EMU_DECL2(H2, H)                                                                                        \
  constexpr H2 __hadd2(H2 a, H2 b) { return H2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }                              \
  constexpr H2 __hsub2(H2 a, H2 b) { return H2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }                              \
  constexpr H2 __hmul2(H2 a, H2 b) { return H2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }                              \
  constexpr H2 __h2div(H2 a, H2 b) { return H2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }                              \
  constexpr H2 __hadd2_rn(H2 a, H2 b) { return __hadd2(a, b); }                                                    \
  constexpr H2 __hsub2_rn(H2 a, H2 b) { return __hsub2(a, b); }                                                    \
  constexpr H2 __hmul2_rn(H2 a, H2 b) { return __hmul2(a, b); }                                                    \
  constexpr H2 __hadd2_sat(H2 a, H2 b) { return H2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y)); }                  \
  constexpr H2 __hsub2_sat(H2 a, H2 b) { return H2(__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y)); }                  \
  constexpr H2 __hmul2_sat(H2 a, H2 b) { return H2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y)); }                  \
  inline H2 __hfma2(H2 a, H2 b, H2 c) { return H2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }                 \
  inline H2 __hfma2_sat(H2 a, H2 b, H2 c) { return H2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)); }     \
  inline H2 __hfma2_relu(H2 a, H2 b, H2 c) { return H2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)); }  \
  constexpr H2 __hneg2(H2 a) { return H2(__hneg(a.x), __hneg(a.y)); }                                              \
  constexpr H2 __habs2(H2 a) { return H2(__habs(a.x), __habs(a.y)); }                                              \
  constexpr H2 __hmax2(H2 a, H2 b) { return H2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }                              \
  constexpr H2 __hmin2(H2 a, H2 b) { return H2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }                              \
  constexpr H2 __hmax2_nan(H2 a, H2 b) { return H2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y)); }                  \
  constexpr H2 __hmin2_nan(H2 a, H2 b) { return H2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y)); }                  \
  inline H2 h2exp(H2 a) { return H2(hexp(a.x), hexp(a.y)); }                                                       \
  inline H2 h2exp2(H2 a) { return H2(hexp2(a.x), hexp2(a.y)); }                                                    \
  inline H2 h2exp10(H2 a) { return H2(hexp10(a.x), hexp10(a.y)); }                                                 \
  inline H2 h2log(H2 a) { return H2(hlog(a.x), hlog(a.y)); }                                                       \
  inline H2 h2log2(H2 a) { return H2(hlog2(a.x), hlog2(a.y)); }                                                    \
  inline H2 h2log10(H2 a) { return H2(hlog10(a.x), hlog10(a.y)); }                                                 \
  inline H2 h2sqrt(H2 a) { return H2(hsqrt(a.x), hsqrt(a.y)); }                                                    \
  inline H2 h2rsqrt(H2 a) { return H2(hrsqrt(a.x), hrsqrt(a.y)); }                                                 \
  inline H2 h2rcp(H2 a) { return H2(hrcp(a.x), hrcp(a.y)); }                                                       \
  inline H2 h2sin(H2 a) { return H2(hsin(a.x), hsin(a.y)); }                                                       \
  inline H2 h2cos(H2 a) { return H2(hcos(a.x), hcos(a.y)); }                                                       \
  inline H2 h2tanh(H2 a) { return H2(htanh(a.x), htanh(a.y)); }                                                    \
  inline H2 h2ceil(H2 a) { return H2(hceil(a.x), hceil(a.y)); }                                                    \
  inline H2 h2floor(H2 a) { return H2(hfloor(a.x), hfloor(a.y)); }                                                 \
  inline H2 h2trunc(H2 a) { return H2(htrunc(a.x), htrunc(a.y)); }                                                 \
  inline H2 h2rint(H2 a) { return H2(hrint(a.x), hrint(a.y)); }                                                    \
  /* Lane-wise comparisons give 1.0 or 0.0 per lane; the __hb...2 forms are true when both lanes are. */           \
  constexpr H2 __hisnan2(H2 a) { return H2(H(__hisnan(a.x) ? 1.0f : 0.0f), H(__hisnan(a.y) ? 1.0f : 0.0f)); }      \
  KV_EMU_CMP2(H2, H, eq)                                                                                           \
  KV_EMU_CMP2(H2, H, ne)                                                                                           \
  KV_EMU_CMP2(H2, H, lt)                                                                                           \
  KV_EMU_CMP2(H2, H, le)                                                                                           \
  KV_EMU_CMP2(H2, H, gt) KV_EMU_CMP2(H2, H, ge) KV_EMU_CMP2(H2, H, equ) KV_EMU_CMP2(H2, H, neu)                    \
      KV_EMU_CMP2(H2, H, ltu) KV_EMU_CMP2(H2, H, leu) KV_EMU_CMP2(H2, H, gtu) KV_EMU_CMP2(H2, H, geu) constexpr H2 \
      operator+(const H2& a, const H2& b) {                                                                        \
    return __hadd2(a, b);                                                                                          \
  }                                                                                                                \
  constexpr H2 operator-(const H2& a, const H2& b) { return __hsub2(a, b); }                                       \
  constexpr H2 operator*(const H2& a, const H2& b) { return __hmul2(a, b); }                                       \
  constexpr H2 operator/(const H2& a, const H2& b) { return __h2div(a, b); }                                       \
  constexpr H2& operator+=(H2& a, const H2& b) { return a = __hadd2(a, b); }                                       \
  constexpr H2& operator-=(H2& a, const H2& b) { return a = __hsub2(a, b); }                                       \
  constexpr H2& operator*=(H2& a, const H2& b) { return a = __hmul2(a, b); }                                       \
  constexpr H2& operator/=(H2& a, const H2& b) { return a = __h2div(a, b); }                                       \
  constexpr H2& operator++(H2& a) { return a = __hadd2(a, H2(H(1.0f), H(1.0f))); }                                 \
  constexpr H2& operator--(H2& a) { return a = __hsub2(a, H2(H(1.0f), H(1.0f))); }                                 \
  constexpr H2 operator++(H2& a, int) {                                                                            \
    const H2 old = a;                                                                                              \
    ++a;                                                                                                           \
    return old;                                                                                                    \
  }                                                                                                                \
  constexpr H2 operator--(H2& a, int) {                                                                            \
    const H2 old = a;                                                                                              \
    --a;                                                                                                           \
    return old;                                                                                                    \
  }                                                                                                                \
  constexpr H2 operator+(const H2& a) { return a; }                                                                \
  constexpr H2 operator-(const H2& a) { return __hneg2(a); }                                                       \
  constexpr bool operator==(const H2& a, const H2& b) { return __hbeq2(a, b); }                                    \
  constexpr bool operator!=(const H2& a, const H2& b) { return __hbneu2(a, b); }                                   \
  constexpr bool operator<(const H2& a, const H2& b) { return __hblt2(a, b); }                                     \
  constexpr bool operator<=(const H2& a, const H2& b) { return __hble2(a, b); }                                    \
  constexpr bool operator>(const H2& a, const H2& b) { return __hbgt2(a, b); }                                     \
  constexpr bool operator>=(const H2& a, const H2& b) { return __hbge2(a, b); }

#define KV_EMU_CMP2(H2, H, op)                                                              \
  constexpr H2 __h##op##2(H2 a, H2 b) {                                                     \
    return H2(H(__h##op(a.x, b.x) ? 1.0f : 0.0f), H(__h##op(a.y, b.y) ? 1.0f : 0.0f));      \
  }                                                                                         \
  constexpr unsigned __h##op##2_mask(H2 a, H2 b) {                                          \
    return (__h##op(a.x, b.x) ? 0x0000ffffu : 0u) | (__h##op(a.y, b.y) ? 0xffff0000u : 0u); \
  }                                                                                         \
  constexpr bool __hb##op##2(H2 a, H2 b) { return __h##op(a.x, b.x) && __h##op(a.y, b.y); }

// clang-format on
KV_EMU_DECL2(__half2, __half)
KV_EMU_DECL2(__nv_bfloat162, __nv_bfloat16)
#undef KV_EMU_DECL2
#undef KV_EMU_CMP2
#undef KV_EMU_HALF_BOTH

// The constants cuda_fp16.h and cuda_bf16.h define.
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
