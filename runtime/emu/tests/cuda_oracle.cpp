// The oracle's side that includes the CUDA toolkit (see cuda_oracle.hpp).
#include "runtime/emu/tests/cuda_oracle.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math_constants.h>
#include <vector_types.h>

#include <stdexcept>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace kverify::emu::oracle {
namespace {

__half h(std::uint16_t b) {
  __half_raw r;
  r.x = b;
  return __half(r);
}
__nv_bfloat16 bf(std::uint16_t b) {
  __nv_bfloat16_raw r;
  r.x = b;
  return __nv_bfloat16(r);
}
std::uint16_t bits(__half v) { return static_cast<__half_raw>(v).x; }
std::uint16_t bits(__nv_bfloat16 v) { return static_cast<__nv_bfloat16_raw>(v).x; }

template <typename H>
H make(std::uint16_t b);
template <>
__half make<__half>(std::uint16_t b) {
  return h(b);
}
template <>
__nv_bfloat16 make<__nv_bfloat16>(std::uint16_t b) {
  return bf(b);
}

template <typename H>
std::uint16_t binary_of(Binary op, H a, H b) {
  switch (op) {
    case Binary::add:
      return bits(__hadd(a, b));
    case Binary::sub:
      return bits(__hsub(a, b));
    case Binary::mul:
      return bits(__hmul(a, b));
    case Binary::div:
      return bits(__hdiv(a, b));
    case Binary::max:
      return bits(__hmax(a, b));
    case Binary::min:
      return bits(__hmin(a, b));
    case Binary::max_nan:
      return bits(__hmax_nan(a, b));
    case Binary::min_nan:
      return bits(__hmin_nan(a, b));
    case Binary::add_sat:
      return bits(__hadd_sat(a, b));
    case Binary::sub_sat:
      return bits(__hsub_sat(a, b));
    case Binary::mul_sat:
      return bits(__hmul_sat(a, b));
  }
  throw std::logic_error("binary");
}

template <typename H>
bool compare_of(Compare op, H a, H b) {
  switch (op) {
    case Compare::eq:
      return __heq(a, b);
    case Compare::ne:
      return __hne(a, b);
    case Compare::lt:
      return __hlt(a, b);
    case Compare::le:
      return __hle(a, b);
    case Compare::gt:
      return __hgt(a, b);
    case Compare::ge:
      return __hge(a, b);
    case Compare::equ:
      return __hequ(a, b);
    case Compare::neu:
      return __hneu(a, b);
    case Compare::ltu:
      return __hltu(a, b);
    case Compare::leu:
      return __hleu(a, b);
    case Compare::gtu:
      return __hgtu(a, b);
    case Compare::geu:
      return __hgeu(a, b);
    case Compare::op_eq:
      return a == b;
    case Compare::op_ne:
      return a != b;
    case Compare::op_lt:
      return a < b;
    case Compare::op_le:
      return a <= b;
    case Compare::op_gt:
      return a > b;
    case Compare::op_ge:
      return a >= b;
  }
  throw std::logic_error("compare");
}

template <typename H>
long long integer_of(Integer type, H a) {
  switch (type) {
    case Integer::s8:
      return static_cast<signed char>(a);
    case Integer::u8:
      return static_cast<unsigned char>(a);
    case Integer::s16:
      return static_cast<short>(a);
    case Integer::u16:
      return static_cast<unsigned short>(a);
    case Integer::s32:
      return static_cast<int>(a);
    case Integer::u32:
      return static_cast<unsigned int>(a);
    case Integer::s64:
      return static_cast<long long>(a);
    case Integer::u64:
      return static_cast<long long>(static_cast<unsigned long long>(a));
  }
  throw std::logic_error("integer");
}

}  // namespace

