// CUDA's device intrinsics for the emu backend (device_functions.h, sm_*_intrinsics.h and the
// overload set of crt/math_functions.hpp), under CUDA's names: bit reinterpretation, integer
// intrinsics, conversions with an explicit rounding mode, the fast math intrinsics, min/max,
// the cache-hinted loads and stores, clocks, __nanosleep and the lane masks.
//
// Each follows the CUDA Math API / PTX ISA description of what the device computes;
// runtime/emu/tests/intrinsics_test.cpp holds the table of expected values from those texts, and
// compat_table.cu prints the same inputs on emu and on the GPU.
#pragma once

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <source_location>
#include <type_traits>

#include "fp16.hpp"
#include "runtime/emu/model/builtins.hpp"
#include "runtime/emu/model/scheduler.hpp"
#include "runtime/emu/model/vector_types.hpp"

// --- bit reinterpretation ------------------------------------------------------------------------

// A NaN's bits as the GPU's arithmetic gives them. An invalid operation (inf - inf, 0 * inf, ...)
// gives 0xffc00000 on the host (x86's default NaN) and the canonical 0x7fffffff on the GPU (PTX:
// every NaN an f32 instruction produces is canonical); read through these intrinsics, the host's is
// the GPU's. A NaN operand keeps its payload on the host, which the GPU's arithmetic replaces by
// 0x7fffffff: kverify's inputs hold every NaN as 0x7fffffff (core/dtype.hpp), so the two agree on
// them too. Not matched: a kernel's own NaN constant of other bits passed through arithmetic, a
// produced NaN negated (the host's 0x7fc00000, the GPU's 0xffffffff), bits read through memory.
constexpr unsigned int kv_emu_gpu_nan_bits(unsigned int bits) { return bits == 0xffc00000u ? 0x7fffffffu : bits; }
constexpr float __int_as_float(int x) { return std::bit_cast<float>(x); }
constexpr int __float_as_int(float x) { return static_cast<int>(kv_emu_gpu_nan_bits(std::bit_cast<unsigned int>(x))); }
constexpr float __uint_as_float(unsigned int x) { return std::bit_cast<float>(x); }
constexpr unsigned int __float_as_uint(float x) { return kv_emu_gpu_nan_bits(std::bit_cast<unsigned int>(x)); }
constexpr double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
constexpr long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
constexpr double __hiloint2double(int hi, int lo) {
  return std::bit_cast<double>((static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) |
                               static_cast<unsigned>(lo));
}
constexpr int __double2hiint(double x) { return static_cast<int>(std::bit_cast<unsigned long long>(x) >> 32); }
constexpr int __double2loint(double x) { return static_cast<int>(std::bit_cast<unsigned long long>(x) & 0xffffffffu); }

// --- integer intrinsics --------------------------------------------------------------------------

constexpr int __popc(unsigned int x) { return std::popcount(x); }
constexpr int __popcll(unsigned long long x) { return std::popcount(x); }
constexpr int __clz(int x) { return std::countl_zero(static_cast<unsigned int>(x)); }
constexpr int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
// Position of the least significant set bit, from 1; 0 when none is set.
constexpr int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned int>(x)) + 1; }
constexpr int __ffsll(long long x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1; }
constexpr unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
constexpr unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) |
         __brev(static_cast<unsigned int>(x >> 32));
}
// Byte n of the result is byte s<4n+2:4n> of the eight bytes {y, x} (x the low four). The CUDA
// Math API documents the selector as those three bits; prmt's generic form also reads bit 3 of
// each nibble (sign replication): compat_table.cu has rows with it set, to settle it on a GPU.
constexpr unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int r = 0;
  for (int n = 0; n < 4; ++n) {
    const unsigned sel = (s >> (4 * n)) & 7u;
    r |= static_cast<unsigned int>((bytes >> (8 * sel)) & 0xffu) << (8 * n);
  }
  return r;
}
// {hi, lo} shifted left by shift (mod 32 / clamped to 32); the high word.
constexpr unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift & 31u)) >> 32);
}
constexpr unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift < 32u ? shift : 32u)) >> 32);
}
// {hi, lo} shifted right by shift (mod 32 / clamped to 32); the low word.
constexpr unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift & 31u));
}
constexpr unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift < 32u ? shift : 32u));
}
constexpr unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
constexpr int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
constexpr unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
constexpr long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
constexpr int __mul24(int x, int y) {
  const auto s24 = [](int v) { return static_cast<long long>(static_cast<int>(static_cast<unsigned>(v) << 8) >> 8); };
  return static_cast<int>(static_cast<unsigned long long>(s24(x) * s24(y)) & 0xffffffffu);
}
constexpr unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
// |x - y| + z
constexpr unsigned int __sad(int x, int y, unsigned int z) {
  const long long d = static_cast<long long>(x) - y;
  return static_cast<unsigned int>(d < 0 ? -d : d) + z;
}
constexpr unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }
// Averages without overflow of the intermediate sum: (x + y) >> 1 and (x + y + 1) >> 1.
constexpr int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
constexpr int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
constexpr unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
constexpr unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}

