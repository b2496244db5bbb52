// rmsnorm's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include <cmath>

#include "ops/rmsnorm/rmsnorm.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::rmsnorm {
namespace {

using namespace kverify::properties;

// Scaling a row by 2^k scales its squares by 4^k exactly (no rounding changes in binary floating
// point), its rstd by 2^-k, and leaves y as it was: bit for bit, for a kernel that computes what
// the contract says. It holds while eps is negligible: rows of at least 32 normal:1 values have a
// mean square far above 2^24 eps for eps = 1e-12. k >= 1 keeps f16 inputs away from subnormals;
// |x| 2^4 stays far below f16's 65504. A kernel whose eps is misplaced, or that rescales or
// clamps by an absolute amount, breaks it.
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
      std::size_t bad = a.size();
      for (std::size_t i = 0; i < a.size() && bad == a.size(); ++i)
        if (!same_bits(i < ys ? a[i] : a[i] / scale, b[i])) bad = i;
      count(ctx, *v, bad == a.size(), 0);
      if (bad != a.size())
        RC_FAIL(std::string(bad < ys ? "y" : "rstd") + " of x * 2^" + std::to_string(k) + " is " +
                std::to_string(b[bad]) + " where x gives " + std::to_string(a[bad]) +
                (bad < ys ? "" : " (/ 2^" + std::to_string(k) + " expected)") + " at output element " +
                std::to_string(bad < ys ? bad : bad - ys) + "\n  reproduce: ./kverify run '" + pinned.to_text() +
                "' (then scale every input by 2^" + std::to_string(k) + ")");
    }
  }
}

// Rows whose values are all equal to v have mean square v^2: rstd is 1/sqrt(v^2 + eps) and y is
// w times v/|v| up to eps. Every width, every dtype, with the eps values the contract's edges hold.
void constant_rows(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const double v = *rc::gen::elementOf(std::vector<double>{-3, 0.5, 7, 1e-3});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("const", v))));
  }
}

constexpr OpProperty kProperties[] = {
    {"scale_invariance", "x * 2^k gives the same y bit for bit and rstd / 2^k (eps negligible)", &scale_invariance},
    {"constant_rows", "rows of one repeated value, every width (y = w * sign(v))", &constant_rows},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::rmsnorm
