// Value recipes: how a Case's input values are made. Values are drawn in f64 from a counter-based
// generator keyed by (seed, tensor, logical row, logical column), so the same Case gives the same
// logical values whatever the strides, and then rounded once to the storage dtype: the stored
// values are the truth the reference reads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kverify {

struct ValueRecipe {
  std::string name = "normal";
  double param = 1.0;  // the recipe's parameter (see kRecipes)
  bool param_given = false;

  friend bool operator==(const ValueRecipe&, const ValueRecipe&) = default;
};

struct RecipeInfo {
  std::string_view name;
  double default_param;
  std::string_view meaning;
};

inline constexpr RecipeInfo kRecipes[] = {
    {"normal", 1.0, "normal:S  - normal with mean 0 and standard deviation S (default 1)"},
    {"uniform", 1.0, "uniform:A - uniform in [-A, A] (default 1)"},
    {"int", 3.0, "int:K     - integers uniform in [-K, K] (default 3): exact sums in f32"},
    {"const", 0.0, "const:V   - every element equal to V (default 0)"},
    {"negative", 1.0, "negative:S - -(|normal| * S) - 1: every value negative (catches 0 padding of a max)"},
    {"ramp", 1.0, "ramp:S    - (column + 1) * S: a row of 1, 2, 3, ... (the seed's [1..10] sums to 55)"},
    {"special", 1.0, "special:S - rows cycle through out-of-domain patterns: one NaN, one +inf, all -inf, "
                     "every third -inf; other values normal:S"},
};

const RecipeInfo* find_recipe(std::string_view name);

// The value of element (row, col) of tensor number `tensor` for this recipe and seed.
double recipe_value(const ValueRecipe& recipe, std::uint64_t seed, int tensor, std::int64_t row, std::int64_t col);

}  // namespace kverify
