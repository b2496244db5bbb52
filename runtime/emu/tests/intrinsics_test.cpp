// Semantics tables for emu's CUDA intrinsics, vector types and constants. Expected values are
// written from the CUDA Math API / Programming Guide / PTX ISA texts (or, for the layouts and
// constants, taken from the toolkit's own headers through cuda_oracle.hpp), never from the code
// under test.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>
#include <math_constants.h>

#include "runtime/emu/tests/cuda_oracle.hpp"

namespace {

namespace oracle = kverify::emu::oracle;

// --- vector types ----------------------------------------------------------------------------------

TEST(EmuVectorTypes, SizeAndAlignmentAreTheToolkits) {
#if !KVERIFY_HAVE_CUDA_ORACLE
  GTEST_SKIP() << "no CUDA toolkit headers at configure time: the toolkit's vector_types.h is not available";
#else
  struct Emu {
    const char* name;
    std::size_t size, align;
  };
#define KV_L(t) \
  { #t, sizeof(t), alignof(t) }
  const Emu emu[] = {
      KV_L(char1),          KV_L(char2),       KV_L(char3),         KV_L(char4),         KV_L(uchar1),
      KV_L(uchar2),         KV_L(uchar3),      KV_L(uchar4),        KV_L(short1),        KV_L(short2),
      KV_L(short3),         KV_L(short4),      KV_L(ushort1),       KV_L(ushort2),       KV_L(ushort3),
      KV_L(ushort4),        KV_L(int1),        KV_L(int2),          KV_L(int3),          KV_L(int4),
      KV_L(uint1),          KV_L(uint2),       KV_L(uint3),         KV_L(uint4),         KV_L(long1),
      KV_L(long2),          KV_L(long3),       KV_L(long4),         KV_L(ulong1),        KV_L(ulong2),
      KV_L(ulong3),         KV_L(ulong4),      KV_L(longlong1),     KV_L(longlong2),     KV_L(longlong3),
      KV_L(longlong4),      KV_L(ulonglong1),  KV_L(ulonglong2),    KV_L(ulonglong3),    KV_L(ulonglong4),
      KV_L(float1),         KV_L(float2),      KV_L(float3),        KV_L(float4),        KV_L(double1),
      KV_L(double2),        KV_L(double3),     KV_L(double4),       KV_L(long4_16a),     KV_L(long4_32a),
      KV_L(ulong4_16a),     KV_L(ulong4_32a),  KV_L(longlong4_16a), KV_L(longlong4_32a), KV_L(ulonglong4_16a),
      KV_L(ulonglong4_32a), KV_L(double4_16a), KV_L(double4_32a),   KV_L(dim3)};
#undef KV_L
  const auto want = oracle::vector_type_layouts();
  ASSERT_EQ(want.size(), std::size(emu));
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(want[i].name, emu[i].name);
    EXPECT_EQ(emu[i].size, want[i].size) << emu[i].name;
    EXPECT_EQ(emu[i].align, want[i].align) << emu[i].name;
  }
#endif
}

TEST(EmuVectorTypes, MakeFunctionsAndDim3) {
  const float4 f = make_float4(1, 2, 3, 4);
  EXPECT_EQ(f.x + f.y + f.z + f.w, 10.0f);
  const int2 i = make_int2(-1, 7);
  EXPECT_EQ(i.y, 7);
  const uchar4 u = make_uchar4(1, 2, 3, 255);
  EXPECT_EQ(u.w, 255);
  const longlong2 l = make_longlong2(1ll << 40, -1);
  EXPECT_EQ(l.x, 1ll << 40);
  const double2 d = make_double2(0.5, 0.25);
  EXPECT_EQ(d.x + d.y, 0.75);
  constexpr dim3 g(4);
  static_assert(g.x == 4 && g.y == 1 && g.z == 1, "dim3's missing extents are 1");
  const uint3 t = make_uint3(1, 2, 3);
  const dim3 from(t);
  const uint3 back = from;
  EXPECT_EQ(back.z, 3u);
  static_assert(std::is_trivially_copyable_v<float4> && std::is_standard_layout_v<float4>);
}

// --- integer intrinsics (CUDA Math API, "Integer Intrinsics") ------------------------------------

// Device code calls the classification functions unqualified, as CUDA declares them globally; user
// code on emu lives in a namespace of its own, where <cmath>'s std:: ones are not found.
namespace user_code {
__device__ int classify(float x) { return isnan(x) ? 3 : isinf(x) ? 2 : !isfinite(x) ? -1 : signbit(x) ? 1 : 0; }
}  // namespace user_code

TEST(EmuIntrinsics, ClassificationFunctionsAreGlobalAsInCuda) {
  EXPECT_EQ(user_code::classify(1.0f), 0);
  EXPECT_EQ(user_code::classify(-0.0f), 1);
  EXPECT_EQ(user_code::classify(-INFINITY), 2);
  EXPECT_EQ(user_code::classify(NAN), 3);
}

// PTX ISA, "Floating Point Instructions": an f32 operation whose result is NaN gives the canonical
// NaN 0x7fffffff, whatever NaN (if any) its operands held. The host's invalid operation gives
// 0xffc00000; a kernel reading the bits must see the GPU's.
TEST(EmuIntrinsics, ProducedNanHasTheGpusCanonicalBits) {
  volatile float inf = INFINITY, zero = 0.0f, one = 1.0f;  // volatile: computed at run time, on the host's FPU
  EXPECT_EQ(__float_as_uint(inf - inf), 0x7fffffffu);
  EXPECT_EQ(__float_as_uint(zero * inf), 0x7fffffffu);
  EXPECT_EQ(__float_as_int(zero * inf), 0x7fffffff);
  EXPECT_EQ(__float_as_uint(__uint_as_float(0x7fffffffu) * one), 0x7fffffffu);  // kverify's inputs' NaN
  EXPECT_EQ(__float_as_uint(-inf), 0xff800000u);                                // other bits as they are
  EXPECT_EQ(__float_as_uint(-1.0f), 0xbf800000u);
}

TEST(EmuIntrinsics, IntegerTable) {
  EXPECT_EQ(__popc(0u), 0);
  EXPECT_EQ(__popc(0xffffffffu), 32);
  EXPECT_EQ(__popc(0x80000001u), 2);
  EXPECT_EQ(__popcll(0xffffffffffffffffull), 64);
  EXPECT_EQ(__popcll(1ull << 63), 1);
  EXPECT_EQ(__clz(0), 32);  // "returns a value between 0 and 32 inclusive"
  EXPECT_EQ(__clz(1), 31);
  EXPECT_EQ(__clz(-1), 0);
  EXPECT_EQ(__clz(0x00010000), 15);
  EXPECT_EQ(__clzll(0), 64);
  EXPECT_EQ(__clzll(1), 63);
  EXPECT_EQ(__clzll(-1), 0);
  EXPECT_EQ(__ffs(0), 0);  // "the least significant bit position 1; 0 if x is 0"
  EXPECT_EQ(__ffs(1), 1);
  EXPECT_EQ(__ffs(0x80000000), 32);
  EXPECT_EQ(__ffs(12), 3);
  EXPECT_EQ(__ffsll(0), 0);
  EXPECT_EQ(__ffsll(1ll << 40), 41);
  EXPECT_EQ(__brev(1u), 0x80000000u);
  EXPECT_EQ(__brev(0x12345678u), 0x1e6a2c48u);
  EXPECT_EQ(__brevll(1ull), 1ull << 63);
  EXPECT_EQ(__brevll(0x00000000ffffffffull), 0xffffffff00000000ull);
  // __byte_perm: input bytes x0..x3 = 0..3, y0..y3 = 4..7; selector nibbles pick them.
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x3210u), 0x33221100u);
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x7654u), 0x77665544u);
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x0123u), 0x00112233u);
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x5140u), 0x55114400u);
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0xffff3210u), 0x33221100u) << "the upper 16 bits are unused";
  // Funnel shifts: {hi:lo} shifted; the _c forms clamp the shift to 32, the others take it mod 32.
  EXPECT_EQ(__funnelshift_l(0x80000000u, 0x00000001u, 1), 0x00000003u);
  EXPECT_EQ(__funnelshift_l(0x12345678u, 0x9abcdef0u, 36), __funnelshift_l(0x12345678u, 0x9abcdef0u, 4));
  EXPECT_EQ(__funnelshift_l(0x12345678u, 0x9abcdef0u, 4), 0xabcdef01u);
  EXPECT_EQ(__funnelshift_lc(0x12345678u, 0x9abcdef0u, 40), 0x12345678u);
  EXPECT_EQ(__funnelshift_r(0x00000001u, 0x00000001u, 1), 0x80000000u);
  EXPECT_EQ(__funnelshift_r(0x12345678u, 0x9abcdef0u, 4), 0x01234567u);
  EXPECT_EQ(__funnelshift_r(0x12345678u, 0x9abcdef0u, 33), __funnelshift_r(0x12345678u, 0x9abcdef0u, 1));
  EXPECT_EQ(__funnelshift_rc(0x12345678u, 0x9abcdef0u, 40), 0x9abcdef0u);
  EXPECT_EQ(__funnelshift_rc(0x12345678u, 0x9abcdef0u, 0), 0x12345678u);
  // The high halves of full products.
  EXPECT_EQ(__umulhi(0xffffffffu, 0xffffffffu), 0xfffffffeu);
  EXPECT_EQ(__mulhi(-1, 1), -1);
  EXPECT_EQ(__mulhi(0x40000000, 4), 1);
  EXPECT_EQ(__umul64hi(0xffffffffffffffffull, 2ull), 1ull);
  EXPECT_EQ(__mul64hi(-1ll, 1ll), -1ll);
  EXPECT_EQ(__mul64hi(1ll << 62, 8ll), 2ll);
  EXPECT_EQ(__mul24(0x00ffffff, 2), -2) << "the low 24 bits as a signed number: 0xffffff is -1";
  EXPECT_EQ(__umul24(0x01000003u, 5u), 15u);
  // |x - y| + z
  EXPECT_EQ(__sad(-5, 3, 1u), 9u);
  EXPECT_EQ(__usad(3u, 10u, 2u), 9u);
  // Averages: (x + y) >> 1 and (x + y + 1) >> 1 without overflow.
  EXPECT_EQ(__hadd(INT32_MAX, INT32_MAX), INT32_MAX);
  EXPECT_EQ(__hadd(-3, 0), -2) << "an arithmetic shift rounds toward minus infinity";
  EXPECT_EQ(__rhadd(1, 2), 2);
  EXPECT_EQ(__rhadd(-3, 0), -1);
  EXPECT_EQ(__uhadd(0xffffffffu, 0xffffffffu), 0xffffffffu);
  EXPECT_EQ(__urhadd(0xffffffffu, 0u), 0x80000000u);
}