// --- min / max: CUDA's overload set, mixed signedness included ------------------------------------
// A mixed pair converts the signed operand to the unsigned type, as CUDA's definitions do.

constexpr int min(int a, int b) { return a < b ? a : b; }
constexpr unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
constexpr unsigned int min(int a, unsigned int b) { return min(static_cast<unsigned int>(a), b); }
constexpr unsigned int min(unsigned int a, int b) { return min(a, static_cast<unsigned int>(b)); }
constexpr long min(long a, long b) { return a < b ? a : b; }
constexpr unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
constexpr unsigned long min(long a, unsigned long b) { return min(static_cast<unsigned long>(a), b); }
constexpr unsigned long min(unsigned long a, long b) { return min(a, static_cast<unsigned long>(b)); }
constexpr long long min(long long a, long long b) { return a < b ? a : b; }
constexpr unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
constexpr unsigned long long min(long long a, unsigned long long b) {
  return min(static_cast<unsigned long long>(a), b);
}
constexpr unsigned long long min(unsigned long long a, long long b) {
  return min(a, static_cast<unsigned long long>(b));
}
inline float min(float a, float b) { return std::fmin(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
constexpr int max(int a, int b) { return a > b ? a : b; }
constexpr unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
constexpr unsigned int max(int a, unsigned int b) { return max(static_cast<unsigned int>(a), b); }
constexpr unsigned int max(unsigned int a, int b) { return max(a, static_cast<unsigned int>(b)); }
constexpr long max(long a, long b) { return a > b ? a : b; }
constexpr unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
constexpr unsigned long max(long a, unsigned long b) { return max(static_cast<unsigned long>(a), b); }
constexpr unsigned long max(unsigned long a, long b) { return max(a, static_cast<unsigned long>(b)); }
constexpr long long max(long long a, long long b) { return a > b ? a : b; }
constexpr unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
constexpr unsigned long long max(long long a, unsigned long long b) {
  return max(static_cast<unsigned long long>(a), b);
}
constexpr unsigned long long max(unsigned long long a, long long b) {
  return max(a, static_cast<unsigned long long>(b));
}
inline float max(float a, float b) { return std::fmax(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }
constexpr unsigned int umin(unsigned int a, unsigned int b) { return min(a, b); }
constexpr unsigned int umax(unsigned int a, unsigned int b) { return max(a, b); }
constexpr long long llmin(long long a, long long b) { return min(a, b); }
constexpr long long llmax(long long a, long long b) { return max(a, b); }
constexpr unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
constexpr unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }
// fminf, fmaxf, expf, tanhf, erff, ... are the C library's, declared by <cmath> in the global
// namespace (the host libm is not the GPU's: the last bits differ, see DESIGN.md "Backends").
// CUDA declares the classification functions in the global namespace too (device code calls
// isfinite(x) unqualified); <cmath> has them only in std.
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

// --- conversions with a rounding mode -------------------------------------------------------------

namespace kverify::emu::round {

enum class Mode { rn, rz, ru, rd };

// The float on `mode`'s side of `exact`, given its round-to-nearest `nearest` and the sign of
// exact - nearest (err): moves one step where nearest lies on the wrong side.
inline float directed(float nearest, int err_sign, Mode mode) {
  if (err_sign == 0 || mode == Mode::rn || std::isnan(nearest)) return nearest;
  const bool up = mode == Mode::ru || (mode == Mode::rz && nearest < 0);  // the result must not be below exact
  if (up && err_sign > 0) return std::nextafter(nearest, std::numeric_limits<float>::infinity());
  if (!up && err_sign < 0) return std::nextafter(nearest, -std::numeric_limits<float>::infinity());
  return nearest;
}
// The f32 of an f64 in `mode` (one rounding: the f64 is exact).
inline float from_double(double exact, Mode mode) {
  const float n = static_cast<float>(exact);
  if (std::isinf(n) && !std::isinf(exact)) {
    // Past FLT_MAX: toward zero (or away from the overflow's side) keeps the largest finite.
    const bool keep_finite = mode == Mode::rz || (mode == Mode::ru && exact < 0) || (mode == Mode::rd && exact > 0);
    if (keep_finite) return std::copysign(std::numeric_limits<float>::max(), n);
    return n;
  }
  const double back = static_cast<double>(n);
  return directed(n, exact > back ? 1 : exact < back ? -1 : 0, mode);
}
// f32 -> integer in `mode`, saturating (cvt.{rni,rzi,rpi,rmi}); NaN -> 0, or 0x8000000000000000
// for the 64-bit types, the rule the toolkit's host __half2ll_rz / __half2ull_rz write down for
// the same instruction family (compat_table.cu has the f32 rows for a GPU to confirm).
template <typename I>
inline I to_integer(float f, Mode mode) {
  if (std::isnan(f)) return sizeof(I) == 8 ? static_cast<I>(0x8000000000000000ull) : I{0};
  double r = f;
  switch (mode) {
    case Mode::rn:
      r = std::nearbyint(r);
      break;
    case Mode::rz:
      r = std::trunc(r);
      break;
    case Mode::ru:
      r = std::ceil(r);
      break;
    case Mode::rd:
      r = std::floor(r);
      break;
  }
  if (r <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (r >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}
// a + b in f32 in `mode`: the rounded sum and its exact error (TwoSum).
inline float add(float a, float b, Mode mode) {
  const float s = a + b;
  if (!std::isfinite(s)) return mode == Mode::rn ? s : from_double(static_cast<double>(a) + b, mode);
  const float bv = s - a;
  const float err = (a - (s - bv)) + (b - bv);
  return directed(s, err > 0 ? 1 : err < 0 ? -1 : 0, mode);
}
// a * b: exact in f64 (48 bits).
inline float mul(float a, float b, Mode mode) {
  return mode == Mode::rn ? a * b : from_double(static_cast<double>(a) * b, mode);
}
// a / b: the f64 quotient is never within f64's half-ulp of an f32 it differs from (an f32
// quotient x/y that is not exact stays >= 2^-48 relative away from every f32), so its rounding
// in `mode` is the rounding of the exact quotient.
inline float div(float a, float b, Mode mode) {
  return mode == Mode::rn ? a / b : from_double(static_cast<double>(a) / b, mode);
}

// f64 -> int in `mode`, saturating, NaN -> 0.
inline int double_to_int(double x, Mode mode) {
  if (std::isnan(x)) return 0;
  const double r = mode == Mode::rn   ? std::nearbyint(x)
                   : mode == Mode::rz ? std::trunc(x)
                   : mode == Mode::ru ? std::ceil(x)
                                      : std::floor(x);
  return static_cast<int>(std::fmin(std::fmax(r, -2147483648.0), 2147483647.0));
}

}  // namespace kverify::emu::round

// ll2float rounds to odd in f64 first: a 64-bit integer rounded to f64 and then to f32 would be
// rounded twice; round-to-odd with 53 >= 24 + 2 bits leaves the f32 rounding the only one.
#define KV_EMU_ROUNDED(suffix, mode)                                                                            \
  inline int __float2int_##suffix(float x) { return kverify::emu::round::to_integer<int>(x, mode); }            \
  inline unsigned int __float2uint_##suffix(float x) {                                                          \
    return kverify::emu::round::to_integer<unsigned int>(x, mode);                                              \
  }                                                                                                             \
  inline long long __float2ll_##suffix(float x) { return kverify::emu::round::to_integer<long long>(x, mode); } \
  inline unsigned long long __float2ull_##suffix(float x) {                                                     \
    return kverify::emu::round::to_integer<unsigned long long>(x, mode);                                        \
  }                                                                                                             \
  inline int __double2int_##suffix(double x) { return kverify::emu::round::double_to_int(x, mode); }            \
  inline float __int2float_##suffix(int x) { return kverify::emu::round::from_double(x, mode); }                \
  inline float __uint2float_##suffix(unsigned int x) { return kverify::emu::round::from_double(x, mode); }      \
  inline float __ll2float_##suffix(long long x) {                                                               \
    return kverify::emu::round::from_double(kverify::emu::fp::signed_to_f64_round_to_odd(x), mode);             \
  }                                                                                                             \
  inline float __ull2float_##suffix(unsigned long long x) {                                                     \
    return kverify::emu::round::from_double(kverify::emu::fp::integer_to_f64_round_to_odd(x, false), mode);     \
  }                                                                                                             \
  inline float __double2float_##suffix(double x) { return kverify::emu::round::from_double(x, mode); }          \
  inline float __fadd_##suffix(float a, float b) { return kverify::emu::round::add(a, b, mode); }               \
  inline float __fsub_##suffix(float a, float b) { return kverify::emu::round::add(a, -b, mode); }              \
  inline float __fmul_##suffix(float a, float b) { return kverify::emu::round::mul(a, b, mode); }               \
  inline float __fdiv_##suffix(float a, float b) { return kverify::emu::round::div(a, b, mode); }
