// kverify's f16/bf16 conversions against CUDA's own host implementations (cuda_fp16.h and
// cuda_bf16.h compiled by the host compiler), plus definition-derived expectations where a
// rounding rule gives the answer directly (round to nearest, ties to even).
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/dtype.hpp"

namespace {

using kverify::DType;

constexpr float kInfF = std::numeric_limits<float>::infinity();

// --- The oracle: CUDA's host conversions, on raw bits. ---
std::uint16_t cuda_f32_to_f16(float f) { return static_cast<__half_raw>(__float2half_rn(f)).x; }
std::uint16_t cuda_f32_to_bf16(float f) { return static_cast<__nv_bfloat16_raw>(__float2bfloat16_rn(f)).x; }
std::uint16_t cuda_f64_to_f16(double d) { return static_cast<__half_raw>(__double2half(d)).x; }
std::uint16_t cuda_f64_to_bf16(double d) { return static_cast<__nv_bfloat16_raw>(__double2bfloat16(d)).x; }
float cuda_f16_to_f32(std::uint16_t h) {
  __half_raw r;
  r.x = h;
  return __half2float(__half(r));
}
float cuda_bf16_to_f32(std::uint16_t b) {
  __nv_bfloat16_raw r;
  r.x = b;
  return __bfloat162float(__nv_bfloat16(r));
}

std::uint16_t kv_store(DType d, double v) {
  std::uint16_t bits;
  kverify::store_from_f64(d, v, &bits);
  return bits;
}

std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
float float_of(std::uint32_t u) { return std::bit_cast<float>(u); }

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
std::string show(float f) { return hex(bits_of(f)) + " (" + std::to_string(f) + ")"; }
std::string show(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", d);
  return buf;
}

// Sweeps check millions of inputs: report the first few mismatches in full, then only count.
struct Tally {
  long long checked = 0;
  long long failed = 0;
  template <typename Describe>
  void expect(bool ok, const Describe& describe) {
    ++checked;
    if (!ok && ++failed <= 8) ADD_FAILURE() << describe();
  }
};

// Round to nearest even between two adjacent codes lo < hi (same sign), given where x lies.
std::uint16_t rne(std::uint16_t lo, std::uint16_t hi, int side /* -1 below mid, 0 tie, +1 above */) {
  if (side < 0) return lo;
  if (side > 0) return hi;
  return (lo & 1u) ? hi : lo;
}

// The f16 value of a positive code, with the first code past the largest finite (0x7c00) taken
// as 2^16: that is where the overflow rounding boundary (65520) sits.
double f16_value_or_2p16(std::uint16_t h) { return h == 0x7c00 ? 65536.0 : cuda_f16_to_f32(h); }
double bf16_value_or_2p128(std::uint16_t b) { return b == 0x7f80 ? std::ldexp(1.0, 128) : cuda_bf16_to_f32(b); }

// ------------------------------------------------------------------------------------------
// f16 widening
// ------------------------------------------------------------------------------------------

TEST(F16, EveryPatternWidensLikeCuda) {
  // CUDA's host __half2float turns every f16 NaN into the canonical f32 NaN 0x7fffffff (it drops
  // sign and payload); kverify keeps sign and payload. Both are NaN, and both narrow back to the
  // canonical f16 NaN 0x7fff, so for NaNs we compare NaN-ness and the round trip, not bits.
  Tally t;
  int nans = 0;
  for (std::uint32_t h = 0; h <= 0xffff; ++h) {
    const float want = cuda_f16_to_f32(static_cast<std::uint16_t>(h));
    const float got = kverify::f16_bits_to_f32(static_cast<std::uint16_t>(h));
    if (std::isnan(want)) {
      ++nans;
      t.expect(std::isnan(got) && kverify::f32_to_f16_bits(got) == cuda_f32_to_f16(want),
               [&] { return "f16 NaN " + hex(h) + " widened to " + show(got); });
    } else {
      t.expect(bits_of(got) == bits_of(want),
               [&] { return "f16 " + hex(h) + ": " + show(got) + " want " + show(want); });
    }
  }
  EXPECT_EQ(t.failed, 0);
  EXPECT_EQ(t.checked, 65536);
  EXPECT_EQ(nans, 2 * 1023);  // exponent 0x1f with a nonzero 10-bit mantissa, both signs
}

// ------------------------------------------------------------------------------------------
// f32 -> f16 narrowing
// ------------------------------------------------------------------------------------------

TEST(F16, EveryFiniteValueNarrowsToItself) {
  Tally t;
  for (std::uint32_t h = 0; h < 0x7c00; ++h) {
    for (std::uint32_t sign : {0u, 0x8000u}) {
      const auto code = static_cast<std::uint16_t>(h | sign);
      const float f = cuda_f16_to_f32(code);
      const auto got = kverify::f32_to_f16_bits(f);
      t.expect(got == code && got == cuda_f32_to_f16(f),
               [&] { return show(f) + " -> " + hex(got) + " want " + hex(code); });
    }
  }
  EXPECT_EQ(t.failed, 0);
  EXPECT_EQ(t.checked, 2 * 0x7c00);
}

TEST(F16, MidpointsAndTheirNeighboursRoundToNearestEven) {
  // Every pair of adjacent f16 codes, from (0, smallest subnormal) up to (65504, 2^16) whose
  // midpoint 65520 is the overflow boundary. An f16 midpoint needs 12 significant bits, so it is
  // exact in f32, and so are its f32 neighbours one ulp either side.
  Tally t;
  for (std::uint32_t lo = 0; lo < 0x7c00; ++lo) {
    const auto hi = static_cast<std::uint16_t>(lo + 1);
    const double mid_d = (f16_value_or_2p16(static_cast<std::uint16_t>(lo)) + f16_value_or_2p16(hi)) / 2;
    const float mid = static_cast<float>(mid_d);
    ASSERT_EQ(static_cast<double>(mid), mid_d) << "midpoint not exact in f32 at " << hex(lo);
    const float below = std::nextafter(mid, 0.0f);
    const float above = std::nextafter(mid, kInfF);
    const std::pair<float, int> probes[] = {{below, -1}, {mid, 0}, {above, +1}};
    for (std::uint16_t sign : {std::uint16_t{0}, std::uint16_t{0x8000}}) {
      for (auto [x, side] : probes) {
        const float v = sign ? -x : x;
        const auto want = static_cast<std::uint16_t>(rne(static_cast<std::uint16_t>(lo), hi, side) | sign);
        const auto got = kverify::f32_to_f16_bits(v);
        const auto cuda = cuda_f32_to_f16(v);
        t.expect(got == want && got == cuda,
                 [&] { return show(v) + " -> " + hex(got) + ", rule says " + hex(want) + ", CUDA " + hex(cuda); });
      }
    }
  }
  EXPECT_EQ(t.failed, 0);
  EXPECT_EQ(t.checked, 0x7c00 * 2 * 3);
}

TEST(F16, OverflowZeroSubnormalAndSpecialBoundaries) {
  const float p24 = std::ldexp(1.0f, -24);  // smallest f16 subnormal
  const float p25 = std::ldexp(1.0f, -25);  // half of it: ties to even, i.e. to 0
  const float p26 = std::ldexp(1.0f, -26);
  const float fmax = std::numeric_limits<float>::max();
  // (input, expected f16 bits by the rounding rule)
  const std::pair<float, std::uint16_t> cases[] = {
      {65504.0f, 0x7bff},                        // largest finite f16
      {std::nextafter(65520.0f, 0.0f), 0x7bff},  // just below the overflow midpoint
      {65520.0f, 0x7c00},                        // midpoint 65504..65536: ties to even = inf
      {std::nextafter(65520.0f, kInfF), 0x7c00},
      {65536.0f, 0x7c00},
      {1e30f, 0x7c00},
      {fmax, 0x7c00},
      {kInfF, 0x7c00},
      {p24, 0x0001},
      {std::nextafter(p24, 0.0f), 0x0001},
      {std::nextafter(p24, kInfF), 0x0001},
      {p25, 0x0000},
      {std::nextafter(p25, 0.0f), 0x0000},
      {std::nextafter(p25, kInfF), 0x0001},
      {p26, 0x0000},
      {std::nextafter(p26, 0.0f), 0x0000},
      {std::nextafter(p26, kInfF), 0x0000},
      {3 * p25, 0x0002},                // tie between 1 and 2 subnormal units: even is 2
      {std::ldexp(1.0f, -14), 0x0400},  // smallest normal f16
      {std::numeric_limits<float>::denorm_min(), 0x0000},
      {std::numeric_limits<float>::min(), 0x0000},
      {0.0f, 0x0000},
  };
  for (auto [x, want] : cases) {
    for (std::uint16_t sign : {std::uint16_t{0}, std::uint16_t{0x8000}}) {
      const float v = sign ? -x : x;
      EXPECT_EQ(kverify::f32_to_f16_bits(v), want | sign) << show(v);
      EXPECT_EQ(kverify::f32_to_f16_bits(v), cuda_f32_to_f16(v)) << show(v);
    }
  }
}

TEST(F16, NaNsBecomeTheCanonicalNaN) {
  // quiet, signalling, negative, all-ones and odd payloads
  for (std::uint32_t u :
       {0x7fc00000u, 0x7f800001u, 0x7fbfffffu, 0x7fc01234u, 0xffc00000u, 0xff800001u, 0xffffffffu, 0x7f802000u}) {
    const float v = float_of(u);
    EXPECT_EQ(kverify::f32_to_f16_bits(v), 0x7fff) << hex(u);
    EXPECT_EQ(kverify::f32_to_f16_bits(v), cuda_f32_to_f16(v)) << hex(u);
  }
}

TEST(F16, StridedSweepOverAllF32PatternsMatchesCuda) {
  // An odd stride of 1021 visits ~4.2 million of the 2^32 patterns with every low-bit residue.
  constexpr std::uint64_t kStride = 1021;
  Tally t;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << 32); i += kStride) {
    const float v = float_of(static_cast<std::uint32_t>(i));
    const auto got = kverify::f32_to_f16_bits(v);
    const auto want = cuda_f32_to_f16(v);
    t.expect(got == want, [&] { return show(v) + " -> " + hex(got) + " want " + hex(want); });
  }
  EXPECT_EQ(t.failed, 0);
  EXPECT_GT(t.checked, 4'000'000);
}