// --- min / max: the overload set of crt/math_functions.hpp ----------------------------------------

TEST(EmuIntrinsics, MinMaxOverloadsIncludeMixedSignedness) {
  static_assert(std::is_same_v<decltype(min(1, 2u)), unsigned int>);
  static_assert(std::is_same_v<decltype(max(1u, 2)), unsigned int>);
  static_assert(std::is_same_v<decltype(min(1l, 2ul)), unsigned long>);
  static_assert(std::is_same_v<decltype(min(1ll, 2ull)), unsigned long long>);
  static_assert(std::is_same_v<decltype(min(1.0f, 2.0)), double>);
  static_assert(std::is_same_v<decltype(max(1.0f, 2.0f)), float>);
  static_assert(std::is_same_v<decltype(min(1, 2)), int>);
  static_assert(std::is_same_v<decltype(min(short(1), short(2))), int>);
  EXPECT_EQ(min(-1, 1u), 1u) << "-1 converts to 0xffffffff first, as CUDA's min(int, unsigned int) does";
  EXPECT_EQ(max(-1, 1u), 0xffffffffu);
  EXPECT_EQ(min(-3, 2), -3);
  EXPECT_EQ(max(-3ll, 2ll), 2ll);
  EXPECT_EQ(min(NAN, 1.0f), 1.0f) << "the float forms are fminf/fmaxf: a NaN operand gives the other";
  EXPECT_EQ(max(2.0, NAN), 2.0);
  EXPECT_EQ(umin(3u, 4u), 3u);
  EXPECT_EQ(llmax(-1ll, -2ll), -1ll);
  EXPECT_EQ(ullmin(5ull, 6ull), 5ull);
  EXPECT_EQ(fminf(1.0f, 2.0f), 1.0f);
  EXPECT_EQ(fmaxf(NAN, 2.0f), 2.0f);
}

