// The CUDA toolkit's own host implementations, as an oracle for the emu tests: cuda_fp16.h and
// cuda_bf16.h compiled by the host compiler, vector_types.h, math_constants.h and cudart's
// error strings, behind an interface of raw bits and plain types (the toolkit's __half and the
// emu's cannot meet in one translation unit). Built where the CUDA toolkit is found
// (KVERIFY_HAVE_CUDA_ORACLE); the tests that need it skip with that reason elsewhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kverify::emu::oracle {

enum class Format { f16, bf16 };
enum class Binary { add, sub, mul, div, max, min, max_nan, min_nan, add_sat, sub_sat, mul_sat };
enum class Compare { eq, ne, lt, le, gt, ge, equ, neu, ltu, leu, gtu, geu, op_eq, op_ne, op_lt, op_le, op_gt, op_ge };
enum class Unary { neg, abs };
enum class Integer { s8, u8, s16, u16, s32, u32, s64, u64 };

std::uint16_t from_f32(Format f, float v);
std::uint16_t from_f64(Format f, double v);
float to_f32(Format f, std::uint16_t bits);
std::uint16_t binary(Format f, Binary op, std::uint16_t a, std::uint16_t b);
bool compare(Format f, Compare op, std::uint16_t a, std::uint16_t b);
std::uint16_t unary(Format f, Unary op, std::uint16_t a);
bool is_nan(Format f, std::uint16_t a);
int is_inf(Format f, std::uint16_t a);
// __half2int_rz & co. (the conversion operators), as a long long / unsigned long long.
long long to_integer_rz(Format f, Integer type, std::uint16_t a);
// __int2half_rn & co.
std::uint16_t from_integer(Format f, Integer type, long long value);
std::uint16_t from_unsigned(Format f, unsigned long long value);

struct TypeLayout {
  std::string name;
  std::size_t size, align;
};
std::vector<TypeLayout> vector_type_layouts();

// cudart's cudaGetErrorString / cudaGetErrorName.
const char* error_string(int code);
const char* error_name(int code);

// The numeric CUDART_* constants of math_constants.h (the ones that need no device function),
// as the double value of the macro's expression.
struct Constant {
  std::string name;
  double value;
  bool is_float;
};
std::vector<Constant> math_constants();

}  // namespace kverify::emu::oracle
