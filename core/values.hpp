// Value recipes: how a Case's input values are made. Values are drawn in f64 from a counter-based
// generator keyed by (seed, tensor, logical row, logical column), so the same Case gives the same
// logical values whatever the strides, and then rounded once to the storage dtype: the stored
// values are the truth the reference reads.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include "core/recipe_math.hpp"

namespace kverify {

struct ValueRecipe {
  std::string name = "normal";
  double param = 1.0;  // the recipe's parameter (see kRecipes)
  bool param_given = false;

  friend bool operator==(const ValueRecipe&, const ValueRecipe&) = default;
};

// What a recipe's parameter may be: none at all, or a number in [min, max] (whole if `whole`).
struct ParamDomain {
  bool takes_param = true;
  double min = -1e300, max = 1e300;
  bool whole = false;
};
inline constexpr ParamDomain kAnyNumber{}, kScale{true, 0, 1e300, false}, kNoParam{false, 0, 0, false};

struct RecipeInfo {
  std::string_view name;
  double default_param;
  std::string_view meaning;
  ParamDomain domain = kAnyNumber;
};

inline constexpr RecipeInfo kRecipes[] = {
    {"normal", 1.0, "normal:S  - normal with mean 0 and standard deviation S >= 0 (default 1)", kScale},
    {"uniform", 1.0, "uniform:A - uniform in [-A, A], A >= 0 (default 1)", kScale},
    {"int",
     3.0,
     "int:K     - integers uniform in [-K, K], K whole in 0..1e15 (default 3): exact sums in f32",
     {true, 0, 1e15, true}},
    {"const", 0.0, "const:V   - every element equal to V (default 0); const:-200 catches a max padded with 0"},
    {"negative", 1.0, "negative:S - -(|normal| * S) - 1, S >= 0: every value below -1 (a row's max is negative)",
     kScale},
    {"ramp", 1.0, "ramp:S    - (column + 1) * S: a row of 1, 2, 3, ... (the seed's [1..10] sums to 55)"},
    {"heavy", 1.0, "heavy:S   - heavy-tailed: Cauchy with scale S >= 0, clipped to +-1e30 (the in-domain limit)",
     kScale},
    {"ties",
     4.0,
     "ties:K    - integers 0 .. K-1, K whole in 1..2^62: many exactly equal values (ties for max)",
     {true, 1, 0x1p62, true}},
    {"nearties", 1.0, "nearties:S - S * (1 + k * 2^-22), k in -4..4: values a few f32 ulps apart"},
    {"extreme",
     1.0,
     "extreme:S - mixed signs near +-1e30 * S, S in 0..1e278 (|values| up to 1e30 * S)",
     {true, 0, 1e278, false}},
    {"dominant", 30.0, "dominant:D - normal:1 with one value per row raised to D (a dominant logit)"},
    {"subnormal",
     -140.0,
     "subnormal:E - m * 2^E, m uniform in (-1, 1), E whole in -1100..1100: subnormal for E near the dtype's minimum",
     {true, -1100, 1100, true}},
    {"zeros", 0.0, "zeros     - +0 and -0 mixed (no parameter)", kNoParam},
    {"halves", 1.0,
     "halves:S  - along the reduction index: +S.. in the first half, -1.5S.. in the second, S >= 0 "
     "(partial sums change sign); matmul's B is positive",
     kScale},
    {"special", 1.0,
     "special:S - rows cycle through out-of-domain and masked patterns: one NaN, one +inf, all -inf, "
     "every third -inf, -inf after the first 1-3 columns, -inf before the last 1-3; other values normal:S, S >= 0",
     kScale},
};

// recipe_math::Kind names the recipes in this table's order.
constexpr bool recipe_kinds_follow_the_table() {
  using K = recipe_math::Kind;
  const std::pair<K, std::string_view> kinds[] = {
      {K::normal, "normal"},     {K::uniform, "uniform"}, {K::integer, "int"},       {K::constant, "const"},
      {K::negative, "negative"}, {K::ramp, "ramp"},       {K::heavy, "heavy"},       {K::ties, "ties"},
      {K::nearties, "nearties"}, {K::extreme, "extreme"}, {K::dominant, "dominant"}, {K::subnormal, "subnormal"},
      {K::zeros, "zeros"},       {K::halves, "halves"},   {K::special, "special"}};
  if (std::size(kinds) != std::size(kRecipes) || static_cast<std::size_t>(K::index) != std::size(kRecipes))
    return false;
  for (const auto& [kind, name] : kinds)
    if (kRecipes[static_cast<std::size_t>(kind)].name != name) return false;
  return true;
}
static_assert(recipe_kinds_follow_the_table(), "recipe_math::Kind and kRecipes list the recipes in one order");

// Why `param` is not a parameter `recipe` takes, with what it accepts; empty when it is.
std::string recipe_param_problem(const RecipeInfo& recipe, double param);

const RecipeInfo* find_recipe(std::string_view name);

// The recipe's Kind (throws std::invalid_argument for a name kRecipes does not have).
recipe_math::Kind recipe_kind(std::string_view name);

// The value of element (row, col) of tensor number `tensor` (of `cols` logical columns) for this
// recipe and seed: recipe_math::value, the arithmetic the device draws with too.
double recipe_value(const ValueRecipe& recipe, std::uint64_t seed, int tensor, std::int64_t row, std::int64_t col,
                    std::int64_t cols = 1);

}  // namespace kverify