// --- bit reinterpretation and conversions with a rounding mode ------------------------------------

TEST(EmuIntrinsics, ReinterpretationTable) {
  EXPECT_EQ(__float_as_int(1.0f), 0x3f800000);
  EXPECT_EQ(__int_as_float(0x40000000), 2.0f);
  EXPECT_EQ(__float_as_uint(-0.0f), 0x80000000u);
  EXPECT_EQ(__uint_as_float(0x7f800000u), INFINITY);
  EXPECT_EQ(__double_as_longlong(1.0), 0x3ff0000000000000ll);
  EXPECT_EQ(__longlong_as_double(0x4000000000000000ll), 2.0);
  EXPECT_EQ(__hiloint2double(0x3ff00000, 0), 1.0);
  EXPECT_EQ(__double2hiint(2.0), 0x40000000);
  EXPECT_EQ(__double2loint(__hiloint2double(1, 7)), 7);
}

TEST(EmuIntrinsics, RoundingModeTable) {
  // cvt.{rni,rzi,rpi,rmi}.s32.f32: to nearest even / toward zero / up / down; NaN -> 0; saturating.
  EXPECT_EQ(__float2int_rn(2.5f), 2);
  EXPECT_EQ(__float2int_rn(3.5f), 4);
  EXPECT_EQ(__float2int_rn(-2.5f), -2);
  EXPECT_EQ(__float2int_rz(-2.7f), -2);
  EXPECT_EQ(__float2int_ru(-2.7f), -2);
  EXPECT_EQ(__float2int_rd(-2.2f), -3);
  EXPECT_EQ(__float2int_ru(2.2f), 3);
  EXPECT_EQ(__float2int_rn(NAN), 0);
  EXPECT_EQ(__float2int_rz(1e10f), INT32_MAX);
  EXPECT_EQ(__float2int_rz(-1e10f), INT32_MIN);
  EXPECT_EQ(__float2uint_rn(-5.0f), 0u);
  EXPECT_EQ(__float2uint_rn(4294967296.0f), 0xffffffffu);
  EXPECT_EQ(__float2uint_rd(7.9f), 7u);
  EXPECT_EQ(__float2ll_rn(-1e30f), INT64_MIN);
  EXPECT_EQ(__float2ll_rn(NAN), INT64_MIN) << "64-bit destinations: NaN gives 0x8000000000000000";
  EXPECT_EQ(__float2ull_rz(NAN), 0x8000000000000000ull);
  EXPECT_EQ(__float2ull_ru(0.5f), 1ull);
  EXPECT_EQ(__double2int_rn(-0.5), 0);
  EXPECT_EQ(__double2int_rz(3e9), INT32_MAX);
  // int -> float: 2^24 + 1 is a midpoint between 2^24 and 2^24 + 2.
  EXPECT_EQ(__int2float_rn(16777217), 16777216.0f);
  EXPECT_EQ(__int2float_ru(16777217), 16777218.0f);
  EXPECT_EQ(__int2float_rd(-16777217), -16777218.0f);
  EXPECT_EQ(__int2float_rz(-16777217), -16777216.0f);
  EXPECT_EQ(__int2float_rn(16777219), 16777220.0f) << "ties to even";
  EXPECT_EQ(__uint2float_rn(0xffffffffu), 4294967296.0f);
  EXPECT_EQ(__uint2float_rz(0xffffffffu), 4294967040.0f);
  // A 64-bit integer one above a float midpoint: one rounding, not two.
  EXPECT_EQ(__ll2float_rn((1ll << 60) + (1ll << 36) + 1), std::ldexp(1.0f, 60) + std::ldexp(1.0f, 37));
  EXPECT_EQ(__ull2float_rn((1ull << 63) + (1ull << 39)), std::ldexp(1.0f, 63)) << "a tie to even";
  // Arithmetic in a rounding mode: 1 + 2^-25 lies between 1 and the next float.
  const float tiny = std::ldexp(1.0f, -25);
  EXPECT_EQ(__fadd_rn(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fadd_ru(1.0f, tiny), std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(__fadd_rd(1.0f, -tiny), std::nextafter(1.0f, 0.0f));
  EXPECT_EQ(__fadd_rz(-1.0f, -tiny), -1.0f);
  EXPECT_EQ(__fsub_ru(1.0f, -tiny), std::nextafter(1.0f, 2.0f));
  const float a = 1.0f + std::ldexp(1.0f, -12), b = 1.0f + std::ldexp(1.0f, -12);  // exact: 1 + 2^-11 + 2^-24
  EXPECT_EQ(__fmul_rn(a, b), 1.0f + std::ldexp(1.0f, -11)) << "a tie to even";
  EXPECT_EQ(__fmul_ru(a, b), 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -23));
  EXPECT_EQ(__fmul_rz(a, b), 1.0f + std::ldexp(1.0f, -11));
  EXPECT_EQ(__fdiv_rn(1.0f, 3.0f), 1.0f / 3.0f);
  // 1/3 rounds up to its nearest float (0x3eaaaaab), so up is nearest and toward zero is below.
  EXPECT_EQ(__fdiv_ru(1.0f, 3.0f), 1.0f / 3.0f);
  EXPECT_EQ(__fdiv_rz(1.0f, 3.0f), std::nextafter(1.0f / 3.0f, 0.0f));
  EXPECT_EQ(__fdiv_rz(-1.0f, 3.0f), std::nextafter(-1.0f / 3.0f, 0.0f));
  EXPECT_EQ(__fdiv_rd(-1.0f, 3.0f), -1.0f / 3.0f);
  EXPECT_EQ(__fmul_rz(3e38f, 10.0f), std::numeric_limits<float>::max()) << "toward zero never overflows";
  EXPECT_EQ(__fmul_rn(3e38f, 10.0f), INFINITY);
  EXPECT_EQ(__fsqrt_rn(2.0f), std::sqrt(2.0f));
  EXPECT_EQ(__frcp_rn(3.0f), 1.0f / 3.0f);
  EXPECT_EQ(__fmaf_rn(a, b, -1.0f), std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24)) << "one rounding";
  EXPECT_EQ(__saturatef(NAN), 0.0f);
  EXPECT_EQ(__saturatef(1.5f), 1.0f);
  EXPECT_EQ(__saturatef(-0.5f), 0.0f);
}

