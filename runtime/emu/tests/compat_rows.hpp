// The rows of the emu/GPU compatibility table (compat_table.cu): one operation and its inputs as
// raw bits per row. Plain C++, read by nvcc (the GPU table), by the host compiler against emu
// (the emu table) and by the toolkit-host generator (compat_table_oracle.cpp).
//
// Source of truth per row:
//   toolkit  the CUDA toolkit has a host implementation; the committed expected table's value is
//            the toolkit's, and ctest checks that emu's equals it;
//   device   only a device path exists (or the toolkit's host and device paths may differ, e.g.
//            NaN payloads, +-0 in min/max): the expected value is emu's, checked in emu_tests
//            against the CUDA documentation or an exact MPFR computation; the GPU run of this
//            table is what establishes it;
//   approx   a fast intrinsic the GPU computes with its own approximation: emu is not bit-exact
//            by design; the row shows the size of the difference on a GPU run.
#pragma once

#include <cstdint>

namespace compat {

enum class Source { toolkit, device, approx };

enum class Op {
  // 16-bit formats (a, b, c: 16-bit patterns unless noted)
  f32_to_f16,
  f16_to_f32,
  f32_to_bf16,
  bf16_to_f32,
  f64_to_f16,
  f64_to_bf16,
  hadd,
  hsub,
  hmul,
  hdiv,
  hadd_bf,
  hsub_bf,
  hmul_bf,
  hdiv_bf,
  hfma,
  hfma_bf,
  hfma_relu,
  hmax,
  hmin,
  hmax_nan,
  hmin_nan,
  hmax_bf,
  hmin_bf,
  hmax_nan_bf,
  hmin_nan_bf,
  hneg,
  habs,
  hneg_bf,
  habs_bf,
  heq,
  hne,
  hlt,
  hge,
  hneu,
  hisnan,
  hisinf,
  heq_bf,
  hlt_bf,
  hexp,
  hexp2,
  hlog,
  hsqrt,
  hrsqrt,
  hrcp,
  hexp_bf,
  hsqrt_bf,
  hrsqrt_bf,
  h2int_rz,
  h2ll_rz,
  int2h_rn,
  ll2bf_rn,
  bf2int_rz,
  // integer intrinsics (a, b, c: 32- or 64-bit values)
  popc,
  popcll,
  clz,
  clzll,
  ffs,
  ffsll,
  brev,
  brevll,
  byte_perm,
  funnelshift_l,
  funnelshift_lc,
  funnelshift_r,
  funnelshift_rc,
  umulhi,
  mulhi,
  umul64hi,
  mul64hi,
  sad,
  usad,
  hadd_int,
  rhadd,
  mul24,
  umul24,
  // f32 with a rounding mode (a, b, c: f32 patterns, or integers for the int -> float rows)
  float2int_rn,
  float2int_rz,
  float2int_ru,
  float2int_rd,
  float2uint_rn,
  float2ll_rn,
  float2ll_rz,
  int2float_rn,
  int2float_rz,
  int2float_ru,
  int2float_rd,
  ll2float_rn,
  fadd_rz,
  fadd_ru,
  fadd_rd,
  fmul_rz,
  fmul_ru,
  fdiv_rn,
  fdiv_rz,
  fdiv_ru,
  fsqrt_rn,
  frcp_rn,
  fmaf_rn,
  saturatef,
  // fast intrinsics (f32 patterns)
  expf_fast,
  logf_fast,
  sinf_fast,
  cosf_fast,
  exp10f_fast,
  log2f_fast,
  powf_fast,
  fdividef,
};

struct Row {
  Op op;
  const char* name;
  Source source;
  int arity;
  std::uint64_t a, b, c;
};

inline constexpr Source T = Source::toolkit, D = Source::device, A = Source::approx;

// f32 patterns used below: 1.0 = 0x3f800000, 2^-25 = 0x33000000, 1/3 rounds up, 3e38 = 0x7f61b1e6.
inline constexpr Row kRows[] = {
    // f32 <-> f16/bf16: midpoints, ties to even, overflow at 65520, subnormals, NaN payloads.
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x3f800000},
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x3f801000},  // 1 + 2^-11: tie, even (down)
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x3f803000},  // 1 + 3*2^-11: tie, even (up)
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x3f801001},
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x477fefff},  // just below 65520
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x477ff000},  // 65520: rounds to inf
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x33000000},  // 2^-25: tie to 0
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x33000001},
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0xb3c00000},  // -1.5 * 2^-24
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0x7fc00000},
    {Op::f32_to_f16, "__float2half_rn", T, 1, 0xff812345},  // NaN with payload
    {Op::f16_to_f32, "__half2float", T, 1, 0x0001},
    {Op::f16_to_f32, "__half2float", T, 1, 0x83ff},
    {Op::f16_to_f32, "__half2float", T, 1, 0x7bff},
    {Op::f16_to_f32, "__half2float", T, 1, 0xfc00},
    {Op::f16_to_f32, "__half2float", D, 1, 0x7c01},  // NaN payload: the toolkit's host gives 0x7fffffff
    {Op::f16_to_f32, "__half2float", D, 1, 0xfe00},
    {Op::f32_to_bf16, "__float2bfloat16_rn", T, 1, 0x3f808000},  // tie, even (down)
    {Op::f32_to_bf16, "__float2bfloat16_rn", T, 1, 0x3f818000},  // tie, even (up)
    {Op::f32_to_bf16, "__float2bfloat16_rn", T, 1, 0x7f7fffff},  // rounds to inf
    {Op::f32_to_bf16, "__float2bfloat16_rn", T, 1, 0x00008000},  // subnormal tie
    {Op::f32_to_bf16, "__float2bfloat16_rn", T, 1, 0x7f812345},
    {Op::bf16_to_f32, "__bfloat162float", T, 1, 0x0001},
    {Op::bf16_to_f32, "__bfloat162float", D, 1, 0x7f81},
    {Op::f64_to_f16, "__double2half", T, 1, 0x3ff0020000000001ull},  // just above a midpoint
    {Op::f64_to_f16, "__double2half", T, 1, 0x3ff001ffffffffffull},  // just below one
    {Op::f64_to_bf16, "__double2bfloat16", T, 1, 0x3ff0100000000001ull},
    {Op::f64_to_bf16, "__double2bfloat16", T, 1, 0x3ff00fffffffffffull},
    // f16/bf16 arithmetic: rounding, overflow, subnormal results, NaN, signed zeros.
    {Op::hadd, "__hadd", T, 2, 0x3c00, 0x1000},
    {Op::hadd, "__hadd", T, 2, 0x7bff, 0x5000},
    {Op::hadd, "__hadd", T, 2, 0x8000, 0x0000},
    {Op::hadd, "__hadd", T, 2, 0x0001, 0x8001},
    {Op::hadd, "__hadd", T, 2, 0x7c00, 0xfc00},
    {Op::hsub, "__hsub", T, 2, 0x3c01, 0x3c00},
    {Op::hmul, "__hmul", T, 2, 0x3c01, 0x3c01},
    {Op::hmul, "__hmul", T, 2, 0x0200, 0x3800},
    {Op::hmul, "__hmul", T, 2, 0x7e00, 0x3c00},
    {Op::hdiv, "__hdiv", T, 2, 0x3c00, 0x4200},
    {Op::hdiv, "__hdiv", T, 2, 0x0001, 0x4000},  // a subnormal tie
    {Op::hdiv, "__hdiv", T, 2, 0x0003, 0x4000},
    {Op::hdiv, "__hdiv", T, 2, 0x3c00, 0x0000},
    {Op::hdiv, "__hdiv", T, 2, 0x0000, 0x0000},
    {Op::hdiv, "__hdiv", T, 2, 0x7bff, 0x0400},
    {Op::hdiv, "__hdiv", T, 2, 0x3555, 0x3bff},
    {Op::hadd_bf, "__hadd(bf16)", T, 2, 0x3f80, 0x3b80},
    {Op::hadd_bf, "__hadd(bf16)", T, 2, 0x0001, 0x0001},
    {Op::hsub_bf, "__hsub(bf16)", T, 2, 0x3f81, 0x3f80},
    {Op::hmul_bf, "__hmul(bf16)", T, 2, 0x3f81, 0x3f81},
    {Op::hmul_bf, "__hmul(bf16)", T, 2, 0x0080, 0x3f00},
    {Op::hdiv_bf, "__hdiv(bf16)", T, 2, 0x3f80, 0x4040},
    {Op::hdiv_bf, "__hdiv(bf16)", T, 2, 0x0001, 0x4000},
    {Op::hfma, "__hfma", D, 3, 0x3e00, 0x3956, 0x0001},  // a*b is a midpoint, c tips it
    {Op::hfma, "__hfma", D, 3, 0x3e00, 0x3956, 0x8001},
    {Op::hfma, "__hfma", D, 3, 0x3c01, 0x3c01, 0xbc00},
    {Op::hfma, "__hfma", D, 3, 0x7bff, 0x4000, 0xfbff},
    {Op::hfma, "__hfma", D, 3, 0x8000, 0x3c00, 0x8000},
    {Op::hfma, "__hfma", D, 3, 0x3c00, 0x3c00, 0xbc00},
    {Op::hfma_bf, "__hfma(bf16)", D, 3, 0x3fe0, 0x3f14, 0x8d80},
    {Op::hfma_bf, "__hfma(bf16)", D, 3, 0x3f81, 0x3f81, 0xbf80},
    {Op::hfma_relu, "__hfma_relu", D, 3, 0x3c00, 0xbc00, 0x3800},
    {Op::hfma_relu, "__hfma_relu", D, 3, 0x7e00, 0x3c00, 0x3c00},
    {Op::hmax, "__hmax", T, 2, 0x0000, 0x8000},
    {Op::hmax, "__hmax", T, 2, 0x8000, 0x0000},
    {Op::hmax, "__hmax", T, 2, 0x7e00, 0x3c00},
    {Op::hmax, "__hmax", T, 2, 0x7e01, 0x7e02},
    {Op::hmin, "__hmin", T, 2, 0x0000, 0x8000},
    {Op::hmin, "__hmin", T, 2, 0x3c00, 0xfe00},
    {Op::hmax_nan, "__hmax_nan", T, 2, 0x7e00, 0x3c00},
    {Op::hmax_nan, "__hmax_nan", D, 2, 0x8000, 0x0000},
    {Op::hmin_nan, "__hmin_nan", D, 2, 0x0000, 0x8000},
    {Op::hmax_bf, "__hmax(bf16)", T, 2, 0x8000, 0x0000},
    {Op::hmin_bf, "__hmin(bf16)", T, 2, 0x0000, 0x8000},
    {Op::hmax_bf, "__hmax(bf16)", T, 2, 0x7fc0, 0xbf80},
    {Op::hmax_nan_bf, "__hmax_nan(bf16)", D, 2, 0x8000, 0x0000},
    {Op::hmin_nan_bf, "__hmin_nan(bf16)", D, 2, 0x0000, 0x8000},
    {Op::hneg, "__hneg", T, 1, 0x3c00},
    {Op::hneg, "__hneg", T, 1, 0x0000},
    {Op::hneg, "__hneg", D, 1, 0x7e01},  // NaN: the host gives 0x7fff; neg.f16 may keep the payload
    {Op::habs, "__habs", T, 1, 0x8001},
    {Op::habs, "__habs", D, 1, 0xfe01},
    {Op::hneg_bf, "__hneg(bf16)", T, 1, 0x3f80},
    {Op::hneg_bf, "__hneg(bf16)", D, 1, 0x7fc1},
    {Op::habs_bf, "__habs(bf16)", D, 1, 0xffc1},
    {Op::heq, "__heq", T, 2, 0x0000, 0x8000},
    {Op::heq, "__heq", T, 2, 0x7e00, 0x7e00},
    {Op::hne, "__hne", T, 2, 0x7e00, 0x3c00},
    {Op::hneu, "__hneu", T, 2, 0x7e00, 0x3c00},
    {Op::hlt, "__hlt", T, 2, 0xfc00, 0x7bff},
    {Op::hge, "__hge", T, 2, 0x7e00, 0x7e00},
    {Op::hisnan, "__hisnan", T, 1, 0x7c01},
    {Op::hisnan, "__hisnan", T, 1, 0x7c00},
    {Op::hisinf, "__hisinf", T, 1, 0xfc00},
    {Op::hisinf, "__hisinf", T, 1, 0x7c00},
    {Op::heq_bf, "__heq(bf16)", T, 2, 0x8000, 0x0000},
    {Op::hlt_bf, "__hlt(bf16)", T, 2, 0x7fc0, 0x3f80},
    {Op::hexp, "hexp", D, 1, 0x1f79},  // inputs cuda_fp16.hpp patches after ex2.approx
    {Op::hexp, "hexp", D, 1, 0x25cf},
    {Op::hexp, "hexp", D, 1, 0xc13b},
    {Op::hexp, "hexp", D, 1, 0xc1ef},
    {Op::hexp, "hexp", D, 1, 0x4a00},
    {Op::hexp, "hexp", D, 1, 0xcc00},
    {Op::hexp2, "hexp2", D, 1, 0x3c00},
    {Op::hexp2, "hexp2", D, 1, 0xce00},
    {Op::hlog, "hlog", D, 1, 0x0001},
    {Op::hlog, "hlog", D, 1, 0x8000},
    {Op::hlog, "hlog", D, 1, 0x3c01},
    {Op::hsqrt, "hsqrt", D, 1, 0x4000},
    {Op::hsqrt, "hsqrt", D, 1, 0x0001},
    {Op::hsqrt, "hsqrt", D, 1, 0x8000},
    {Op::hsqrt, "hsqrt", D, 1, 0xbc00},
    {Op::hrsqrt, "hrsqrt", D, 1, 0x8000},
    {Op::hrsqrt, "hrsqrt", D, 1, 0x4400},
    {Op::hrcp, "hrcp", D, 1, 0x4200},
    {Op::hrcp, "hrcp", D, 1, 0x0001},
    {Op::hexp_bf, "hexp(bf16)", D, 1, 0x4280},
    {Op::hsqrt_bf, "hsqrt(bf16)", D, 1, 0x4000},
    {Op::hrsqrt_bf, "hrsqrt(bf16)", D, 1, 0x4040},
    {Op::h2int_rz, "__half2int_rz", T, 1, 0xc0f0},
    {Op::h2int_rz, "__half2int_rz", T, 1, 0x7e00},
    {Op::h2ll_rz, "__half2ll_rz", T, 1, 0x7e00},  // NaN -> 0x8000000000000000
    {Op::h2ll_rz, "__half2ll_rz", T, 1, 0xfc00},
    {Op::bf2int_rz, "__bfloat162int_rz", T, 1, 0x7f80},
    {Op::int2h_rn, "__int2half_rn", T, 1, 2049},
    {Op::int2h_rn, "__int2half_rn", T, 1, 2051},
    {Op::int2h_rn, "__int2half_rn", T, 1, 65520},
    {Op::ll2bf_rn, "__ll2bfloat16_rn", T, 1, 0x0100800000000001ull},
    {Op::ll2bf_rn, "__ll2bfloat16_rn", T, 1, 0x0000000001010001ull},  // 2^24 + 2^16 + 1: one rounding
    // Integer intrinsics.
    {Op::popc, "__popc", D, 1, 0xf00f0001},
    {Op::popcll, "__popcll", D, 1, 0x8000000000000001ull},
    {Op::clz, "__clz", D, 1, 0},
    {Op::clz, "__clz", D, 1, 0x00010000},
    {Op::clzll, "__clzll", D, 1, 0},
    {Op::clzll, "__clzll", D, 1, 0x0000000100000000ull},
    {Op::ffs, "__ffs", D, 1, 0},
    {Op::ffs, "__ffs", D, 1, 0x80000000},
    {Op::ffsll, "__ffsll", D, 1, 0x0000010000000000ull},
    {Op::brev, "__brev", D, 1, 0x12345678},
    {Op::brevll, "__brevll", D, 1, 0x0123456789abcdefull},
    {Op::byte_perm, "__byte_perm", D, 3, 0x33221100, 0x77665544, 0x5140},
    {Op::byte_perm, "__byte_perm", D, 3, 0x33221100, 0x77665544, 0xffff0123},
    {Op::byte_perm, "__byte_perm", D, 3, 0x00008000, 0x00000000, 0x8888},  // bit 3 of the selectors set
    {Op::byte_perm, "__byte_perm", D, 3, 0x807f0180, 0x00000000, 0x9abc},
    {Op::funnelshift_l, "__funnelshift_l", D, 3, 0x12345678, 0x9abcdef0, 36},
    {Op::funnelshift_lc, "__funnelshift_lc", D, 3, 0x12345678, 0x9abcdef0, 40},
    {Op::funnelshift_r, "__funnelshift_r", D, 3, 0x12345678, 0x9abcdef0, 33},
    {Op::funnelshift_rc, "__funnelshift_rc", D, 3, 0x12345678, 0x9abcdef0, 40},
    {Op::umulhi, "__umulhi", D, 2, 0xffffffff, 0xffffffff},
    {Op::mulhi, "__mulhi", D, 2, 0xffffffff, 0x00000001},
    {Op::umul64hi, "__umul64hi", D, 2, 0xffffffffffffffffull, 0xffffffffffffffffull},
    {Op::mul64hi, "__mul64hi", D, 2, 0x8000000000000000ull, 0x8000000000000000ull},
    {Op::sad, "__sad", D, 3, 0xfffffffb, 3, 1},
    {Op::usad, "__usad", D, 3, 3, 0xffffffff, 2},
    {Op::hadd_int, "__hadd(int)", D, 2, 0x7fffffff, 0x7fffffff},
    {Op::hadd_int, "__hadd(int)", D, 2, 0xfffffffd, 0},
    {Op::rhadd, "__rhadd", D, 2, 0xfffffffd, 0},
    {Op::mul24, "__mul24", D, 2, 0x00ffffff, 2},
    {Op::umul24, "__umul24", D, 2, 0x01000003, 5},
    // f32 in a rounding mode.
    {Op::float2int_rn, "__float2int_rn", D, 1, 0x40200000},  // 2.5
    {Op::float2int_rn, "__float2int_rn", D, 1, 0x7fc00000},
    {Op::float2int_rz, "__float2int_rz", D, 1, 0xd0000000},    // -2^33
    {Op::float2int_ru, "__float2int_ru", D, 1, 0xc02ccccd},    // -2.7
    {Op::float2int_rd, "__float2int_rd", D, 1, 0xc00ccccd},    // -2.2
    {Op::float2uint_rn, "__float2uint_rn", D, 1, 0xc0a00000},  // -5
    {Op::float2ll_rn, "__float2ll_rn", D, 1, 0x7fc00000},
    {Op::float2ll_rz, "__float2ll_rz", D, 1, 0x7f800000},
    {Op::int2float_rn, "__int2float_rn", D, 1, 16777217},
    {Op::int2float_rz, "__int2float_rz", D, 1, 0xfeffffff},  // -16777217
    {Op::int2float_ru, "__int2float_ru", D, 1, 16777217},
    {Op::int2float_rd, "__int2float_rd", D, 1, 0xfeffffff},
    {Op::ll2float_rn, "__ll2float_rn", D, 1, 0x1000001000000001ull},
    {Op::fadd_rz, "__fadd_rz", D, 2, 0xbf800000, 0xb3000000},
    {Op::fadd_ru, "__fadd_ru", D, 2, 0x3f800000, 0x33000000},
    {Op::fadd_rd, "__fadd_rd", D, 2, 0x3f800000, 0xb3000000},
    {Op::fmul_rz, "__fmul_rz", D, 2, 0x7f61b1e6, 0x41200000},
    {Op::fmul_ru, "__fmul_ru", D, 2, 0x3f800800, 0x3f800800},
    {Op::fdiv_rn, "__fdiv_rn", D, 2, 0x3f800000, 0x40400000},
    {Op::fdiv_rz, "__fdiv_rz", D, 2, 0x3f800000, 0x40400000},
    {Op::fdiv_ru, "__fdiv_ru", D, 2, 0xbf800000, 0x40400000},
    {Op::fsqrt_rn, "__fsqrt_rn", D, 1, 0x40000000},
    {Op::frcp_rn, "__frcp_rn", D, 1, 0x40400000},
    {Op::fmaf_rn, "__fmaf_rn", D, 3, 0x3f800800, 0x3f800800, 0xbf800000},
    {Op::saturatef, "__saturatef", D, 1, 0x7fc00000},
    {Op::saturatef, "__saturatef", D, 1, 0x3fc00000},
    // Fast intrinsics: approximations on the GPU.
    {Op::expf_fast, "__expf", A, 1, 0x41200000},
    {Op::expf_fast, "__expf", A, 1, 0xc1200000},
    {Op::logf_fast, "__logf", A, 1, 0x41200000},
    {Op::sinf_fast, "__sinf", A, 1, 0x3f800000},
    {Op::cosf_fast, "__cosf", A, 1, 0x40490fdb},
    {Op::exp10f_fast, "__exp10f", A, 1, 0x40000000},
    {Op::log2f_fast, "__log2f", A, 1, 0x41200000},
    {Op::powf_fast, "__powf", A, 2, 0x40000000, 0x41200000},
    {Op::fdividef, "__fdividef", A, 2, 0x3f800000, 0x40400000},
};

inline constexpr int kRowCount = static_cast<int>(sizeof(kRows) / sizeof(kRows[0]));

inline const char* source_name(Source s) {
  return s == Source::toolkit ? "toolkit" : s == Source::device ? "device" : "approx";
}

}  // namespace compat