// ------------------------------------------------------------------------------------------
// bf16
// ------------------------------------------------------------------------------------------

TEST(BF16, EveryPatternWidensLikeCuda) {
  // CUDA widens bf16 by a plain shift, NaN payloads included, so every pattern compares bitwise.
  Tally t;
  for (std::uint32_t b = 0; b <= 0xffff; ++b) {
    const float want = cuda_bf16_to_f32(static_cast<std::uint16_t>(b));
    const float got = kverify::bf16_bits_to_f32(static_cast<std::uint16_t>(b));
    t.expect(bits_of(got) == bits_of(want),
             [&] { return "bf16 " + hex(b) + ": " + show(got) + " want " + show(want); });
  }
  EXPECT_EQ(t.failed, 0);
  EXPECT_EQ(t.checked, 65536);
}

TEST(BF16, EveryRoundingBoundaryMatchesCudaAndTheRule) {
  // For every upper-16-bit pattern u: the bf16 value itself (low bits 0), the midpoint to the next
  // code (low bits 0x8000), its neighbours 0x7fff/0x8001, and the extremes 0x0001/0xffff.
  // Non-NaN inputs follow the rule directly; inf inputs stay inf; NaNs go to CUDA's 0x7fff.
  Tally t;
  const std::pair<std::uint32_t, int> lows[] = {{0x0000, -2}, {0x0001, -1}, {0x7fff, -1},
                                                {0x8000, 0},  {0x8001, +1}, {0xffff, +1}};
  for (std::uint32_t u = 0; u <= 0xffff; ++u) {
    for (auto [low, side] : lows) {
      const std::uint32_t x = (u << 16) | low;
      const float v = float_of(x);
      const auto got = kverify::f32_to_bf16_bits(v);
      const auto cuda = cuda_f32_to_bf16(v);
      std::uint16_t want;
      if (std::isnan(v))
        want = 0x7fff;
      else if (side == -2)
        want = static_cast<std::uint16_t>(u);  // exactly representable (incl. +-inf)
      else
        want = rne(static_cast<std::uint16_t>(u), static_cast<std::uint16_t>(u + 1), side);  // magnitude grows
      t.expect(got == want && got == cuda,
               [&] { return show(v) + " -> " + hex(got) + ", rule says " + hex(want) + ", CUDA " + hex(cuda); });
    }
  }
  EXPECT_EQ(t.failed, 0);
  EXPECT_EQ(t.checked, 6 * 65536);
  // Two boundaries spelled out: the largest finite bf16's midpoint overflows to inf (ties to even).
  EXPECT_EQ(kverify::f32_to_bf16_bits(float_of(0x7f7f8000u)), 0x7f80);
  EXPECT_EQ(kverify::f32_to_bf16_bits(std::numeric_limits<float>::max()), 0x7f80);
}