std::uint16_t from_f32(Format f, float v) {
  return f == Format::f16 ? bits(__float2half_rn(v)) : bits(__float2bfloat16_rn(v));
}
std::uint16_t from_f64(Format f, double v) {
  return f == Format::f16 ? bits(__double2half(v)) : bits(__double2bfloat16(v));
}
float to_f32(Format f, std::uint16_t b) { return f == Format::f16 ? __half2float(h(b)) : __bfloat162float(bf(b)); }
std::uint16_t binary(Format f, Binary op, std::uint16_t a, std::uint16_t b) {
  return f == Format::f16 ? binary_of(op, h(a), h(b)) : binary_of(op, bf(a), bf(b));
}
bool compare(Format f, Compare op, std::uint16_t a, std::uint16_t b) {
  return f == Format::f16 ? compare_of(op, h(a), h(b)) : compare_of(op, bf(a), bf(b));
}
std::uint16_t unary(Format f, Unary op, std::uint16_t a) {
  if (f == Format::f16) return op == Unary::neg ? bits(__hneg(h(a))) : bits(__habs(h(a)));
  return op == Unary::neg ? bits(__hneg(bf(a))) : bits(__habs(bf(a)));
}
bool is_nan(Format f, std::uint16_t a) { return f == Format::f16 ? __hisnan(h(a)) : __hisnan(bf(a)); }
int is_inf(Format f, std::uint16_t a) { return f == Format::f16 ? __hisinf(h(a)) : __hisinf(bf(a)); }
long long to_integer_rz(Format f, Integer type, std::uint16_t a) {
  return f == Format::f16 ? integer_of(type, h(a)) : integer_of(type, bf(a));
}
std::uint16_t from_integer(Format f, Integer type, long long v) {
  if (f == Format::f16) {
    switch (type) {
      case Integer::s16:
        return bits(__short2half_rn(static_cast<short>(v)));
      case Integer::u16:
        return bits(__ushort2half_rn(static_cast<unsigned short>(v)));
      case Integer::s32:
        return bits(__int2half_rn(static_cast<int>(v)));
      case Integer::u32:
        return bits(__uint2half_rn(static_cast<unsigned int>(v)));
      default:
        return bits(__ll2half_rn(v));
    }
  }
  switch (type) {
    case Integer::s16:
      return bits(__short2bfloat16_rn(static_cast<short>(v)));
    case Integer::u16:
      return bits(__ushort2bfloat16_rn(static_cast<unsigned short>(v)));
    case Integer::s32:
      return bits(__int2bfloat16_rn(static_cast<int>(v)));
    case Integer::u32:
      return bits(__uint2bfloat16_rn(static_cast<unsigned int>(v)));
    default:
      return bits(__ll2bfloat16_rn(v));
  }
}
std::uint16_t from_unsigned(Format f, unsigned long long v) {
  return f == Format::f16 ? bits(__ull2half_rn(v)) : bits(__ull2bfloat16_rn(v));
}

