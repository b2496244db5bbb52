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
    {"heavy", 1.0, "heavy:S   - heavy-tailed: Cauchy with scale S, clipped to +-1e30 (the in-domain limit)"},
    {"ties", 4.0, "ties:K    - integers 0 .. K-1: many exactly equal values (ties for max)"},
    {"nearties", 1.0, "nearties:S - S * (1 + k * 2^-22), k in -4..4: values a few f32 ulps apart"},
    {"extreme", 1.0, "extreme:S - mixed signs near +-1e30 * S (|values| up to 1e30 * S)"},
    {"dominant", 30.0, "dominant:D - normal:1 with one value per row raised to D (a dominant logit)"},
    {"subnormal", -140.0, "subnormal:E - m * 2^E, m uniform in (-1, 1): subnormal for E near the dtype's minimum"},
    {"zeros", 0.0, "zeros     - +0 and -0 mixed"},
    {"halves", 1.0,
     "halves:S  - along the reduction index: +S.. in the first half, -1.5S.. in the second "
     "(partial sums change sign); matmul's B is positive"},
    {"special", 1.0,
     "special:S - rows cycle through out-of-domain patterns: one NaN, one +inf, all -inf, "
     "every third -inf; other values normal:S"},
};

const RecipeInfo* find_recipe(std::string_view name);

// The value of element (row, col) of tensor number `tensor` (of `cols` logical columns) for this
// recipe and seed.
double recipe_value(const ValueRecipe& recipe, std::uint64_t seed, int tensor, std::int64_t row, std::int64_t col,
                    std::int64_t cols = 1);

}  // namespace kverify