TEST(BF16, StridedSweepOverAllF32PatternsMatchesCuda) {
  constexpr std::uint64_t kStride = 1021;
  Tally t;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << 32); i += kStride) {
    const float v = float_of(static_cast<std::uint32_t>(i));
    const auto got = kverify::f32_to_bf16_bits(v);
    const auto want = cuda_f32_to_bf16(v);
    t.expect(got == want, [&] { return show(v) + " -> " + hex(got) + " want " + hex(want); });
  }
  EXPECT_EQ(t.failed, 0);
  EXPECT_GT(t.checked, 4'000'000);
}

// ------------------------------------------------------------------------------------------
// f64 -> f16/bf16: one rounding, not f64 -> f32 -> f16
// ------------------------------------------------------------------------------------------

std::uint16_t naive_double_rounding(DType d, double v) {
  const float f = static_cast<float>(v);
  return d == DType::f16 ? kverify::f32_to_f16_bits(f) : kverify::f32_to_bf16_bits(f);
}

TEST(StoreFromF64, NaiveDoubleRoundingWouldBeWrongHere) {
  // 1 + 2^-11 is the f16 midpoint between 1 and 1 + 2^-10; 2^-40 above it must round up. f32
  // cannot hold the 2^-40 (its ulp at 1 is 2^-23), so the naive path sees a tie and picks even 1.
  const double x16 = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(naive_double_rounding(DType::f16, x16), 0x3c00);  // 1.0: the wrong answer
  EXPECT_EQ(kv_store(DType::f16, x16), 0x3c01);               // 1 + 2^-10
  EXPECT_EQ(cuda_f64_to_f16(x16), 0x3c01);
  // Same for bf16: 1 + 2^-8 is the midpoint between 1 and 1 + 2^-7.
  const double x_bf = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(naive_double_rounding(DType::bf16, x_bf), 0x3f80);
  EXPECT_EQ(kv_store(DType::bf16, x_bf), 0x3f81);
  EXPECT_EQ(cuda_f64_to_bf16(x_bf), 0x3f81);
  // And below a midpoint whose tie goes up (odd low code 0x3c01): 1 + 3*2^-11 - 2^-40 -> 0x3c01.
  const double y16 = 1.0 + 3 * std::ldexp(1.0, -11) - std::ldexp(1.0, -40);
  EXPECT_EQ(naive_double_rounding(DType::f16, y16), 0x3c02);
  EXPECT_EQ(kv_store(DType::f16, y16), 0x3c01);
}