TEST(EmuIntrinsics, FastMathIntrinsicsAreCloseToTheFunctions) {
  // Approximations on the device; the documented maximum errors bound emu's model too.
  for (float x : {-10.0f, -1.0f, 0.0f, 0.5f, 3.0f, 20.0f}) {
    EXPECT_NEAR(__expf(x), std::exp(x), 1e-5 * std::exp(x) + 1e-30) << x;
    EXPECT_NEAR(__exp10f(x / 4), std::pow(10.0f, x / 4), 1e-5 * std::pow(10.0f, x / 4)) << x;
    EXPECT_NEAR(__sinf(x), std::sin(x), 1e-5);
    EXPECT_NEAR(__cosf(x), std::cos(x), 1e-5);
  }
  EXPECT_NEAR(__tanf(0.5f), std::tan(0.5f), 1e-6);
  EXPECT_NEAR(__logf(10.0f), std::log(10.0f), 1e-6);
  EXPECT_NEAR(__log2f(10.0f), std::log2(10.0f), 1e-6);
  EXPECT_NEAR(__log10f(1000.0f), 3.0f, 1e-6);
  EXPECT_NEAR(__powf(2.0f, 10.0f), 1024.0f, 1e-3);
  float s, c;
  __sincosf(1.0f, &s, &c);
  EXPECT_NEAR(s * s + c * c, 1.0f, 1e-6);
}

