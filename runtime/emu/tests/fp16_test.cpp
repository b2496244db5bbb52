// emu's __half / __nv_bfloat16 bit for bit against independent oracles:
//  - the CUDA toolkit's own host implementation (cuda_oracle.hpp) wherever it has one: every
//    16-bit value for the conversions and unary functions, all special values crossed with each
//    other plus sampled pairs for the arithmetic and comparisons;
//  - an exact computation in MPFR, rounded to the format by the rule (nearest, ties to even,
//    with the format's subnormals and overflow), for what has only a device path: __hfma and
//    the math functions (hexp, hsqrt, ...), over every input of the unary functions.
// Neither oracle shares code with fp16.hpp.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/emu/tests/cuda_oracle.hpp"
#include "runtime/kernel_api.hpp"

namespace {

namespace oracle = kverify::emu::oracle;
using oracle::Format;

#if KVERIFY_HAVE_CUDA_ORACLE
#define KV_NEED_ORACLE()
#else
#define KV_NEED_ORACLE() \
  GTEST_SKIP() << "no CUDA toolkit headers at configure time: the toolkit's host fp16 oracle is not built"
#endif

std::string hex(unsigned v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%04x", v);
  return b;
}

template <typename H>
std::uint16_t bits_of(H v) {
  return kverify::emu::fp::bits(v);
}
template <typename H>
H of_bits(std::uint16_t b) {
  return kverify::emu::fp::from_bits<H>(b);
}
template <typename H>
constexpr Format format_of() {
  return std::is_same_v<H, __half> ? Format::f16 : Format::bf16;
}

// Inputs that matter for 16-bit arithmetic: zeros, subnormals, the normal range's ends, around 1,
// infinities and NaNs (canonical, with payload, negative).
std::vector<std::uint16_t> special_values(Format f) {
  if (f == Format::f16)
    return {0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x0401,
            0x3bff, 0x3c00, 0xbc00, 0x3c01, 0x3555, 0x4000, 0x4200, 0x5640, 0x7bfe, 0x7bff,
            0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7fff, 0xfe00, 0x7c01, 0x1400, 0x2e66, 0xc900};
  return {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x807f, 0x0080, 0x8080, 0x0081, 0x3f7f,
          0x3f80, 0xbf80, 0x3f81, 0x3eab, 0x4000, 0x4040, 0x4b80, 0x7f7e, 0x7f7f, 0xff7f,
          0x7f80, 0xff80, 0x7fc0, 0x7fff, 0xffc0, 0x7f81, 0x3400, 0x1f80, 0xe000, 0x5f00};
}

// The pairs the binary tests run: specials x specials, then random bit patterns, then random
// pairs of nearby magnitude (where sums cancel and products/quotients land near midpoints).
std::vector<std::pair<std::uint16_t, std::uint16_t>> pairs(Format f, int random_count) {
  std::vector<std::pair<std::uint16_t, std::uint16_t>> out;
  const auto s = special_values(f);
  for (auto a : s)
    for (auto b : s) out.emplace_back(a, b);
  std::mt19937 rng(f == Format::f16 ? 16 : 8);
  std::uniform_int_distribution<unsigned> any(0, 0xffff);
  for (int i = 0; i < random_count; ++i) out.emplace_back(any(rng), any(rng));
  std::uniform_int_distribution<int> near(-600, 600);
  for (int i = 0; i < random_count; ++i) {
    const unsigned a = any(rng);
    out.emplace_back(a, static_cast<std::uint16_t>((a + near(rng)) ^ (i % 2 ? 0x8000u : 0u)));
  }
  return out;
}

struct Tally {
  long long checked = 0, failed = 0;
  template <typename F>
  void expect(bool ok, F describe) {
    ++checked;
    if (!ok && ++failed <= 10) ADD_FAILURE() << describe();
  }
};

// --- conversions ---------------------------------------------------------------------------------

TEST(EmuFp16, HalfToFloatOfEveryValueMatchesTheToolkit) {
  KV_NEED_ORACLE();
  Tally t;
  for (unsigned b = 0; b <= 0xffff; ++b) {
    const float emu_h = __half2float(of_bits<__half>(static_cast<std::uint16_t>(b)));
    const float emu_b = __bfloat162float(of_bits<__nv_bfloat16>(static_cast<std::uint16_t>(b)));
    const float want_h = oracle::to_f32(Format::f16, static_cast<std::uint16_t>(b));
    const float want_b = oracle::to_f32(Format::bf16, static_cast<std::uint16_t>(b));
    t.expect(std::bit_cast<std::uint32_t>(emu_h) == std::bit_cast<std::uint32_t>(want_h),
             [&] { return "f16 " + hex(b); });
    t.expect(std::bit_cast<std::uint32_t>(emu_b) == std::bit_cast<std::uint32_t>(want_b),
             [&] { return "bf16 " + hex(b); });
  }
  EXPECT_EQ(t.failed, 0) << t.checked << " checked";
}

// Every f16/bf16 value, its neighbours in f32, and the f32 values at, just below and just above
// each midpoint between adjacent 16-bit values: every rounding decision the conversion makes.
std::vector<float> rounding_probes(Format f) {
  std::vector<float> out;
  for (unsigned b = 0; b < 0xffff; ++b) {
    if ((b & 0x7fff) >= (f == Format::f16 ? 0x7c00u : 0x7f80u)) continue;
    const float lo = oracle::to_f32(f, static_cast<std::uint16_t>(b));
    const float hi = oracle::to_f32(f, static_cast<std::uint16_t>(b + 1));
    if (std::isinf(hi) || std::signbit(lo) != std::signbit(hi)) continue;
    const float mid = static_cast<float>((static_cast<double>(lo) + hi) / 2);  // exact in f32
    for (float v :
         {lo, mid, std::nextafter(mid, -INFINITY), std::nextafter(mid, INFINITY), std::nextafter(lo, INFINITY)})
      out.push_back(v);
  }
  const float specials[] = {0.0f,
                            -0.0f,
                            INFINITY,
                            -INFINITY,
                            NAN,
                            -NAN,
                            std::bit_cast<float>(0x7f800001u),
                            65504.0f,
                            65519.99f,
                            65520.0f,
                            65536.0f,
                            3.4e38f,
                            1e-8f,
                            2.98e-8f,
                            2.9802322e-8f,
                            std::numeric_limits<float>::denorm_min(),
                            std::numeric_limits<float>::max()};
  for (float v : specials) {
    out.push_back(v);
    out.push_back(-v);
  }
  return out;
}

TEST(EmuFp16, FloatToHalfRoundsEveryBoundaryAsTheToolkit) {
  KV_NEED_ORACLE();
  for (Format f : {Format::f16, Format::bf16}) {
    Tally t;
    for (float v : rounding_probes(f)) {
      const std::uint16_t emu =
          f == Format::f16 ? __half_as_ushort(__float2half_rn(v)) : __bfloat16_as_ushort(__float2bfloat16_rn(v));
      const std::uint16_t emu2 =
          f == Format::f16 ? __half_as_ushort(__half(v)) : __bfloat16_as_ushort(__nv_bfloat16(v));
      const std::uint16_t want = oracle::from_f32(f, v);
      t.expect(emu == want && emu2 == want, [&] {
        return std::string(f == Format::f16 ? "f16" : "bf16") + " of f32 " +
               hex(std::bit_cast<std::uint32_t>(v) >> 16) + hex(std::bit_cast<std::uint32_t>(v) & 0xffff) + ": emu " +
               hex(emu) + " toolkit " + hex(want);
      });
    }
    EXPECT_EQ(t.failed, 0) << t.checked << " checked";
  }
}

TEST(EmuFp16, DoubleToHalfRoundsOnceAsTheToolkit) {
  KV_NEED_ORACLE();
  for (Format f : {Format::f16, Format::bf16}) {
    Tally t;
    std::vector<double> probes;
    for (float v : rounding_probes(f)) {
      // Just off each f32 probe by less than an f32 ulp: where f64 -> f32 -> 16 bits would round twice.
      probes.push_back(v);
      probes.push_back(std::nextafter(static_cast<double>(v), INFINITY));
      probes.push_back(std::nextafter(static_cast<double>(v), -INFINITY));
    }
    for (double v : probes) {
      const std::uint16_t emu =
          f == Format::f16 ? __half_as_ushort(__double2half(v)) : __bfloat16_as_ushort(__double2bfloat16(v));
      const std::uint16_t want = oracle::from_f64(f, v);
      t.expect(emu == want, [&] { return "f64 " + std::to_string(v) + ": emu " + hex(emu) + " toolkit " + hex(want); });
    }
    EXPECT_EQ(t.failed, 0) << t.checked << " checked";
  }
}

template <typename H>
void check_integer_conversions(Tally& t) {
  constexpr Format f = format_of<H>();
  using oracle::Integer;
  for (unsigned b = 0; b <= 0xffff; ++b) {
    const H v = of_bits<H>(static_cast<std::uint16_t>(b));
    const long long emu[] = {static_cast<signed char>(v), static_cast<unsigned char>(v),
                             static_cast<short>(v),       static_cast<unsigned short>(v),
                             static_cast<int>(v),         static_cast<unsigned int>(v),
                             static_cast<long long>(v),   static_cast<long long>(static_cast<unsigned long long>(v))};
    const Integer types[] = {Integer::s8,  Integer::u8,  Integer::s16, Integer::u16,
                             Integer::s32, Integer::u32, Integer::s64, Integer::u64};
    for (int k = 0; k < 8; ++k) {
      const long long want = oracle::to_integer_rz(f, types[k], static_cast<std::uint16_t>(b));
      t.expect(emu[k] == want, [&] {
        return hex(b) + " to integer type " + std::to_string(k) + ": emu " + std::to_string(emu[k]) + " toolkit " +
               std::to_string(want);
      });
    }
  }
  std::mt19937_64 rng(3);
  std::vector<long long> ints;
  for (long long i = -70000; i <= 70000; ++i) ints.push_back(i);
  for (int i = 0; i < 200000; ++i) ints.push_back(static_cast<long long>(rng()) >> (rng() % 63));
  for (int e = 0; e < 63; ++e)
    for (long long d : {-1ll, 0ll, 1ll}) {
      ints.push_back((1ll << e) + d);
      ints.push_back(-(1ll << e) + d);
      ints.push_back((1ll << e) + (1ll << (e > 9 ? e - 9 : 0)) + d);  // around a bf16/f16 midpoint
    }
  for (long long i : ints) {
    const bool fits16 = i >= -32768 && i <= 32767, fitsu16 = i >= 0 && i <= 65535;
    const bool fits32 = i >= INT32_MIN && i <= INT32_MAX, fitsu32 = i >= 0 && i <= UINT32_MAX;
    auto same = [&](H emu, Integer type) {
      const std::uint16_t want = oracle::from_integer(f, type, i);
      t.expect(bits_of(emu) == want,
               [&] { return "integer " + std::to_string(i) + ": emu " + hex(bits_of(emu)) + " toolkit " + hex(want); });
    };
    if (fits16) same(H(static_cast<short>(i)), Integer::s16);
    if (fitsu16) same(H(static_cast<unsigned short>(i)), Integer::u16);
    if (fits32) same(H(static_cast<int>(i)), Integer::s32);
    if (fitsu32) same(H(static_cast<unsigned int>(i)), Integer::u32);
    same(H(i), Integer::s64);
    const auto u = static_cast<unsigned long long>(i);
    const std::uint16_t want_u = oracle::from_unsigned(f, u);
    t.expect(bits_of(H(u)) == want_u, [&] { return "unsigned " + std::to_string(u); });
  }
}

TEST(EmuFp16, IntegerConversionsBothWaysMatchTheToolkit) {
  KV_NEED_ORACLE();
  Tally t;
  check_integer_conversions<__half>(t);
  check_integer_conversions<__nv_bfloat16>(t);
  EXPECT_EQ(t.failed, 0) << t.checked << " checked";
}

// --- arithmetic, comparisons, unary functions ---------------------------------------------------

template <typename H>
std::uint16_t emu_binary(oracle::Binary op, H a, H b) {
  using oracle::Binary;
  switch (op) {
    case Binary::add:
      return bits_of(__hadd(a, b));
    case Binary::sub:
      return bits_of(__hsub(a, b));
    case Binary::mul:
      return bits_of(__hmul(a, b));
    case Binary::div:
      return bits_of(__hdiv(a, b));
    case Binary::max:
      return bits_of(__hmax(a, b));
    case Binary::min:
      return bits_of(__hmin(a, b));
    case Binary::max_nan:
      return bits_of(__hmax_nan(a, b));
    case Binary::min_nan:
      return bits_of(__hmin_nan(a, b));
    case Binary::add_sat:
      return bits_of(__hadd_sat(a, b));
    case Binary::sub_sat:
      return bits_of(__hsub_sat(a, b));
    case Binary::mul_sat:
      return bits_of(__hmul_sat(a, b));
  }
  return 0;
}

template <typename H>
void check_binary(Tally& t) {
  constexpr Format f = format_of<H>();
  using oracle::Binary;
  const Binary ops[] = {Binary::add,     Binary::sub,     Binary::mul,     Binary::div,     Binary::max,    Binary::min,
                        Binary::max_nan, Binary::min_nan, Binary::add_sat, Binary::sub_sat, Binary::mul_sat};
  const char* names[] = {"add",     "sub",     "mul",     "div",     "max",    "min",
                         "max_nan", "min_nan", "add_sat", "sub_sat", "mul_sat"};
  for (const auto& ab : pairs(f, 300000)) {
    const std::uint16_t a = ab.first, b = ab.second;
    const H x = of_bits<H>(a), y = of_bits<H>(b);
    for (int k = 0; k < 11; ++k) {
      std::uint16_t want = oracle::binary(f, ops[k], a, b);
      // bf16 max_nan/min_nan of +0 and -0: the toolkit's host form returns the first operand, the
      // H200 orders -0 below +0 (compat_table.expected's device rows); emu follows the device.
      if (f == Format::bf16 && (ops[k] == Binary::max_nan || ops[k] == Binary::min_nan) && a != b &&
          ((a | b) & 0x7fffu) == 0)
        want = ops[k] == Binary::max_nan ? 0x0000u : 0x8000u;
      const std::uint16_t emu = emu_binary(ops[k], x, y);
      t.expect(emu == want, [&] {
        return std::string(f == Format::f16 ? "f16 " : "bf16 ") + names[k] + "(" + hex(a) + ", " + hex(b) + "): emu " +
               hex(emu) + " toolkit " + hex(want);
      });
    }
    // Operators and the pair forms are the same operations.
    t.expect(bits_of(x + y) == emu_binary(Binary::add, x, y) && bits_of(x - y) == emu_binary(Binary::sub, x, y) &&
                 bits_of(x * y) == emu_binary(Binary::mul, x, y) && bits_of(x / y) == emu_binary(Binary::div, x, y),
             [&] { return "operators " + hex(a) + " " + hex(b); });
    using H2 = std::conditional_t<std::is_same_v<H, __half>, __half2, __nv_bfloat162>;
    const H2 p(x, y), q(y, x);
    const H2 s = p + q, m = __hmul2(p, q), d = __h2div(p, q);
    t.expect(bits_of(s.x) == emu_binary(Binary::add, x, y) && bits_of(s.y) == emu_binary(Binary::add, y, x) &&
                 bits_of(m.y) == emu_binary(Binary::mul, y, x) && bits_of(d.y) == emu_binary(Binary::div, y, x),
             [&] { return "pair forms " + hex(a) + " " + hex(b); });
  }
}

TEST(EmuFp16, ArithmeticMatchesTheToolkitOnSpecialAndSampledPairs) {
  KV_NEED_ORACLE();
  Tally t;
  check_binary<__half>(t);
  check_binary<__nv_bfloat16>(t);
  EXPECT_EQ(t.failed, 0) << t.checked << " checked";
}

template <typename H>
void check_compare(Tally& t) {
  constexpr Format f = format_of<H>();
  using oracle::Compare;
  for (const auto& ab : pairs(f, 100000)) {
    const std::uint16_t a = ab.first, b = ab.second;
    const H x = of_bits<H>(a), y = of_bits<H>(b);
    const bool emu[] = {__heq(x, y),  __hne(x, y),  __hlt(x, y),       __hle(x, y),  __hgt(x, y),  __hge(x, y),
                        __hequ(x, y), __hneu(x, y), __hltu(x, y),      __hleu(x, y), __hgtu(x, y), __hgeu(x, y),
                        x == y,       x != y,       x<y, x <= y, x> y, x >= y};
    for (int k = 0; k < 18; ++k) {
      const bool want = oracle::compare(f, static_cast<Compare>(k), a, b);
      t.expect(emu[k] == want, [&] { return "compare " + std::to_string(k) + " (" + hex(a) + ", " + hex(b) + ")"; });
    }
  }
}

TEST(EmuFp16, ComparisonsAndOperatorsMatchTheToolkit) {
  KV_NEED_ORACLE();
  Tally t;
  check_compare<__half>(t);
  check_compare<__nv_bfloat16>(t);
  EXPECT_EQ(t.failed, 0) << t.checked << " checked";
}

TEST(EmuFp16, NegAbsIsnanIsinfOfEveryValueMatchTheToolkit) {
  KV_NEED_ORACLE();
  Tally t;
  for (unsigned u = 0; u <= 0xffff; ++u) {
    const auto b = static_cast<std::uint16_t>(u);
    const __half h = of_bits<__half>(b);
    const __nv_bfloat16 v = of_bits<__nv_bfloat16>(b);
    t.expect(bits_of(__hneg(h)) == oracle::unary(Format::f16, oracle::Unary::neg, b), [&] { return "hneg " + hex(b); });
    t.expect(bits_of(-h) == bits_of(__hneg(h)), [&] { return "unary - " + hex(b); });
    t.expect(bits_of(__habs(h)) == oracle::unary(Format::f16, oracle::Unary::abs, b), [&] { return "habs " + hex(b); });
    t.expect(bits_of(__hneg(v)) == oracle::unary(Format::bf16, oracle::Unary::neg, b),
             [&] { return "bf16 hneg " + hex(b); });
    t.expect(bits_of(__habs(v)) == oracle::unary(Format::bf16, oracle::Unary::abs, b),
             [&] { return "bf16 habs " + hex(b); });
    t.expect(__hisnan(h) == oracle::is_nan(Format::f16, b) && __hisnan(v) == oracle::is_nan(Format::bf16, b),
             [&] { return "hisnan " + hex(b); });
    t.expect(__hisinf(h) == oracle::is_inf(Format::f16, b) && __hisinf(v) == oracle::is_inf(Format::bf16, b),
             [&] { return "hisinf " + hex(b); });
  }
  EXPECT_EQ(t.failed, 0) << t.checked << " checked";
}

// --- what has only a device path: exact values from MPFR ------------------------------------------

// Rounds x (exact, or correct to far more bits than 16) to the format: nearest, ties to even, with
// subnormals and overflow to infinity; NaN becomes the canonical 0x7fff.
std::uint16_t round_exact(mpfr_srcptr x, Format f) {
  if (mpfr_nan_p(x)) return 0x7fff;
  const bool neg = mpfr_signbit(x);
  const std::uint16_t sign = neg ? 0x8000 : 0;
  const std::uint16_t inf = f == Format::f16 ? 0x7c00 : 0x7f80;
  if (mpfr_inf_p(x)) return sign | inf;
  if (mpfr_zero_p(x)) return sign;
  const int p = f == Format::f16 ? 11 : 8;         // significand bits
  const int emin = f == Format::f16 ? -14 : -126;  // exponent of the smallest normal
  const int emax = f == Format::f16 ? 15 : 127;
  mpfr_t a, n;
  mpfr_inits2(2000, a, n, static_cast<mpfr_ptr>(nullptr));
  mpfr_abs(a, x, MPFR_RNDN);
  const long e = mpfr_get_exp(a) - 1;  // |x| in [2^e, 2^(e+1))
  const long q = std::max<long>(e, emin) - (p - 1);
  mpfr_mul_2si(n, a, -q, MPFR_RNDN);
  mpfr_rint(n, n, MPFR_RNDN);  // nearest integer, ties to even
  const unsigned long m = mpfr_get_ui(n, MPFR_RNDN);
  mpfr_clears(a, n, static_cast<mpfr_ptr>(nullptr));
  // value = m * 2^q with m < 2^p, or m == 2^p after a carry into the next binade
  long mant = static_cast<long>(m), exp2 = q;
  if (mant == 0) return sign;
  if (mant == (1l << p)) {
    mant >>= 1;
    ++exp2;
  }
  const long top = exp2 + p - 1;  // exponent of the value when mant has p bits
  if (mant >= (1l << (p - 1))) {
    if (top > emax) return sign | inf;
    const int bias = f == Format::f16 ? 15 : 127;
    return static_cast<std::uint16_t>(sign | ((top + bias) << (p - 1)) | (mant - (1l << (p - 1))));
  }
  return static_cast<std::uint16_t>(sign | mant);  // subnormal: exponent field 0
}

// The exact value of a 16-bit pattern (decoded from the format's definition); false for NaN.
bool set_exact(mpfr_ptr v, Format f, std::uint16_t b) {
  const int p = f == Format::f16 ? 11 : 8, bias = f == Format::f16 ? 15 : 127;
  const unsigned exp_field = (b & 0x7fffu) >> (p - 1), frac = b & ((1u << (p - 1)) - 1);
  const unsigned exp_all = f == Format::f16 ? 0x1f : 0xff;
  const bool neg = (b & 0x8000u) != 0;
  if (exp_field == exp_all) {
    if (frac != 0) return false;
    mpfr_set_inf(v, neg ? -1 : 1);
    return true;
  }
  if (exp_field == 0) {
    mpfr_set_ui_2exp(v, frac, 1 - bias - (p - 1), MPFR_RNDN);
  } else {
    mpfr_set_ui_2exp(v, (1u << (p - 1)) | frac, static_cast<long>(exp_field) - bias - (p - 1), MPFR_RNDN);
  }
  if (neg) mpfr_neg(v, v, MPFR_RNDN);
  if (neg && mpfr_zero_p(v)) mpfr_setsign(v, v, 1, MPFR_RNDN);
  return true;
}

template <typename H>
void check_fma(Tally& t, int random_count) {
  constexpr Format f = format_of<H>();
  mpfr_t a, b, c, r;
  mpfr_inits2(1200, a, b, c, r, static_cast<mpfr_ptr>(nullptr));
  const auto s = special_values(f);
  std::vector<std::array<std::uint16_t, 3>> triples;
  for (auto x : s)
    for (auto y : s)
      for (auto z : s) triples.push_back({x, y, z});
  std::mt19937 rng(f == Format::f16 ? 61 : 62);
  std::uniform_int_distribution<unsigned> any(0, 0xffff);
  for (int i = 0; i < random_count; ++i)
    triples.push_back({static_cast<std::uint16_t>(any(rng)), static_cast<std::uint16_t>(any(rng)),
                       static_cast<std::uint16_t>(any(rng))});
  // c tiny next to a product near a midpoint: where a rounded intermediate would round twice.
  for (int i = 0; i < random_count; ++i) {
    const unsigned x = any(rng) & 0x3fff, y = any(rng) & 0x3fff;
    triples.push_back({static_cast<std::uint16_t>(x | 0x3000), static_cast<std::uint16_t>(y | 0x3000),
                       static_cast<std::uint16_t>((any(rng) & 0x80ffu))});
  }
  // The counterexamples of the header comment.
  if (f == Format::f16)
    triples.push_back({0x3e00 /* 1.5 */, 0x3956 /* 683/1024 */, 0x0001 /* 2^-24 */});
  else
    triples.push_back({0x3fe0 /* 1.75 */, 0x3f14 /* 37/64 */, 0x8d80 /* about -2^-100 */});
  for (const auto& xyz : triples) {
    const std::uint16_t x = xyz[0], y = xyz[1], z = xyz[2];
    std::uint16_t want;
    if (!set_exact(a, f, x) || !set_exact(b, f, y) || !set_exact(c, f, z)) {
      want = 0x7fff;
    } else {
      mpfr_fma(r, a, b, c, MPFR_RNDN);  // exact at 1200 bits (the widest bf16 span is ~520), IEEE signed zeros
      want = round_exact(r, f);
    }
    const std::uint16_t emu = bits_of(__hfma(of_bits<H>(x), of_bits<H>(y), of_bits<H>(z)));
    t.expect(emu == want, [&] {
      return std::string(f == Format::f16 ? "f16" : "bf16") + " fma(" + hex(x) + ", " + hex(y) + ", " + hex(z) +
             "): emu " + hex(emu) + " exact " + hex(want);
    });
  }
  mpfr_clears(a, b, c, r, static_cast<mpfr_ptr>(nullptr));
}

TEST(EmuFp16, FmaIsTheExactResultRoundedOnce) {
  Tally t;
  check_fma<__half>(t, 300000);
  check_fma<__nv_bfloat16>(t, 300000);
  EXPECT_EQ(t.failed, 0) << t.checked << " checked";
}

// emu's math functions are the correctly rounded values (the model: fp16.hpp's header comment).
template <typename H>
void check_unary(Tally& t, const char* name, H (*emu)(H), int (*exact)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)) {
  constexpr Format f = format_of<H>();
  mpfr_t a, r;
  mpfr_inits2(200, a, r, static_cast<mpfr_ptr>(nullptr));
  for (unsigned u = 0; u <= 0xffff; ++u) {
    const auto b = static_cast<std::uint16_t>(u);
    std::uint16_t want = 0x7fff;
    if (set_exact(a, f, b)) {
      exact(r, a, MPFR_RNDN);
      want = round_exact(r, f);
    }
    const std::uint16_t got = bits_of(emu(of_bits<H>(b)));
    t.expect(got == want, [&] {
      return std::string(f == Format::f16 ? "f16 " : "bf16 ") + name + "(" + hex(b) + "): emu " + hex(got) +
             " correctly rounded " + hex(want);
    });
  }
  mpfr_clears(a, r, static_cast<mpfr_ptr>(nullptr));
}

