// scale's own property (the generic ones every op has are properties/catalogue.cpp's).
#include "ops/scale/scale.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::scale {
namespace {

using namespace kverify::properties;

// Powers of two double to the next one, whatever the dtype.
void powers_of_two(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const double p = *rc::gen::elementOf(std::vector<double>{0.25, 1, 8, 1024});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("const", p))));
  }
}

constexpr OpProperty kProperties[] = {
    {"powers_of_two", "a power of two doubles exactly", &powers_of_two},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::scale