std::vector<TypeLayout> vector_type_layouts() {
  return {
      {"char1", sizeof(char1), alignof(char1)},
      {"char2", sizeof(char2), alignof(char2)},
      {"char3", sizeof(char3), alignof(char3)},
      {"char4", sizeof(char4), alignof(char4)},
      {"uchar1", sizeof(uchar1), alignof(uchar1)},
      {"uchar2", sizeof(uchar2), alignof(uchar2)},
      {"uchar3", sizeof(uchar3), alignof(uchar3)},
      {"uchar4", sizeof(uchar4), alignof(uchar4)},
      {"short1", sizeof(short1), alignof(short1)},
      {"short2", sizeof(short2), alignof(short2)},
      {"short3", sizeof(short3), alignof(short3)},
      {"short4", sizeof(short4), alignof(short4)},
      {"ushort1", sizeof(ushort1), alignof(ushort1)},
      {"ushort2", sizeof(ushort2), alignof(ushort2)},
      {"ushort3", sizeof(ushort3), alignof(ushort3)},
      {"ushort4", sizeof(ushort4), alignof(ushort4)},
      {"int1", sizeof(int1), alignof(int1)},
      {"int2", sizeof(int2), alignof(int2)},
      {"int3", sizeof(int3), alignof(int3)},
      {"int4", sizeof(int4), alignof(int4)},
      {"uint1", sizeof(uint1), alignof(uint1)},
      {"uint2", sizeof(uint2), alignof(uint2)},
      {"uint3", sizeof(uint3), alignof(uint3)},
      {"uint4", sizeof(uint4), alignof(uint4)},
      {"long1", sizeof(long1), alignof(long1)},
      {"long2", sizeof(long2), alignof(long2)},
      {"long3", sizeof(long3), alignof(long3)},
      {"long4", sizeof(long4), alignof(long4)},
      {"ulong1", sizeof(ulong1), alignof(ulong1)},
      {"ulong2", sizeof(ulong2), alignof(ulong2)},
      {"ulong3", sizeof(ulong3), alignof(ulong3)},
      {"ulong4", sizeof(ulong4), alignof(ulong4)},
      {"longlong1", sizeof(longlong1), alignof(longlong1)},
      {"longlong2", sizeof(longlong2), alignof(longlong2)},
      {"longlong3", sizeof(longlong3), alignof(longlong3)},
      {"longlong4", sizeof(longlong4), alignof(longlong4)},
      {"ulonglong1", sizeof(ulonglong1), alignof(ulonglong1)},
      {"ulonglong2", sizeof(ulonglong2), alignof(ulonglong2)},
      {"ulonglong3", sizeof(ulonglong3), alignof(ulonglong3)},
      {"ulonglong4", sizeof(ulonglong4), alignof(ulonglong4)},
      {"float1", sizeof(float1), alignof(float1)},
      {"float2", sizeof(float2), alignof(float2)},
      {"float3", sizeof(float3), alignof(float3)},
      {"float4", sizeof(float4), alignof(float4)},
      {"double1", sizeof(double1), alignof(double1)},
      {"double2", sizeof(double2), alignof(double2)},
      {"double3", sizeof(double3), alignof(double3)},
      {"double4", sizeof(double4), alignof(double4)},
      {"long4_16a", sizeof(long4_16a), alignof(long4_16a)},
      {"long4_32a", sizeof(long4_32a), alignof(long4_32a)},
      {"ulong4_16a", sizeof(ulong4_16a), alignof(ulong4_16a)},
      {"ulong4_32a", sizeof(ulong4_32a), alignof(ulong4_32a)},
      {"longlong4_16a", sizeof(longlong4_16a), alignof(longlong4_16a)},
      {"longlong4_32a", sizeof(longlong4_32a), alignof(longlong4_32a)},
      {"ulonglong4_16a", sizeof(ulonglong4_16a), alignof(ulonglong4_16a)},
      {"ulonglong4_32a", sizeof(ulonglong4_32a), alignof(ulonglong4_32a)},
      {"double4_16a", sizeof(double4_16a), alignof(double4_16a)},
      {"double4_32a", sizeof(double4_32a), alignof(double4_32a)},
      {"dim3", sizeof(dim3), alignof(dim3)},
  };
}

const char* error_string(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }
const char* error_name(int code) { return cudaGetErrorName(static_cast<cudaError_t>(code)); }