// IEEE 754's rSqrt(+-0) is +-inf (MPFR returns +inf for -0), as the device's rsqrt.approx gives.
int mpfr_rsqrt(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t rnd) {
  if (mpfr_zero_p(a)) {
    mpfr_set_inf(r, mpfr_signbit(a) ? -1 : 1);
    return 0;
  }
  return mpfr_rec_sqrt(r, a, rnd);
}
int mpfr_rcp(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t rnd) { return mpfr_ui_div(r, 1, a, rnd); }
int mpfr_nearbyint(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t) { return mpfr_rint(r, a, MPFR_RNDN); }
int mpfr_ceil_(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t) { return mpfr_ceil(r, a); }
int mpfr_floor_(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t) { return mpfr_floor(r, a); }
int mpfr_trunc_(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t) { return mpfr_trunc(r, a); }

template <typename H>
void check_all_unary(Tally& t) {
  check_unary<H>(t, "hexp", hexp, mpfr_exp);
  check_unary<H>(t, "hexp2", hexp2, mpfr_exp2);
  check_unary<H>(t, "hexp10", hexp10, mpfr_exp10);
  check_unary<H>(t, "hlog", hlog, mpfr_log);
  check_unary<H>(t, "hlog2", hlog2, mpfr_log2);
  check_unary<H>(t, "hlog10", hlog10, mpfr_log10);
  check_unary<H>(t, "hsqrt", hsqrt, mpfr_sqrt);
  check_unary<H>(t, "hrsqrt", hrsqrt, mpfr_rsqrt);
  check_unary<H>(t, "hrcp", hrcp, mpfr_rcp);
  check_unary<H>(t, "hsin", hsin, mpfr_sin);
  check_unary<H>(t, "hcos", hcos, mpfr_cos);
  check_unary<H>(t, "htanh", htanh, mpfr_tanh);
  check_unary<H>(t, "hrint", hrint, mpfr_nearbyint);
  check_unary<H>(t, "hceil", hceil, mpfr_ceil_);
  check_unary<H>(t, "hfloor", hfloor, mpfr_floor_);
  check_unary<H>(t, "htrunc", htrunc, mpfr_trunc_);
}

