#include "core/values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

namespace kverify {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in (0, 1), never 0 (Box-Muller takes its log).
double unit(std::uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53; }

}  // namespace

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
  std::string accepted = d.whole ? "a whole number" : "a number";
  if (d.max >= 1e300)
    accepted += " >= " + bound(d.min);
  else
    accepted += " in " + bound(d.min) + ".." + bound(d.max);
  const std::string form(recipe.meaning.substr(0, recipe.meaning.find(' ')));  // "ties:K"
  return form + ": " + form.substr(form.find(':') + 1) + " must be " + accepted;
}

double recipe_value(const ValueRecipe& recipe, std::uint64_t seed, int tensor, std::int64_t row, std::int64_t col,
                    std::int64_t cols) {
  const std::uint64_t key =
      splitmix64(splitmix64(splitmix64(seed) ^ static_cast<std::uint64_t>(tensor)) ^ static_cast<std::uint64_t>(row)) ^
      static_cast<std::uint64_t>(col) * 0xd1342543de82ef95ull;
  const std::uint64_t a = splitmix64(key);
  const std::uint64_t b = splitmix64(a);
  const double p = recipe.param;
  const auto normal = [&] { return std::sqrt(-2.0 * std::log(unit(a))) * std::cos(2.0 * std::numbers::pi * unit(b)); };
  if (recipe.name == "normal") return p * normal();
  if (recipe.name == "uniform") return p * (2.0 * unit(a) - 1.0);
  if (recipe.name == "int") {
    const auto k = static_cast<std::uint64_t>(p);
    return static_cast<double>(static_cast<std::int64_t>(a % (2 * k + 1)) - static_cast<std::int64_t>(k));
  }
  if (recipe.name == "const") return p;
  if (recipe.name == "negative") return -std::fabs(normal()) * p - 1.0;
  if (recipe.name == "ramp") return static_cast<double>(col + 1) * p;
  if (recipe.name == "heavy") return std::clamp(p * std::tan(std::numbers::pi * (unit(a) - 0.5)), -1e30, 1e30);
  // Parameters are clamped before they become integers: a double out of the integer's range (the
  // parser accepts any finite P) is undefined behaviour (found by the fuzz targets under UBSan).
  if (recipe.name == "ties") return static_cast<double>(a % static_cast<std::uint64_t>(std::clamp(p, 1.0, 0x1p62)));
  if (recipe.name == "nearties") return p * (1.0 + static_cast<double>(static_cast<int>(a % 9) - 4) * 0x1.0p-22);
  if (recipe.name == "extreme") return (a & 1 ? 1.0 : -1.0) * 1e30 * p * (1.0 - 1e-3 * unit(b));
  if (recipe.name == "dominant") {
    const std::int64_t at = static_cast<std::int64_t>(splitmix64(seed ^ static_cast<std::uint64_t>(row) * 31) %
                                                      static_cast<std::uint64_t>(std::max<std::int64_t>(cols, 1)));
    return col == at ? p : normal();
  }
  if (recipe.name == "subnormal")
    return std::ldexp(2.0 * unit(a) - 1.0, static_cast<int>(std::clamp(p, -4096.0, 4096.0)));
  if (recipe.name == "zeros") return a & 1 ? 0.0 : -0.0;
  if (recipe.name == "halves") {
    // The reduction index is the column for A and x, the row for B.
    const double magnitude = p * (1.0 + 0.25 * unit(a));
    if (tensor == 1) return magnitude;
    return col < cols / 2 || cols == 1 ? magnitude : -1.5 * magnitude;
  }
  if (recipe.name == "special") {
    const double inf = std::numeric_limits<double>::infinity();
    switch (row % 4) {
      case 0:
        return col == (row / 4) % 7 ? std::numeric_limits<double>::quiet_NaN() : p * normal();
      case 1:
        return col == (row / 4) % 5 ? inf : p * normal();
      case 2:
        return -inf;
      default:
        return col % 3 == 1 ? -inf : p * normal();
    }
  }
  return std::nan("");
}

}  // namespace kverify