// For adjacent codes (lo, lo+1) of `d`, probe the double midpoint m and m*(1 +- 2^-40): just off
// the midpoint by less than f32 can resolve. Expect CUDA and the rule; count naive failures.
void check_beside_midpoints(DType d, std::uint32_t first_inf_code, double (*value)(std::uint16_t),
                            std::uint16_t (*cuda)(double)) {
  Tally t;
  long long naive_wrong = 0;
  for (std::uint32_t lo = 0; lo < first_inf_code; ++lo) {
    const auto hi = static_cast<std::uint16_t>(lo + 1);
    const double m = (value(static_cast<std::uint16_t>(lo)) + value(hi)) / 2;
    const double eps = m * std::ldexp(1.0, -40);
    const std::pair<double, int> probes[] = {{m - eps, -1}, {m, 0}, {m + eps, +1}};
    for (std::uint16_t sign : {std::uint16_t{0}, std::uint16_t{0x8000}}) {
      for (auto [x, side] : probes) {
        const double v = sign ? -x : x;
        const auto want = static_cast<std::uint16_t>(rne(static_cast<std::uint16_t>(lo), hi, side) | sign);
        const auto got = kv_store(d, v);
        const auto oracle = cuda(v);
        t.expect(got == want && got == oracle, [&] {
          return std::string(kverify::name(d)) + " " + show(v) + " -> " + hex(got) + ", rule says " + hex(want) +
                 ", CUDA " + hex(oracle);
        });
        if (side != 0) {
          // The probe must really be invisible to f32, or the naive count below proves nothing.
          t.expect(static_cast<float>(v) == static_cast<float>(sign ? -m : m),
                   [&] { return "probe " + show(v) + " is representable apart from its midpoint in f32"; });
          naive_wrong += naive_double_rounding(d, v) != want;
        }
      }
    }
  }
  EXPECT_EQ(t.failed, 0);
  // The naive path sees every off-midpoint probe as a tie and rounds it to even, which is wrong
  // on exactly one side of every midpoint: below when lo is odd, above when lo is even.
  EXPECT_EQ(naive_wrong, 2 * static_cast<long long>(first_inf_code));
}