KV_EMU_ROUNDED(rn, kverify::emu::round::Mode::rn)
KV_EMU_ROUNDED(rz, kverify::emu::round::Mode::rz)
KV_EMU_ROUNDED(ru, kverify::emu::round::Mode::ru)
KV_EMU_ROUNDED(rd, kverify::emu::round::Mode::rd)
#undef KV_EMU_ROUNDED

inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __frsqrt_rn(float x) {
  return kverify::emu::round::from_double(1.0 / std::sqrt(static_cast<double>(x)), kverify::emu::round::Mode::rn);
}
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }  // NaN -> 0
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline float exp10f(float x) { return static_cast<float>(std::pow(10.0, static_cast<double>(x))); }
inline float fdividef(float a, float b) { return a / b; }

// --- fast intrinsics ------------------------------------------------------------------------------
// The GPU computes them with its MUFU approximations (ex2.approx, lg2.approx, sin.approx,
// cos.approx) with flush-to-zero; emu keeps the structure that decides most of their error
// (__expf: x*log2(e) rounded to f32 first, then 2^t) and uses the host's exact-ish functions for
// the approximations themselves. Not bit-exact to the device: compat_table.cu prints both.
inline float __expf(float x) { return std::exp2(x * 1.44269504088896341f); }
inline float __exp10f(float x) { return std::exp2(x * 3.32192809488736235f); }
inline float __logf(float x) { return std::log2(x) * 0.693147180559945309f; }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log2(x) * 0.301029995663981195f; }
inline float __powf(float x, float y) { return std::exp2(y * std::log2(x)); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return __sinf(x) / __cosf(x); }
inline void __sincosf(float x, float* s, float* c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
inline float __fdividef(float a, float b) { return a / b; }

// --- loads and stores with cache hints ----------------------------------------------------------
// One memory on emu: every hint is a plain access. Only the types CUDA overloads them for, so
// that what compiles on emu also compiles under nvcc.

namespace kverify::emu::detail {
template <typename T>
inline constexpr bool kCacheHintType =
    std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, short> || std::is_same_v<T, int> ||
    std::is_same_v<T, long> || std::is_same_v<T, long long> || std::is_same_v<T, unsigned char> ||
    std::is_same_v<T, unsigned short> || std::is_same_v<T, unsigned int> || std::is_same_v<T, unsigned long> ||
    std::is_same_v<T, unsigned long long> || std::is_same_v<T, char2> || std::is_same_v<T, char4> ||
    std::is_same_v<T, short2> || std::is_same_v<T, short4> || std::is_same_v<T, int2> || std::is_same_v<T, int4> ||
    std::is_same_v<T, longlong2> || std::is_same_v<T, uchar2> || std::is_same_v<T, uchar4> ||
    std::is_same_v<T, ushort2> || std::is_same_v<T, ushort4> || std::is_same_v<T, uint2> || std::is_same_v<T, uint4> ||
    std::is_same_v<T, ulonglong2> || std::is_same_v<T, float> || std::is_same_v<T, float2> ||
    std::is_same_v<T, float4> || std::is_same_v<T, double> || std::is_same_v<T, double2> || std::is_same_v<T, __half> ||
    std::is_same_v<T, __half2> || std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __nv_bfloat162>;
}  // namespace kverify::emu::detail

#define KV_EMU_LOAD(name)                          \
  template <typename T>                            \
  requires kverify::emu::detail::kCacheHintType<T> \
  inline T name(const T* p) { return *p; }
#define KV_EMU_STORE(name)                         \
  template <typename T>                            \
  requires kverify::emu::detail::kCacheHintType<T> \
  inline void name(T* p, T v) { *p = v; }
KV_EMU_LOAD(__ldg)
KV_EMU_LOAD(__ldcg)
KV_EMU_LOAD(__ldca)
KV_EMU_LOAD(__ldcs)
KV_EMU_LOAD(__ldlu)
KV_EMU_LOAD(__ldcv)
KV_EMU_STORE(__stwb)
KV_EMU_STORE(__stcg)
KV_EMU_STORE(__stcs)
KV_EMU_STORE(__stwt)
#undef KV_EMU_LOAD
#undef KV_EMU_STORE

// --- clocks, sleep, lanes -----------------------------------------------------------------------

// A monotone counter in nanoseconds of the host's steady clock (the device counts SM cycles; both
// only ever serve differences). clock() is the C library's (process CPU time, also monotone):
// emu cannot declare a second clock() beside it.
inline long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
inline long long __globaltimer() { return clock64(); }
// Lets another thread of the block run (a spin-wait with __nanosleep makes progress on emu,
// where threads switch only where they wait). The duration is not modelled.
inline void __nanosleep(unsigned int, std::source_location site = std::source_location::current()) {
  kverify::emu::detail::yield(site);
}

namespace kverify::emu::detail {
inline unsigned lane_id() {
  const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return linear % 32u;
}
}  // namespace kverify::emu::detail
// The lanes of the warp that have not returned. A superset of the GPU's answer, which names only
// the lanes converged with the caller at that instant (undefined on emu, where every thread runs
// alone); a collective over it then waits for the diverged lanes, and emu reports the deadlock
// or mismatch that the GPU would only show by chance.
inline unsigned __activemask() { return kverify::emu::detail::live_lanes(); }
inline unsigned __lanemask_eq() { return 1u << kverify::emu::detail::lane_id(); }
inline unsigned __lanemask_lt() { return (1u << kverify::emu::detail::lane_id()) - 1u; }
inline unsigned __lanemask_le() { return __lanemask_lt() | __lanemask_eq(); }
inline unsigned __lanemask_gt() { return ~__lanemask_le(); }
inline unsigned __lanemask_ge() { return ~__lanemask_lt(); }
