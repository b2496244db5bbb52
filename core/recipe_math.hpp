// The value recipes' arithmetic, written once for the host and the GPU, so that a tensor drawn on
// the device (the bench's gate, pipeline/device_image.cuh) holds bit for bit the values the host
// draws for the same Case (`kverify run` on emu replays a failing gate Case with the very inputs
// the GPU was given). What makes the two agree:
// - only operations IEEE 754 rounds exactly on both (+, -, *, /, sqrt, conversions, floor, ldexp),
//   never a library's log/cos/tan, whose last bit differs between glibc and CUDA's libdevice: log,
//   sin, cos and tan below are polynomials in those operations;
// - no contraction of a*b+c into an FMA: on the device every product and sum goes through the
//   round-to-nearest intrinsics (__dmul_rn, __dadd_rn), which nvcc never fuses; on the host every
//   product passes an empty asm that pins it to a register, which no compiler fuses either.
// The polynomials are accurate to a few double ulps, far below anything a storage dtype keeps.
// A test on the GPU draws every recipe on both sides and compares the bits (gpu/tests).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

// Code both compilers build, for the host and (under nvcc) for the device.
#if defined(__CUDACC__)
#define KV_HOST_DEVICE __host__ __device__ inline
#else
#define KV_HOST_DEVICE inline
#endif

namespace kverify::recipe_math {

// The recipes in the order of core/values.hpp's kRecipes (a static_assert there holds the two equal),
// then the draws an op declares for a tensor (TensorValues), which no Case line names.
enum class Kind : std::uint8_t {
  normal,
  uniform,
  integer,
  constant,
  negative,
  ramp,
  heavy,
  ties,
  nearties,
  extreme,
  dominant,
  subnormal,
  zeros,
  halves,
  special,
  index,     // whole numbers uniform in [0, param): gather indices, class targets
  mask,      // 1 with probability param (0: one half), else 0
  near_one,  // 1 + param * normal (0: 0.1): weights and scales
};

KV_HOST_DEVICE double add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
KV_HOST_DEVICE double sub(double a, double b) { return add(a, -b); }
KV_HOST_DEVICE double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  double product = a * b;
  // The product leaves through a register the compiler must materialise: it cannot fuse it into a
  // later sum (an FMA), whatever -ffp-contract or -march say.
#if defined(__x86_64__) || defined(__i386__)
  asm("" : "+x"(product));
#elif defined(__aarch64__)
  asm("" : "+w"(product));
#endif
  return product;
#endif
}
KV_HOST_DEVICE double div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
KV_HOST_DEVICE double square_root(double a) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(a);
#else
  return __builtin_sqrt(a);
#endif
}
// Exact on both sides (ldexp rounds once, where the result is subnormal).
KV_HOST_DEVICE double floor_of(double a) { return ::floor(a); }
KV_HOST_DEVICE double abs_of(double a) { return ::fabs(a); }
KV_HOST_DEVICE double scale_by_power_of_two(double a, int e) { return ::ldexp(a, e); }