TEST(StoreFromF64, F16BesideEveryMidpointRoundsOnce) {
  check_beside_midpoints(DType::f16, 0x7c00, f16_value_or_2p16, cuda_f64_to_f16);
}

TEST(StoreFromF64, BF16BesideEveryMidpointRoundsOnce) {
  check_beside_midpoints(DType::bf16, 0x7f80, bf16_value_or_2p128, cuda_f64_to_bf16);
}

TEST(StoreFromF64, RandomDoublesMatchCuda) {
  std::mt19937_64 rng(20240611);
  auto random_double = [&](int min_exp, int max_exp) {
    std::uniform_int_distribution<int> e(min_exp, max_exp);
    const double mant = 1.0 + static_cast<double>(rng() >> 12) * 0x1.0p-52;  // 52 random fraction bits
    return ((rng() & 1) ? -1.0 : 1.0) * std::ldexp(mant, e(rng));
  };
  struct Target {
    DType d;
    int min_exp, max_exp;  // a little beyond the dtype's subnormal floor and overflow
    std::uint16_t (*cuda)(double);
    float (*widen)(std::uint16_t);
  };
  const Target targets[] = {{DType::f16, -30, 17, cuda_f64_to_f16, cuda_f16_to_f32},
                            {DType::bf16, -140, 129, cuda_f64_to_bf16, cuda_bf16_to_f32}};
  for (const auto& target : targets) {
    Tally t;
    for (int i = 0; i < 600'000; ++i) {
      // Mostly values in the dtype's range; every 4th a random bit pattern (tiny, huge, NaN, inf).
      const double v = (i % 4 == 3) ? std::bit_cast<double>(rng()) : random_double(target.min_exp, target.max_exp);
      const auto got = kv_store(target.d, v);
      const auto want = target.cuda(v);
      t.expect(got == want, [&] {
        return std::string(kverify::name(target.d)) + " " + show(v) + " -> " + hex(got) + " want " + hex(want);
      });
      // round_to is the same rounding, widened back to a double.
      const double widened = target.widen(want);
      const double r = kverify::round_to(target.d, v);
      t.expect(r == widened || (std::isnan(r) && std::isnan(widened)),
               [&] { return "round_to " + show(v) + " = " + show(r) + " want " + show(widened); });
    }
    EXPECT_EQ(t.failed, 0) << kverify::name(target.d);
  }
}

