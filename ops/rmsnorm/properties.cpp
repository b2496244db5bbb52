// rmsnorm's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include <cmath>

#include "ops/rmsnorm/rmsnorm.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::rmsnorm {
namespace {

using namespace kverify::properties;

// Scaling a row by 2^k scales its squares by 4^k exactly and its rstd by 2^-k, and leaves y as it
// was, bit for bit, while eps is negligible (rows of at least 32 normal:1 values have a mean square
// far above 2^24 eps for eps = 1e-12). property_kit.hpp: expect_power_of_two_scaling.
void scale_invariance(const Context& ctx, const OpSpec& op) {
  constexpr int kPowers[] = {0, -1};  // y, rstd
  expect_power_of_two_scaling(ctx, op, kPowers, 1e-12);
}

// Rows whose values are all equal to v have mean square v^2: rstd is 1/sqrt(v^2 + eps) and y is
// w times v/|v| up to eps. Every width, every dtype, with the eps values the contract's edges hold.
void constant_rows(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const double v = *rc::gen::elementOf(std::vector<double>{-3, 0.5, 7, 1e-3});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("const", v))));
  }
}

constexpr OpProperty kProperties[] = {
    {"scale_invariance", "x * 2^k gives the same y bit for bit and rstd / 2^k (eps negligible)", &scale_invariance},
    {"constant_rows", "rows of one repeated value, every width (y = w * sign(v))", &constant_rows},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::rmsnorm
