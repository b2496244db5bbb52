#include "core/values.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace kverify {

const RecipeInfo* find_recipe(std::string_view name) {
  for (const auto& r : kRecipes)
    if (r.name == name) return &r;
  return nullptr;
}

std::string recipe_param_problem(const RecipeInfo& recipe, double param) {
  const ParamDomain& d = recipe.domain;
  const std::string name(recipe.name);
  if (!d.takes_param) return name + " takes no parameter (accepted: values=" + name + ")";
  if (param >= d.min && param <= d.max && (!d.whole || param == std::floor(param))) return "";
  const auto bound = [](double b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", b);
    return std::string(buf);
  };
  const std::string accepted =
      (d.whole ? "a whole number" : "a number") + std::string(" in ") + bound(d.min) + ".." + bound(d.max);
  const std::string form(recipe.meaning.substr(0, recipe.meaning.find(' ')));  // "ties:K"
  return form + ": " + form.substr(form.find(':') + 1) + " must be " + accepted;
}

recipe_math::Kind recipe_kind(std::string_view name) {
  const RecipeInfo* r = find_recipe(name);
  if (!r) throw std::invalid_argument("unknown value recipe '" + std::string(name) + "'");
  return static_cast<recipe_math::Kind>(r - kRecipes);
}

double recipe_value(const ValueRecipe& recipe, std::uint64_t seed, int tensor, std::int64_t row, std::int64_t col,
                    std::int64_t cols) {
  return recipe_math::value({recipe_kind(recipe.name), recipe.param, seed, tensor, row, col, cols});
}

}  // namespace kverify
