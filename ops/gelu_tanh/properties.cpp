// gelu_tanh's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include <cmath>

#include "ops/gelu_tanh/gelu_tanh.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::gelu_tanh {
namespace {

using namespace kverify::properties;

void values_case(const Context& ctx, const OpSpec& op, const std::vector<double>& values) {
  for (DType d : dtypes_of(ctx)) {
    double value = *rc::gen::elementOf(values);
    if (std::fabs(value) > info(d).max_finite) value = std::copysign(info(d).max_finite, value);
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("const", value))));
  }
}

void stable_at_eleven(const Context& ctx, const OpSpec& op) { values_case(ctx, op, {11, -11, 10.5, 12, 20, -20}); }
void up_to_dtype_max(const Context& ctx, const OpSpec& op) {
  values_case(ctx, op, {65504, -65504, 1e30, -1e30, 3.4e38, -3.4e38});
}
void signed_zeros(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("zeros", 0))));
}

// GELU(x) = x exactly once x is large (sigmoid(2u) rounds to 1 in f32 from x = 16 on).
void large_x_is_x(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("uniform", 1)));
    const double base = *rc::gen::elementOf(std::vector<double>{16, 100, 1e4, 6e4});
    for (const Variant* v : variants_of(ctx, op)) {
      if (!pin(ctx, *v, c)) continue;
      std::vector<double> stored;
      const auto out = outputs_with(c, *v, [&](std::int64_t, std::int64_t, double x) {
        const double value = round_to(d, base * (1.5 + x));  // in [0.5, 2.5] x base
        stored.push_back(value);
        return value;
      });
      bool ok = true;
      for (std::size_t i = 0; i < out.size(); ++i) ok = ok && out[i] == stored[i];
      count(ctx, *v, ok, 0);
      if (!ok) RC_FAIL("GELU(x) must be x for x >= 16\n  reproduce: ./kverify run '" + c.to_text() + "'");
    }
  }
}

constexpr OpProperty kProperties[] = {
    {"stable_at_eleven", "x = +-11 and neighbours are finite and right", &stable_at_eleven},
    {"up_to_dtype_max", "x up to the dtype's largest finite value", &up_to_dtype_max},
    {"signed_zeros", "+0 -> +0 and -0 -> -0", &signed_zeros},
    {"large_x_is_x", "GELU(x) is exactly x for x >= 16", &large_x_is_x},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::gelu_tanh