TEST(StoreFromF64, F32AndF64AreStoredAsCastAndCopied) {
  for (double v : {1.0 / 3, -1e300, 1e-40, 0.1, std::numeric_limits<double>::denorm_min()}) {
    float f;
    kverify::store_from_f64(DType::f32, v, &f);
    EXPECT_EQ(bits_of(f), bits_of(static_cast<float>(v))) << show(v);
    double d;
    kverify::store_from_f64(DType::f64, v, &d);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(d), std::bit_cast<std::uint64_t>(v));
    // load_as_f64 reads back exactly what was stored
    EXPECT_EQ(kverify::load_as_f64(DType::f32, &f), static_cast<double>(f));
    EXPECT_EQ(kverify::load_as_f64(DType::f64, &d), v);
  }
  for (std::uint16_t b : {std::uint16_t{0x3c01}, std::uint16_t{0x8001}, std::uint16_t{0x7bff}}) {
    EXPECT_EQ(kverify::load_as_f64(DType::f16, &b), static_cast<double>(cuda_f16_to_f32(b)));
    EXPECT_EQ(kverify::load_as_f64(DType::bf16, &b), static_cast<double>(cuda_bf16_to_f32(b)));
  }
}

// ------------------------------------------------------------------------------------------
// ulp
// ------------------------------------------------------------------------------------------

