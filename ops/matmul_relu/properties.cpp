// matmul_relu's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include "ops/matmul_relu/matmul_relu.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::matmul_relu {
namespace {

using namespace kverify::properties;

void integer_exact(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("int", 2))));
}

void relu_after_full_k(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op,
                *case_of(op, d, {}, Placements::any,
                         rc::gen::elementOf(std::vector<ValueRecipe>{recipe("halves", 1), recipe("normal", 1)})));
}

constexpr OpProperty kProperties[] = {
    {"integer_exact", "integer inputs give bit-exact products", &integer_exact},
    {"relu_after_full_k", "partial sums that change sign: the ReLU applies to the full K sum only", &relu_after_full_k},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::matmul_relu