std::vector<Constant> math_constants() {
  return {
      {"CUDART_ZERO_F", static_cast<double>(CUDART_ZERO_F), true},
      {"CUDART_ONE_F", static_cast<double>(CUDART_ONE_F), true},
      {"CUDART_SQRT_HALF_F", static_cast<double>(CUDART_SQRT_HALF_F), true},
      {"CUDART_SQRT_HALF_HI_F", static_cast<double>(CUDART_SQRT_HALF_HI_F), true},
      {"CUDART_SQRT_HALF_LO_F", static_cast<double>(CUDART_SQRT_HALF_LO_F), true},
      {"CUDART_SQRT_TWO_F", static_cast<double>(CUDART_SQRT_TWO_F), true},
      {"CUDART_THIRD_F", static_cast<double>(CUDART_THIRD_F), true},
      {"CUDART_PIO4_F", static_cast<double>(CUDART_PIO4_F), true},
      {"CUDART_PIO2_F", static_cast<double>(CUDART_PIO2_F), true},
      {"CUDART_3PIO4_F", static_cast<double>(CUDART_3PIO4_F), true},
      {"CUDART_2_OVER_PI_F", static_cast<double>(CUDART_2_OVER_PI_F), true},
      {"CUDART_SQRT_2_OVER_PI_F", static_cast<double>(CUDART_SQRT_2_OVER_PI_F), true},
      {"CUDART_PI_F", static_cast<double>(CUDART_PI_F), true},
      {"CUDART_L2E_F", static_cast<double>(CUDART_L2E_F), true},
      {"CUDART_L2T_F", static_cast<double>(CUDART_L2T_F), true},
      {"CUDART_LG2_F", static_cast<double>(CUDART_LG2_F), true},
      {"CUDART_LGE_F", static_cast<double>(CUDART_LGE_F), true},
      {"CUDART_LN2_F", static_cast<double>(CUDART_LN2_F), true},
      {"CUDART_LNT_F", static_cast<double>(CUDART_LNT_F), true},
      {"CUDART_LNPI_F", static_cast<double>(CUDART_LNPI_F), true},
      {"CUDART_TWO_TO_M126_F", static_cast<double>(CUDART_TWO_TO_M126_F), true},
      {"CUDART_TWO_TO_126_F", static_cast<double>(CUDART_TWO_TO_126_F), true},
      {"CUDART_NORM_HUGE_F", static_cast<double>(CUDART_NORM_HUGE_F), true},
      {"CUDART_TWO_TO_23_F", static_cast<double>(CUDART_TWO_TO_23_F), true},
      {"CUDART_TWO_TO_24_F", static_cast<double>(CUDART_TWO_TO_24_F), true},
      {"CUDART_TWO_TO_31_F", static_cast<double>(CUDART_TWO_TO_31_F), true},
      {"CUDART_TWO_TO_32_F", static_cast<double>(CUDART_TWO_TO_32_F), true},
      {"CUDART_TRIG_PLOSS_F", static_cast<double>(CUDART_TRIG_PLOSS_F), true},
      {"CUDART_ZERO", static_cast<double>(CUDART_ZERO), false},
      {"CUDART_ONE", static_cast<double>(CUDART_ONE), false},
      {"CUDART_SQRT_TWO", static_cast<double>(CUDART_SQRT_TWO), false},
      {"CUDART_SQRT_HALF", static_cast<double>(CUDART_SQRT_HALF), false},
      {"CUDART_SQRT_HALF_HI", static_cast<double>(CUDART_SQRT_HALF_HI), false},
      {"CUDART_SQRT_HALF_LO", static_cast<double>(CUDART_SQRT_HALF_LO), false},
      {"CUDART_THIRD", static_cast<double>(CUDART_THIRD), false},
      {"CUDART_TWOTHIRD", static_cast<double>(CUDART_TWOTHIRD), false},
      {"CUDART_PIO4", static_cast<double>(CUDART_PIO4), false},
      {"CUDART_PIO4_HI", static_cast<double>(CUDART_PIO4_HI), false},
      {"CUDART_PIO4_LO", static_cast<double>(CUDART_PIO4_LO), false},
      {"CUDART_PIO2", static_cast<double>(CUDART_PIO2), false},
      {"CUDART_PIO2_HI", static_cast<double>(CUDART_PIO2_HI), false},
      {"CUDART_PIO2_LO", static_cast<double>(CUDART_PIO2_LO), false},
      {"CUDART_3PIO4", static_cast<double>(CUDART_3PIO4), false},
      {"CUDART_2_OVER_PI", static_cast<double>(CUDART_2_OVER_PI), false},
      {"CUDART_PI", static_cast<double>(CUDART_PI), false},
      {"CUDART_PI_HI", static_cast<double>(CUDART_PI_HI), false},
      {"CUDART_PI_LO", static_cast<double>(CUDART_PI_LO), false},
      {"CUDART_SQRT_2PI", static_cast<double>(CUDART_SQRT_2PI), false},
      {"CUDART_SQRT_2PI_HI", static_cast<double>(CUDART_SQRT_2PI_HI), false},
      {"CUDART_SQRT_2PI_LO", static_cast<double>(CUDART_SQRT_2PI_LO), false},
      {"CUDART_SQRT_PIO2", static_cast<double>(CUDART_SQRT_PIO2), false},
      {"CUDART_SQRT_PIO2_HI", static_cast<double>(CUDART_SQRT_PIO2_HI), false},
      {"CUDART_SQRT_PIO2_LO", static_cast<double>(CUDART_SQRT_PIO2_LO), false},
      {"CUDART_SQRT_2OPI", static_cast<double>(CUDART_SQRT_2OPI), false},
      {"CUDART_L2E", static_cast<double>(CUDART_L2E), false},
      {"CUDART_L2E_HI", static_cast<double>(CUDART_L2E_HI), false},
      {"CUDART_L2E_LO", static_cast<double>(CUDART_L2E_LO), false},
      {"CUDART_L2T", static_cast<double>(CUDART_L2T), false},
      {"CUDART_LG2", static_cast<double>(CUDART_LG2), false},
      {"CUDART_LG2_HI", static_cast<double>(CUDART_LG2_HI), false},
      {"CUDART_LG2_LO", static_cast<double>(CUDART_LG2_LO), false},
      {"CUDART_LGE", static_cast<double>(CUDART_LGE), false},
      {"CUDART_LGE_HI", static_cast<double>(CUDART_LGE_HI), false},
      {"CUDART_LGE_LO", static_cast<double>(CUDART_LGE_LO), false},
      {"CUDART_LN2", static_cast<double>(CUDART_LN2), false},
      {"CUDART_LN2_HI", static_cast<double>(CUDART_LN2_HI), false},
      {"CUDART_LN2_LO", static_cast<double>(CUDART_LN2_LO), false},
      {"CUDART_LNT", static_cast<double>(CUDART_LNT), false},
      {"CUDART_LNT_HI", static_cast<double>(CUDART_LNT_HI), false},
      {"CUDART_LNT_LO", static_cast<double>(CUDART_LNT_LO), false},
      {"CUDART_LNPI", static_cast<double>(CUDART_LNPI), false},
      {"CUDART_LN2_X_1024", static_cast<double>(CUDART_LN2_X_1024), false},
      {"CUDART_LN2_X_1025", static_cast<double>(CUDART_LN2_X_1025), false},
      {"CUDART_LN2_X_1075", static_cast<double>(CUDART_LN2_X_1075), false},
      {"CUDART_LG2_X_1024", static_cast<double>(CUDART_LG2_X_1024), false},
      {"CUDART_LG2_X_1075", static_cast<double>(CUDART_LG2_X_1075), false},
      {"CUDART_TWO_TO_23", static_cast<double>(CUDART_TWO_TO_23), false},
      {"CUDART_TWO_TO_52", static_cast<double>(CUDART_TWO_TO_52), false},
      {"CUDART_TWO_TO_53", static_cast<double>(CUDART_TWO_TO_53), false},
      {"CUDART_TWO_TO_54", static_cast<double>(CUDART_TWO_TO_54), false},
      {"CUDART_TWO_TO_M54", static_cast<double>(CUDART_TWO_TO_M54), false},
      {"CUDART_TWO_TO_M1022", static_cast<double>(CUDART_TWO_TO_M1022), false},
      {"CUDART_TRIG_PLOSS", static_cast<double>(CUDART_TRIG_PLOSS), false},
      {"CUDART_DBL2INT_CVT", static_cast<double>(CUDART_DBL2INT_CVT), false},
  };
}

}  // namespace kverify::emu::oracle