TEST(Ulp, F32IsTheGapToTheNextFloatUp) {
  std::mt19937 rng(7);
  Tally t;
  for (int i = 0; i < 200'000; ++i) {
    std::uint32_t u = rng() & 0x7fffffffu;
    if (i % 2) u &= 0x007fffffu;     // half of them subnormal (exponent field 0)
    if (u >= 0x7f7fffffu) continue;  // inf/NaN, and FLT_MAX whose next float up is inf
    const float a = float_of(u);
    const double want = static_cast<double>(std::nextafter(a, kInfF)) - static_cast<double>(a);
    for (float v : {a, -a}) {
      const double got = kverify::ulp(DType::f32, v);
      t.expect(got == want, [&] { return show(v) + ": ulp " + show(got) + " want " + show(want); });
    }
  }
  EXPECT_EQ(t.failed, 0);
  EXPECT_GT(t.checked, 350'000);
}

TEST(Ulp, F64IsTheGapToTheNextDoubleUp) {
  std::mt19937_64 rng(8);
  Tally t;
  for (int i = 0; i < 100'000; ++i) {
    std::uint64_t u = rng() & 0x7fffffffffffffffull;
    if (i % 2) u &= 0x000fffffffffffffull;  // subnormals
    const double a = std::bit_cast<double>(u);
    if (!std::isfinite(a) || a == std::numeric_limits<double>::max()) continue;
    const double want = std::nextafter(a, std::numeric_limits<double>::infinity()) - a;
    t.expect(kverify::ulp(DType::f64, a) == want && kverify::ulp(DType::f64, -a) == want, [&] { return show(a); });
  }
  EXPECT_EQ(t.failed, 0);
}

// For every positive finite code c: ulp(value(c)) == value(c+1) - value(c), also at -value(c) and
// at the midpoint to the next code (still in the same gap); the largest finite value keeps the
// spacing of its binade.
void check_ulp_from_codes(DType d, std::uint16_t max_finite, float (*widen)(std::uint16_t)) {
  Tally t;
  for (std::uint32_t c = 0; c < max_finite; ++c) {
    const double v = widen(static_cast<std::uint16_t>(c));
    const double gap = static_cast<double>(widen(static_cast<std::uint16_t>(c + 1))) - v;
    for (double x : {v, -v, v + gap / 2}) {
      const double got = kverify::ulp(d, x);
      t.expect(got == gap, [&] {
        return std::string(kverify::name(d)) + " " + show(x) + ": ulp " + show(got) + " want " + show(gap);
      });
    }
  }
  const double top = widen(max_finite);
  const double top_gap = top - widen(static_cast<std::uint16_t>(max_finite - 1));
  EXPECT_EQ(kverify::ulp(d, top), top_gap) << kverify::name(d);
  // Beyond it (values that overflow the dtype) the spacing stays that of the top binade.
  EXPECT_EQ(kverify::ulp(d, 4 * top), top_gap) << kverify::name(d);
  EXPECT_EQ(kverify::ulp(d, -std::numeric_limits<double>::infinity()), top_gap) << kverify::name(d);
  EXPECT_EQ(t.failed, 0);
  EXPECT_EQ(t.checked, 3 * static_cast<long long>(max_finite));
}

TEST(Ulp, F16IsTheGapBetweenAdjacentCodes) { check_ulp_from_codes(DType::f16, 0x7bff, cuda_f16_to_f32); }
TEST(Ulp, BF16IsTheGapBetweenAdjacentCodes) { check_ulp_from_codes(DType::bf16, 0x7f7f, cuda_bf16_to_f32); }

TEST(Ulp, AtZeroIsTheSmallestSubnormal) {
  EXPECT_EQ(kverify::ulp(DType::f32, 0.0), static_cast<double>(std::numeric_limits<float>::denorm_min()));
  EXPECT_EQ(kverify::ulp(DType::f64, 0.0), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(kverify::ulp(DType::f16, 0.0), static_cast<double>(cuda_f16_to_f32(0x0001)));
  EXPECT_EQ(kverify::ulp(DType::bf16, 0.0), static_cast<double>(cuda_bf16_to_f32(0x0001)));
  EXPECT_EQ(kverify::ulp(DType::f16, -0.0), static_cast<double>(cuda_f16_to_f32(0x0001)));
  EXPECT_TRUE(std::isnan(kverify::ulp(DType::f32, std::nan(""))));
}

// ------------------------------------------------------------------------------------------
// names
// ------------------------------------------------------------------------------------------

TEST(DTypeNames, ParseAndNameRoundTrip) {
  const std::pair<const char*, DType> known[] = {
      {"f32", DType::f32}, {"f16", DType::f16}, {"bf16", DType::bf16}, {"f64", DType::f64}};
  for (auto [text, d] : known) {
    ASSERT_TRUE(kverify::parse_dtype(text).has_value()) << text;
    EXPECT_EQ(*kverify::parse_dtype(text), d) << text;
    EXPECT_EQ(kverify::name(d), text);
    EXPECT_EQ(kverify::parse_dtype(kverify::name(d)), d);
  }
  // Sizes are those of the host/CUDA types the storage stands for.
  EXPECT_EQ(kverify::size_of(DType::f32), sizeof(float));
  EXPECT_EQ(kverify::size_of(DType::f16), sizeof(__half));
  EXPECT_EQ(kverify::size_of(DType::bf16), sizeof(__nv_bfloat16));
  EXPECT_EQ(kverify::size_of(DType::f64), sizeof(double));
}

TEST(DTypeNames, RejectsUnknownSpellings) {
  for (const char* text : {"f8", "", "F32", " f32", "f32 ", "fp32", "float", "bf"})
    EXPECT_FALSE(kverify::parse_dtype(text).has_value()) << "'" << text << "'";
}

}  // namespace
