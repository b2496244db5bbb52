// row_sum's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include "ops/row_sum/row_sum.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::row_sum {
namespace {

using namespace kverify::properties;

void integer_rows_exact(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const double k = *rc::gen::elementOf(std::vector<double>{1, 3, 100});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("int", k))));
  }
}

void padding_fills(const Context& ctx, const OpSpec& op) {
  CaseShape shape;
  shape.tails_only = true;
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op,
                *case_of(op, d, shape, Placements::any,
                         rc::gen::elementOf(std::vector<ValueRecipe>{recipe("const", 1), recipe("negative", 2)})));
}

void seed_example(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, parse_case("op=row_sum shape=1x10 values=ramp dtype=" + std::string(name(d))));
}

constexpr OpProperty kProperties[] = {
    {"integer_rows_exact", "integer rows are summed bit-exactly", &integer_rows_exact},
    {"padding_fills", "tail widths with constant and negative rows (a non-zero fill shows)", &padding_fills},
    {"seed_example", "[1..10] sums to exactly 55", &seed_example},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::row_sum
