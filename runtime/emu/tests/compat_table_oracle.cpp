// The toolkit rows of the compatibility table (compat_rows.hpp), computed with the CUDA toolkit's
// own host functions (cuda_oracle.hpp): what the committed compat_table.expected holds for them.
// Prints the rows it can compute, in the table's format; the others only the GPU can give.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "compat_rows.hpp"
#include "cuda_oracle.hpp"

namespace {

namespace o = kverify::emu::oracle;
using compat::Op;

std::uint32_t float_bits(float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
}
float bits_float(std::uint64_t v) {
  const auto u = static_cast<std::uint32_t>(v);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double bits_double(std::uint64_t v) {
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}

bool compute(const compat::Row& r, unsigned long long& out) {
  const auto a = static_cast<std::uint16_t>(r.a), b = static_cast<std::uint16_t>(r.b);
  const auto F = o::Format::f16, B = o::Format::bf16;
  switch (r.op) {
    case Op::f32_to_f16:
      out = o::from_f32(F, bits_float(r.a));
      return true;
    case Op::f16_to_f32:
      out = float_bits(o::to_f32(F, a));
      return true;
    case Op::f32_to_bf16:
      out = o::from_f32(B, bits_float(r.a));
      return true;
    case Op::bf16_to_f32:
      out = float_bits(o::to_f32(B, a));
      return true;
    case Op::f64_to_f16:
      out = o::from_f64(F, bits_double(r.a));
      return true;
    case Op::f64_to_bf16:
      out = o::from_f64(B, bits_double(r.a));
      return true;
    case Op::hadd:
      out = o::binary(F, o::Binary::add, a, b);
      return true;
    case Op::hsub:
      out = o::binary(F, o::Binary::sub, a, b);
      return true;
    case Op::hmul:
      out = o::binary(F, o::Binary::mul, a, b);
      return true;
    case Op::hdiv:
      out = o::binary(F, o::Binary::div, a, b);
      return true;
    case Op::hadd_bf:
      out = o::binary(B, o::Binary::add, a, b);
      return true;
    case Op::hsub_bf:
      out = o::binary(B, o::Binary::sub, a, b);
      return true;
    case Op::hmul_bf:
      out = o::binary(B, o::Binary::mul, a, b);
      return true;
    case Op::hdiv_bf:
      out = o::binary(B, o::Binary::div, a, b);
      return true;
    case Op::hmax:
      out = o::binary(F, o::Binary::max, a, b);
      return true;
    case Op::hmin:
      out = o::binary(F, o::Binary::min, a, b);
      return true;
    case Op::hmax_nan:
      out = o::binary(F, o::Binary::max_nan, a, b);
      return true;
    case Op::hmin_nan:
      out = o::binary(F, o::Binary::min_nan, a, b);
      return true;
    case Op::hmax_bf:
      out = o::binary(B, o::Binary::max, a, b);
      return true;
    case Op::hmin_bf:
      out = o::binary(B, o::Binary::min, a, b);
      return true;
    case Op::hmax_nan_bf:
      out = o::binary(B, o::Binary::max_nan, a, b);
      return true;
    case Op::hmin_nan_bf:
      out = o::binary(B, o::Binary::min_nan, a, b);
      return true;
    case Op::hneg:
      out = o::unary(F, o::Unary::neg, a);
      return true;
    case Op::habs:
      out = o::unary(F, o::Unary::abs, a);
      return true;
    case Op::hneg_bf:
      out = o::unary(B, o::Unary::neg, a);
      return true;
    case Op::habs_bf:
      out = o::unary(B, o::Unary::abs, a);
      return true;
    case Op::heq:
      out = o::compare(F, o::Compare::eq, a, b);
      return true;
    case Op::hne:
      out = o::compare(F, o::Compare::ne, a, b);
      return true;
    case Op::hlt:
      out = o::compare(F, o::Compare::lt, a, b);
      return true;
    case Op::hge:
      out = o::compare(F, o::Compare::ge, a, b);
      return true;
    case Op::hneu:
      out = o::compare(F, o::Compare::neu, a, b);
      return true;
    case Op::heq_bf:
      out = o::compare(B, o::Compare::eq, a, b);
      return true;
    case Op::hlt_bf:
      out = o::compare(B, o::Compare::lt, a, b);
      return true;
    case Op::hisnan:
      out = o::is_nan(F, a);
      return true;
    case Op::hisinf:
      out = static_cast<std::uint32_t>(o::is_inf(F, a));
      return true;
    case Op::h2int_rz:
      out = static_cast<std::uint32_t>(o::to_integer_rz(F, o::Integer::s32, a));
      return true;
    case Op::h2ll_rz:
      out = static_cast<unsigned long long>(o::to_integer_rz(F, o::Integer::s64, a));
      return true;
    case Op::bf2int_rz:
      out = static_cast<std::uint32_t>(o::to_integer_rz(B, o::Integer::s32, a));
      return true;
    case Op::int2h_rn:
      out = o::from_integer(F, o::Integer::s32, static_cast<int>(r.a));
      return true;
    case Op::ll2bf_rn:
      out = o::from_integer(B, o::Integer::s64, static_cast<long long>(r.a));
      return true;
    default:
      return false;
  }
}

}  // namespace

int main() {
  for (const compat::Row& r : compat::kRows) {
    if (r.source != compat::Source::toolkit) continue;
    unsigned long long out = 0;
    if (!compute(r, out)) {
      std::fprintf(stderr, "compat_table_oracle: %s is marked toolkit but has no toolkit host function here\n", r.name);
      return 1;
    }
    std::printf("%s(", r.name);
    const unsigned long long args[] = {r.a, r.b, r.c};
    for (int k = 0; k < r.arity; ++k) std::printf("%s0x%llx", k ? ", " : "", args[k]);
    std::printf(") = 0x%llx [toolkit]\n", out);
  }
  return 0;
}