TEST(EmuFp16, MathFunctionsOfEveryValueAreCorrectlyRounded) {
  Tally t;
  check_all_unary<__half>(t);
  check_all_unary<__nv_bfloat16>(t);
  EXPECT_EQ(t.failed, 0) << t.checked << " checked";
  // h2exp and the other pair forms are the scalar function per lane.
  const __half2 x(__float2half(0.5f), __float2half(-3.0f));
  const __half2 e = h2exp(x);
  EXPECT_EQ(__half_as_ushort(e.x), __half_as_ushort(hexp(x.x)));
  EXPECT_EQ(__half_as_ushort(e.y), __half_as_ushort(hexp(x.y)));
}

// --- the surface kernels use -----------------------------------------------------------------------

TEST(EmuFp16, PairAndPackingFunctionsFollowTheDocumentation) {
  const __half a = __float2half(1.5f), b = __float2half(-2.0f);
  const __half2 p = __halves2half2(a, b);
  EXPECT_EQ(__low2float(p), 1.5f);
  EXPECT_EQ(__high2float(p), -2.0f);
  EXPECT_EQ(__half_as_ushort(__low2half(p)), 0x3e00);
  EXPECT_EQ(__half_as_ushort(__high2half(p)), 0xc000);
  const float2 f = __half22float2(__floats2half2_rn(0.25f, 3.0f));
  EXPECT_EQ(f.x, 0.25f);
  EXPECT_EQ(f.y, 3.0f);
  const __half2 q = __float22half2_rn(make_float2(1.0f, 65520.0f));
  EXPECT_EQ(__half_as_ushort(q.x), 0x3c00);
  EXPECT_EQ(__half_as_ushort(q.y), 0x7c00) << "65520 rounds to infinity";
  EXPECT_EQ(__half_as_ushort(__half2half2(a).y), 0x3e00);
  EXPECT_EQ(__half_as_ushort(__float2half2_rn(2.0f).x), 0x4000);
  EXPECT_EQ(__half_as_ushort(make_half2(a, b).y), 0xc000);
  EXPECT_EQ(__half_as_ushort(__lowhigh2highlow(p).x), 0xc000);
  EXPECT_EQ(__half_as_ushort(__ushort_as_half(0x1234)), 0x1234);
  EXPECT_EQ(__bfloat16_as_ushort(__ushort_as_bfloat16(0xbeef)), 0xbeef);
  EXPECT_EQ(__bfloat16_as_ushort(__float2bfloat16(1.0f)), 0x3f80);
  EXPECT_EQ(__bfloat162float(__low2bfloat16(__floats2bfloat162_rn(3.0f, 4.0f))), 3.0f);
  EXPECT_EQ(__high2float(__floats2bfloat162_rn(3.0f, 4.0f)), 4.0f);
  const __half2 h2 = __hfma2(p, p, p);  // lane-wise a*a + a
  EXPECT_EQ(__low2float(h2), 3.75f);
  EXPECT_EQ(__high2float(h2), 2.0f);
  EXPECT_EQ(__low2float(__hmax2(p, __half2half2(__float2half(0.0f)))), 1.5f);
  EXPECT_EQ(__high2float(__hmin2(p, __half2half2(__float2half(0.0f)))), -2.0f);
  EXPECT_TRUE(__hbeq2(p, p));
  EXPECT_TRUE(p == p);
  EXPECT_FALSE(p != p);
  EXPECT_EQ(__low2float(__heq2(p, __halves2half2(a, a))), 1.0f);
  EXPECT_EQ(__high2float(__heq2(p, __halves2half2(a, a))), 0.0f);
  EXPECT_EQ(__heq2_mask(p, __halves2half2(a, a)), 0x0000ffffu);
  // CUDA's typedefs and the conversion between the two formats.
  half h = 2.0f;
  nv_bfloat16 v = 3.0f;
  half2 hh = p;
  nv_bfloat162 vv = __floats2bfloat162_rn(1.0f, 2.0f);
  EXPECT_EQ(float(h) + float(v) + __low2float(hh) + __high2float(vv), 8.5f);
  EXPECT_EQ(__half_as_ushort(__half(__nv_bfloat16(1.0f))), 0x3c00);
  EXPECT_EQ(__bfloat16_as_ushort(__nv_bfloat16(__half(1.0f))), 0x3f80);
  // Compound and increment operators.
  __half c = 1.0f;
  c += __half(2.0f);
  c *= __half(2.0f);
  ++c;
  c--;
  EXPECT_EQ(float(c), 6.0f);
  // kverify's conversions agree with CUDA's, on CUDA's types and on kverify's raw-bits ones.
  EXPECT_EQ(kv::to_f32(kv::from_f32<__half>(0.1f)), __half2float(__float2half_rn(0.1f)));
  EXPECT_EQ(kv::to_f32(kverify::f16{0x3c00}), 1.0f);
}

}  // namespace
