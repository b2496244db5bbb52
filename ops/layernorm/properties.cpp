// layernorm's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include <cmath>

#include "ops/layernorm/layernorm.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::layernorm {
namespace {

using namespace kverify::properties;

// Scaling a row by 2^k scales its mean and deviations by 2^k, its variance by 4^k and its rstd by
// 2^-k, and leaves y as it was, bit for bit, while eps is negligible (rows of at least 32 normal:1
// values have a variance far above 2^24 eps for eps = 1e-12). property_kit.hpp:
// expect_power_of_two_scaling.
void scale_invariance(const Context& ctx, const OpSpec& op) {
  constexpr int kPowers[] = {0, 1, -1};  // y, mean, rstd
  expect_power_of_two_scaling(ctx, op, kPowers, 1e-12);
}

// Rows whose values all equal v: the mean is v, the variance 0, rstd 1/sqrt(eps) and y = b. Every
// width and dtype, with eps at the contract's edges: a one-pass E[x^2] - E[x]^2 kernel leaves a
// variance of rounding noise there (for v = 1e-3 its sum of squares is not exact), and with
// eps = 1e-12 that noise dominates rstd.
void constant_rows(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const double v = *rc::gen::elementOf(std::vector<double>{-3, 0.5, 7, 1e-3, 300});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("const", v))));
  }
}

constexpr OpProperty kProperties[] = {
    {"scale_invariance", "x * 2^k gives the same y bit for bit, mean * 2^k and rstd / 2^k (eps negligible)",
     &scale_invariance},
    {"constant_rows", "rows of one repeated value, every width (mean v, y = b)", &constant_rows},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::layernorm
