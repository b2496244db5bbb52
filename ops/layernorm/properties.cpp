// layernorm's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include <cmath>

#include "ops/layernorm/layernorm.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::layernorm {
namespace {

using namespace kverify::properties;

// Scaling a row by 2^k scales its mean by 2^k, its deviations by 2^k and its variance by 4^k with
// no rounding changed (binary floating point), its rstd by 2^-k, and leaves y as it was: bit for
// bit, for a kernel that computes what the contract says. It holds while eps is negligible: rows
// of at least 32 normal:1 values have a variance far above 2^24 eps for eps = 1e-12. k >= 1 keeps
// f16 inputs away from subnormals; |x| 2^4 stays far below f16's 65504. A kernel whose eps is
// misplaced, or that rescales, clamps or offsets by an absolute amount, breaks it.
void scale_invariance(const Context& ctx, const OpSpec& op) {
  CaseShape shape;
  shape.min_width = 32;
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, shape, Placements::any, rc::gen::just(recipe("normal", 1)));
    c.params[0] = 1e-12;
    const int k = *rc::gen::inRange(1, 5);
    const double scale = std::ldexp(1.0, k);
    for (const Variant* v : variants_of(ctx, op)) {
      Case pinned = c;
      if (!pin(ctx, *v, pinned)) continue;
      const auto a = outputs_with(pinned, *v, keep_input);
      const auto b = outputs_with(pinned, *v, [&](std::int64_t, std::int64_t, double x) { return x * scale; });
      const std::size_t ys = static_cast<std::size_t>(pinned.shape[0] * pinned.shape[1]);
      const std::size_t means = ys + static_cast<std::size_t>(pinned.shape[0]);
      const auto expected = [&](std::size_t i) { return i < ys ? a[i] : i < means ? a[i] * scale : a[i] / scale; };
      std::size_t bad = a.size();
      for (std::size_t i = 0; i < a.size() && bad == a.size(); ++i)
        if (!same_bits(expected(i), b[i])) bad = i;
      count(ctx, *v, bad == a.size(), 0);
      if (bad != a.size()) {
        const char* what = bad < ys ? "y" : bad < means ? "mean" : "rstd";
        const std::size_t at = bad < ys ? bad : bad < means ? bad - ys : bad - means;
        RC_FAIL(std::string(what) + " of x * 2^" + std::to_string(k) + " is " + std::to_string(b[bad]) + " where " +
                std::to_string(expected(bad)) + " was expected (x gives " + std::to_string(a[bad]) +
                ") at output element " + std::to_string(at) + "\n  reproduce: ./kverify run '" + pinned.to_text() +
                "' (then scale every input by 2^" + std::to_string(k) + ")");
      }
    }
  }
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