KV_HOST_DEVICE std::uint64_t bits_of(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
KV_HOST_DEVICE double double_of(std::uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

KV_HOST_DEVICE std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in (0, 1), never 0 (Box-Muller takes its log): the top 53 bits, centred in their cell.
KV_HOST_DEVICE double unit(std::uint64_t bits) { return mul(static_cast<double>(bits >> 11) + 0.5, 0x1.0p-53); }

// Natural log of a positive normal x: x = m 2^e with m in [sqrt(1/2), sqrt(2)), and
// log m = 2 atanh(s), s = (m - 1)/(m + 1), |s| <= 0.172: the odd series to s^27 leaves < 1e-19.
KV_HOST_DEVICE double log_of(double x) {
  const std::uint64_t b = bits_of(x);
  int e = static_cast<int>((b >> 52) & 0x7ff) - 1023;
  double m = double_of((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);  // [1, 2)
  if (m > 0x1.6a09e667f3bcdp+0) {                                             // sqrt(2)
    m = mul(m, 0.5);
    e += 1;
  }
  const double s = div(sub(m, 1.0), add(m, 1.0));
  const double z = mul(s, s);
  constexpr double kTwoOverOdd[] = {
      // 2 / (2k + 1), k = 0 .. 13
      0x1.0000000000000p+1, 0x1.5555555555555p-1, 0x1.999999999999ap-2, 0x1.2492492492492p-2, 0x1.c71c71c71c71cp-3,
      0x1.745d1745d1746p-3, 0x1.3b13b13b13b14p-3, 0x1.1111111111111p-3, 0x1.e1e1e1e1e1e1ep-4, 0x1.af286bca1af28p-4,
      0x1.8618618618618p-4, 0x1.642c8590b2164p-4, 0x1.47ae147ae147bp-4, 0x1.2f684bda12f68p-4};
  double p = kTwoOverOdd[13];
  for (int k = 12; k >= 0; --k) p = add(mul(p, z), kTwoOverOdd[k]);
  const double ln2_hi = 0x1.62e42fefa39efp-1, ln2_lo = 0x1.abc9e3b39803fp-56;
  const double de = static_cast<double>(e);
  return add(mul(de, ln2_hi), add(mul(s, p), mul(de, ln2_lo)));
}

// sin and cos of 2 pi t: t is split into quarter turns q and a rest r in [-1/8, 1/8], whose
// Taylor series (|2 pi r| <= pi/4) to the 19th and 20th powers leave < 1e-19.
struct QuarterTurns {
  std::int64_t quadrant;  // q mod 4
  double x, z;            // x = 2 pi r, z = x^2
};
KV_HOST_DEVICE QuarterTurns quarter_turns(double t) {
  const double q = floor_of(add(mul(t, 4.0), 0.5));
  const double x = mul(sub(t, mul(q, 0.25)), 0x1.921fb54442d18p+2);  // 2 pi
  return {static_cast<std::int64_t>(q) & 3, x, mul(x, x)};
}
// 1/k!, k = 0 .. 20.
#define KV_INVERSE_FACTORIALS                                                                                     \
  {                                                                                                               \
    0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p-1, 0x1.5555555555555p-3, 0x1.5555555555555p-5, \
        0x1.1111111111111p-7, 0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-16,                \
        0x1.71de3a556c734p-19, 0x1.27e4fb7789f5cp-22, 0x1.ae64567f544e4p-26, 0x1.1eed8eff8d898p-29,               \
        0x1.6124613a86d09p-33, 0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-41, 0x1.ae7f3e733b81fp-45,               \
        0x1.952c77030ad4ap-49, 0x1.6827863b97d97p-53, 0x1.2f49b46814157p-57, 0x1.e542ba4020225p-62                \
  }
KV_HOST_DEVICE double sin_series(const QuarterTurns& a) {  // sin x = x (1 - z/3! + z^2/5! - ...)
  constexpr double f[] = KV_INVERSE_FACTORIALS;
  double s = f[19];
  for (int k = 17; k >= 1; k -= 2) s = add(mul(s, -a.z), f[k]);
  return mul(s, a.x);
}
KV_HOST_DEVICE double cos_series(const QuarterTurns& a) {  // cos x = 1 - z/2! + z^2/4! - ...
  constexpr double f[] = KV_INVERSE_FACTORIALS;
  double c = f[20];
  for (int k = 18; k >= 0; k -= 2) c = add(mul(c, -a.z), f[k]);
  return c;
}
#undef KV_INVERSE_FACTORIALS
KV_HOST_DEVICE double cos_of_turns(double t) {
  const QuarterTurns a = quarter_turns(t);
  switch (a.quadrant) {
    case 0:
      return cos_series(a);
    case 1:
      return -sin_series(a);
    case 2:
      return -cos_series(a);
    default:
      return sin_series(a);
  }
}
// tan(pi h) = sin(2 pi (h/2)) / cos(2 pi (h/2)), for h in (-1/2, 1/2).
KV_HOST_DEVICE double tan_of_half_turns(double h) {
  const QuarterTurns a = quarter_turns(mul(h, 0.5));
  const double s = sin_series(a), c = cos_series(a);
  switch (a.quadrant) {
    case 0:
      return div(s, c);
    case 1:
      return div(c, -s);
    case 2:
      return div(-s, -c);
    default:
      return div(-c, s);
  }
}

// The recipe's value at a key (core/values.hpp: recipe_value gives the key of an element).
struct Draw {
  Kind kind;
  double param;
  std::uint64_t seed;
  int tensor;
  std::int64_t row, col, cols;
  bool positive = false;  // halves: this tensor is the positive factor (TensorSpec::positive_in_halves)
  // index: this share of the elements (0: none) is `ignored_value` instead (an ignore_index).
  double ignored_share = 0, ignored_value = 0;
};

KV_HOST_DEVICE std::uint64_t element_key(std::uint64_t seed, int tensor, std::int64_t row, std::int64_t col) {
  return splitmix64(splitmix64(splitmix64(seed) ^ static_cast<std::uint64_t>(tensor)) ^
                    static_cast<std::uint64_t>(row)) ^
         static_cast<std::uint64_t>(col) * 0xd1342543de82ef95ull;
}

KV_HOST_DEVICE double clamp_to(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

KV_HOST_DEVICE double value(const Draw& d) {
  const std::uint64_t a = splitmix64(element_key(d.seed, d.tensor, d.row, d.col));
  const std::uint64_t b = splitmix64(a);
  const double p = d.param;
  const auto normal = [&] {  // Box-Muller
    return mul(square_root(mul(-2.0, log_of(unit(a)))), cos_of_turns(unit(b)));
  };
  switch (d.kind) {
    case Kind::normal:
      return mul(p, normal());
    case Kind::uniform:
      return mul(p, sub(mul(2.0, unit(a)), 1.0));
    case Kind::integer: {
      const auto k = static_cast<std::uint64_t>(p);
      return static_cast<double>(static_cast<std::int64_t>(a % (2 * k + 1)) - static_cast<std::int64_t>(k));
    }
    case Kind::constant:
      return p;
    case Kind::negative:
      return sub(mul(-abs_of(normal()), p), 1.0);
    case Kind::ramp:
      return mul(static_cast<double>(d.col + 1), p);
    case Kind::heavy:  // Cauchy: tan(pi (u - 1/2))
      return clamp_to(mul(p, tan_of_half_turns(sub(unit(a), 0.5))), -1e30, 1e30);
    // Parameters are clamped before they become integers: a double out of the integer's range (the
    // parser accepts any finite P) is undefined behaviour (found by the fuzz targets under UBSan).
    case Kind::ties:
      return static_cast<double>(a % static_cast<std::uint64_t>(clamp_to(p, 1.0, 0x1p62)));
    case Kind::nearties:
      return mul(p, add(1.0, mul(static_cast<double>(static_cast<int>(a % 9) - 4), 0x1.0p-22)));
    case Kind::extreme:
      return mul(mul(mul(a & 1 ? 1.0 : -1.0, 1e30), p), sub(1.0, mul(1e-3, unit(b))));
    case Kind::dominant: {
      const std::uint64_t cols = static_cast<std::uint64_t>(d.cols > 1 ? d.cols : 1);
      const auto at = static_cast<std::int64_t>(splitmix64(d.seed ^ static_cast<std::uint64_t>(d.row) * 31) % cols);
      return d.col == at ? p : normal();
    }
    case Kind::subnormal:
      return scale_by_power_of_two(sub(mul(2.0, unit(a)), 1.0), static_cast<int>(clamp_to(p, -4096.0, 4096.0)));
    case Kind::zeros:
      return a & 1 ? 0.0 : -0.0;
    case Kind::halves: {
      // The reduction index is the column for A and x, the row for B.
      const double magnitude = mul(p, add(1.0, mul(0.25, unit(a))));
      if (d.positive) return magnitude;
      return d.col < d.cols / 2 || d.cols == 1 ? magnitude : mul(-1.5, magnitude);
    }
    case Kind::special: {
      const double inf = double_of(0x7ff0000000000000ull);
      // The masked rows (an attention mask's) leave whole runs of -inf beside 1-3 finite values:
      // a kernel that splits a row and takes each piece's own max must not turn a piece of only
      // -inf into NaN (exp(-inf - -inf)).
      const std::int64_t finite = 1 + (d.row / 6) % 3;
      switch (d.row % 6) {
        case 0:
          return d.col == (d.row / 6) % 7 ? double_of(0x7ff8000000000000ull) : mul(p, normal());
        case 1:
          return d.col == (d.row / 6) % 5 ? inf : mul(p, normal());
        case 2:
          return -inf;
        case 3:
          return d.col % 3 == 1 ? -inf : mul(p, normal());
        case 4:
          return d.col < finite ? mul(p, normal()) : -inf;
        default:
          return d.col >= d.cols - finite ? mul(p, normal()) : -inf;
      }
    }
    case Kind::index:
      if (d.ignored_share > 0 && unit(b) < d.ignored_share) return d.ignored_value;
      return static_cast<double>(a % static_cast<std::uint64_t>(clamp_to(p, 1.0, 0x1p62)));
    case Kind::mask:
      return unit(b) < (p > 0 ? p : 0.5) ? 1.0 : 0.0;
    case Kind::near_one:
      return add(1.0, mul(p > 0 ? p : 0.1, normal()));
  }
  return double_of(0x7ff8000000000000ull);
}

}  // namespace kverify::recipe_math