// --- math_constants.h ------------------------------------------------------------------------------

TEST(EmuMathConstants, ValuesAreTheToolkits) {
  EXPECT_EQ(__float_as_uint(CUDART_INF_F), 0x7f800000u);
  EXPECT_EQ(__float_as_uint(CUDART_NAN_F), 0x7fffffffu);
  EXPECT_EQ(__float_as_uint(CUDART_MIN_DENORM_F), 1u);
  EXPECT_EQ(CUDART_MAX_NORMAL_F, std::numeric_limits<float>::max());
  EXPECT_EQ(__float_as_uint(CUDART_NEG_ZERO_F), 0x80000000u);
  EXPECT_EQ(__double_as_longlong(CUDART_INF), 0x7ff0000000000000ll);
  EXPECT_EQ(static_cast<unsigned long long>(__double_as_longlong(CUDART_NAN)), 0xfff8000000000000ull);
  EXPECT_EQ(__double_as_longlong(CUDART_NEG_ZERO), static_cast<long long>(0x8000000000000000ull));
  EXPECT_EQ(CUDART_MIN_DENORM, std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(CUDART_REMQUO_MASK_F, 7u);
  EXPECT_EQ(CUDART_PI_F, 3.14159265358979f);
  EXPECT_EQ(__half_as_ushort(CUDART_INF_FP16), 0x7c00);
  EXPECT_EQ(__bfloat16_as_ushort(CUDART_ONE_BF16), 0x3f80);
#if !KVERIFY_HAVE_CUDA_ORACLE
  GTEST_SKIP()
      << "no CUDA toolkit headers at configure time: the numeric constants are not compared with the toolkit's";
#else
  std::size_t compared = 0;
#define KV_C(n) \
  { #n, static_cast < double>(n) }
  const std::pair<const char*, double> emu[] = {KV_C(CUDART_ZERO_F),
                                                KV_C(CUDART_ONE_F),
                                                KV_C(CUDART_SQRT_HALF_F),
                                                KV_C(CUDART_SQRT_HALF_HI_F),
                                                KV_C(CUDART_SQRT_HALF_LO_F),
                                                KV_C(CUDART_SQRT_TWO_F),
                                                KV_C(CUDART_THIRD_F),
                                                KV_C(CUDART_PIO4_F),
                                                KV_C(CUDART_PIO2_F),
                                                KV_C(CUDART_3PIO4_F),
                                                KV_C(CUDART_2_OVER_PI_F),
                                                KV_C(CUDART_SQRT_2_OVER_PI_F),
                                                KV_C(CUDART_PI_F),
                                                KV_C(CUDART_L2E_F),
                                                KV_C(CUDART_L2T_F),
                                                KV_C(CUDART_LG2_F),
                                                KV_C(CUDART_LGE_F),
                                                KV_C(CUDART_LN2_F),
                                                KV_C(CUDART_LNT_F),
                                                KV_C(CUDART_LNPI_F),
                                                KV_C(CUDART_TWO_TO_M126_F),
                                                KV_C(CUDART_TWO_TO_126_F),
                                                KV_C(CUDART_NORM_HUGE_F),
                                                KV_C(CUDART_TWO_TO_23_F),
                                                KV_C(CUDART_TWO_TO_24_F),
                                                KV_C(CUDART_TWO_TO_31_F),
                                                KV_C(CUDART_TWO_TO_32_F),
                                                KV_C(CUDART_TRIG_PLOSS_F),
                                                KV_C(CUDART_ZERO),
                                                KV_C(CUDART_ONE),
                                                KV_C(CUDART_SQRT_TWO),
                                                KV_C(CUDART_SQRT_HALF),
                                                KV_C(CUDART_SQRT_HALF_HI),
                                                KV_C(CUDART_SQRT_HALF_LO),
                                                KV_C(CUDART_THIRD),
                                                KV_C(CUDART_TWOTHIRD),
                                                KV_C(CUDART_PIO4),
                                                KV_C(CUDART_PIO4_HI),
                                                KV_C(CUDART_PIO4_LO),
                                                KV_C(CUDART_PIO2),
                                                KV_C(CUDART_PIO2_HI),
                                                KV_C(CUDART_PIO2_LO),
                                                KV_C(CUDART_3PIO4),
                                                KV_C(CUDART_2_OVER_PI),
                                                KV_C(CUDART_PI),
                                                KV_C(CUDART_PI_HI),
                                                KV_C(CUDART_PI_LO),
                                                KV_C(CUDART_SQRT_2PI),
                                                KV_C(CUDART_SQRT_2PI_HI),
                                                KV_C(CUDART_SQRT_2PI_LO),
                                                KV_C(CUDART_SQRT_PIO2),
                                                KV_C(CUDART_SQRT_PIO2_HI),
                                                KV_C(CUDART_SQRT_PIO2_LO),
                                                KV_C(CUDART_SQRT_2OPI),
                                                KV_C(CUDART_L2E),
                                                KV_C(CUDART_L2E_HI),
                                                KV_C(CUDART_L2E_LO),
                                                KV_C(CUDART_L2T),
                                                KV_C(CUDART_LG2),
                                                KV_C(CUDART_LG2_HI),
                                                KV_C(CUDART_LG2_LO),
                                                KV_C(CUDART_LGE),
                                                KV_C(CUDART_LGE_HI),
                                                KV_C(CUDART_LGE_LO),
                                                KV_C(CUDART_LN2),
                                                KV_C(CUDART_LN2_HI),
                                                KV_C(CUDART_LN2_LO),
                                                KV_C(CUDART_LNT),
                                                KV_C(CUDART_LNT_HI),
                                                KV_C(CUDART_LNT_LO),
                                                KV_C(CUDART_LNPI),
                                                KV_C(CUDART_LN2_X_1024),
                                                KV_C(CUDART_LN2_X_1025),
                                                KV_C(CUDART_LN2_X_1075),
                                                KV_C(CUDART_LG2_X_1024),
                                                KV_C(CUDART_LG2_X_1075),
                                                KV_C(CUDART_TWO_TO_23),
                                                KV_C(CUDART_TWO_TO_52),
                                                KV_C(CUDART_TWO_TO_53),
                                                KV_C(CUDART_TWO_TO_54),
                                                KV_C(CUDART_TWO_TO_M54),
                                                KV_C(CUDART_TWO_TO_M1022),
                                                KV_C(CUDART_TRIG_PLOSS),
                                                KV_C(CUDART_DBL2INT_CVT)};
#undef KV_C
  const auto want = oracle::math_constants();
  ASSERT_EQ(want.size(), std::size(emu));
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(want[i].name, emu[i].first);
    EXPECT_EQ(__double_as_longlong(emu[i].second), __double_as_longlong(want[i].value)) << emu[i].first;
    ++compared;
  }
  EXPECT_EQ(compared, 84u);
#endif
}

// --- cache-hinted loads and stores -----------------------------------------------------------------

template <typename T>
concept HasLdg = requires(const T* p) {
  __ldg(p);
};

TEST(EmuIntrinsics, LoadsAndStoresForCudasTypes) {
  const float4 v = make_float4(1, 2, 3, 4);
  EXPECT_EQ(__ldg(&v).w, 4.0f);
  EXPECT_EQ(__ldcs(&v).x, 1.0f);
  const __half2 h = __floats2half2_rn(1.0f, 2.0f);
  EXPECT_EQ(__high2float(__ldcg(&h)), 2.0f);
  int i = 5;
  EXPECT_EQ(__ldca(&i) + __ldlu(&i) + __ldcv(&i), 15);
  float out = 0;
  __stcs(&out, 1.5f);
  __stcg(&out, out + 1.0f);
  __stwb(&out, out * 2.0f);
  __stwt(&out, out + 1.0f);
  EXPECT_EQ(out, 6.0f);
  uint4 u{};
  __stcs(&u, make_uint4(1, 2, 3, 4));
  EXPECT_EQ(u.w, 4u);
  static_assert(HasLdg<double2> && HasLdg<__nv_bfloat16> && HasLdg<ulonglong2> && HasLdg<char4>);
  static_assert(!HasLdg<float3> && !HasLdg<bool>, "only the types CUDA overloads them for");
}

// --- clocks, __nanosleep, lane masks ---------------------------------------------------------------

__global__ void spin_until_flag(int* flag, long long* clocks, int* spins) {
  if (threadIdx.x == 0) {
    // Thread 0 waits for thread 31's flag: it must yield, or emu (one thread at a time) would spin forever.
    const long long start = clock64();
    int n = 0;
    while (atomicAdd(flag, 0) == 0) {
      __nanosleep(100);
      ++n;
    }
    clocks[0] = start;
    clocks[1] = clock64();
    *spins = n;
  } else if (threadIdx.x == 31) {
    atomicExch(flag, 1);
  }
}

TEST(EmuIntrinsics, NanosleepLetsASpinWaitProgressAndClock64IsMonotone) {
  for (std::uint64_t seed : {0ull, 5ull}) {
    int flag = 0, spins = -1;
    long long clocks[2] = {0, 0};
    kverify::emu::launch(dim3(1), dim3(32), 0, kverify::emu::LaunchOptions{seed}, spin_until_flag, &flag, clocks,
                         &spins);
    EXPECT_EQ(flag, 1);
    if (seed == 0) {
      EXPECT_GE(spins, 1) << "thread 0 ran first and had to wait";
    }
    EXPECT_LE(clocks[0], clocks[1]);
  }
}

__global__ void spin_forever(int* flag) {
  while (atomicAdd(flag, 0) == 0) __nanosleep(10);
}

TEST(EmuIntrinsics, ASpinWaitNothingEndsIsReportedAsADeadlock) {
  int flag = 0;
  try {
    kverify::emu::launch(dim3(1), dim3(2), 0, {}, spin_forever, &flag);
    FAIL() << "no LaunchError";
  } catch (const kverify::emu::LaunchError& e) {
    EXPECT_EQ(e.kind(), kverify::emu::LaunchError::Kind::deadlock);
    EXPECT_NE(std::string(e.what()).find("__nanosleep"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("intrinsics_test.cpp:"), std::string::npos) << e.what();
  }
}

__global__ void lane_masks(unsigned* out) {
  const unsigned t = threadIdx.x;
  if (t % 32 == 5) return;  // lane 5 of every warp returns ...
  __syncthreads();          // ... before any thread reads the masks (returned threads leave barriers)
  out[t * 6 + 0] = __lanemask_eq();
  out[t * 6 + 1] = __lanemask_lt();
  out[t * 6 + 2] = __lanemask_le();
  out[t * 6 + 3] = __lanemask_gt();
  out[t * 6 + 4] = __lanemask_ge();
  out[t * 6 + 5] = __activemask();
  __syncthreads();  // nobody returns before every thread has read its mask
}

TEST(EmuIntrinsics, LaneMasksAndActivemask) {
  std::vector<unsigned> out(48 * 6, 0);
  kverify::emu::launch(dim3(1), dim3(48), 0, {}, lane_masks, out.data());
  for (unsigned t = 0; t < 48; ++t) {
    if (t % 32 == 5) continue;
    const unsigned lane = t % 32;
    EXPECT_EQ(out[t * 6 + 0], 1u << lane);
    EXPECT_EQ(out[t * 6 + 1], (1u << lane) - 1);
    EXPECT_EQ(out[t * 6 + 2], (1u << lane) * 2 - 1);
    EXPECT_EQ(out[t * 6 + 3], ~((1u << lane) * 2 - 1));
    EXPECT_EQ(out[t * 6 + 4], ~((1u << lane) - 1));
    // The lanes that exist and have not returned (warp 1 has 16 lanes).
    EXPECT_EQ(out[t * 6 + 5], (t < 32 ? 0xffffffffu : 0x0000ffffu) & ~(1u << 5)) << t;
  }
}

// --- 16-bit and vector atomics ---------------------------------------------------------------------

__global__ void atomics_16(__half* h, __nv_bfloat16* b, __half2* h2, float4* f4, unsigned* inc, unsigned* bits) {
  atomicAdd(h, __float2half(1.0f));
  atomicAdd(b, __float2bfloat16(1.0f));
  atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
  atomicAdd(f4, make_float4(1, 2, 3, 4));
  atomicInc(inc, 9u);
  atomicOr(bits, 1u << (threadIdx.x % 32));
  atomicAdd_block(bits + 1, 1u);
}

TEST(EmuIntrinsics, AtomicsOnSixteenBitAndVectorTypes) {
  __half h = __float2half(0.0f);
  __nv_bfloat16 b = __float2bfloat16(0.0f);
  __half2 h2 = __floats2half2_rn(0.0f, 0.0f);
  float4 f4 = make_float4(0, 0, 0, 0);
  unsigned inc = 0, bits[2] = {0, 0};
  kverify::emu::launch(dim3(2), dim3(64), 0, kverify::emu::LaunchOptions{3}, atomics_16, &h, &b, &h2, &f4, &inc, bits);
  EXPECT_EQ(__half2float(h), 128.0f);
  EXPECT_EQ(__bfloat162float(b), 128.0f);
  EXPECT_EQ(__high2float(h2), 256.0f);
  EXPECT_EQ(f4.w, 512.0f);
  EXPECT_EQ(inc, 128u % 10u) << "atomicInc wraps to 0 after reaching the limit";
  EXPECT_EQ(bits[0], 0xffffffffu);
  EXPECT_EQ(bits[1], 128u);
}

}  // namespace

namespace {

// --- counting barriers (Programming Guide, "Synchronization Functions") ---------------------------

__global__ void counting_barriers(int* out) {
  const int t = static_cast<int>(threadIdx.x);
  if (t >= 60) return;  // returned threads do not take part
  const int count = __syncthreads_count(t % 3 == 0);
  const int all = __syncthreads_and(t < 1000);
  const int none = __syncthreads_or(t == 1000);
  const int some = __syncthreads_or(t == 59);
  const int not_all = __syncthreads_and(t != 7);
  out[t * 5 + 0] = count;
  out[t * 5 + 1] = all;
  out[t * 5 + 2] = none;
  out[t * 5 + 3] = some;
  out[t * 5 + 4] = not_all;
}

TEST(EmuIntrinsics, CountingBarriersCountTheThreadsThatTakePart) {
  for (std::uint64_t seed : {0ull, 2ull}) {
    std::vector<int> out(64 * 5, -1);
    kverify::emu::launch(dim3(1), dim3(64), 0, kverify::emu::LaunchOptions{seed}, counting_barriers, out.data());
    for (int t = 0; t < 60; ++t) {
      EXPECT_EQ(out[t * 5 + 0], 20) << "0, 3, ..., 57";
      EXPECT_NE(out[t * 5 + 1], 0);
      EXPECT_EQ(out[t * 5 + 2], 0);
      EXPECT_NE(out[t * 5 + 3], 0);
      EXPECT_EQ(out[t * 5 + 4], 0);
    }
  }
}

}  // namespace
