// softmax's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include <cmath>
#include <random>

#include "ops/softmax/softmax.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/run_case.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::softmax {
namespace {

using namespace kverify::properties;

void padding_fills(const Context& ctx, const OpSpec& op) {
  CaseShape shape;
  shape.tails_only = true;
  for (DType d : dtypes_of(ctx)) {
    const double scale = *rc::gen::elementOf(std::vector<double>{5, 30, 300});
    // All-negative rows: a 0 fill of the max would win; const:-200 makes exp(x - 0) underflow.
    const ValueRecipe v =
        *rc::gen::elementOf(std::vector<ValueRecipe>{recipe("negative", scale), recipe("const", -200)});
    expect_pass(ctx, op, *case_of(op, d, shape, Placements::any, rc::gen::just(v)));
  }
}

// Adding the same integer to every logit changes nothing: x - max is the same exact number.
void shift_invariance(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const Case c = *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("int", 3)));
    const double shift = static_cast<double>(*rc::gen::inRange(-100, 101));  // |x + shift| < 256: exact in every dtype
    for (const Variant* v : variants_of(ctx, op)) {
      Case pinned = c;
      if (!pin(ctx, *v, pinned)) continue;
      const auto a = outputs_with(pinned, *v, keep_input);
      const auto b = outputs_with(pinned, *v, [&](std::int64_t, std::int64_t, double x) { return x + shift; });
      std::size_t bad = a.size();
      for (std::size_t i = 0; i < a.size() && bad == a.size(); ++i)
        if (!same_bits(a[i], b[i])) bad = i;
      count(ctx, *v, bad == a.size(), 0);
      if (bad != a.size())
        RC_FAIL("softmax(x + " + std::to_string(shift) + ") differs from softmax(x) at output " + std::to_string(bad) +
                ": " + std::to_string(b[bad]) + " vs " + std::to_string(a[bad]) + "\n  reproduce: ./kverify run '" +
                pinned.to_text() + "' (then shift every input)");
    }
  }
}

// Permuting a row's columns permutes its softmax (within the policy's bound on each side).
void permutation_invariance(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const Case c = *case_of(op, d, {}, Placements::contiguous, in_domain_values(op, d));
    const std::uint64_t seed = *rc::gen::inRange<std::uint64_t>(0, 1000);
    for (const Variant* v : variants_of(ctx, op)) {
      Case pinned = c;
      if (!pin(ctx, *v, pinned)) continue;
      std::vector<std::int64_t> perm(static_cast<std::size_t>(pinned.shape[1]));  // the pinned width
      for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
      std::shuffle(perm.begin(), perm.end(), std::mt19937_64(seed));
      auto images = materialize(pinned);
      const auto want = softmax_reference(images[0].view());
      const auto tolerance = tolerance_of(pinned, *v);
      const auto x = images[0].view();
      const auto a = outputs_with(pinned, *v, keep_input);
      const auto b =
          outputs_with(pinned, *v, [&](std::int64_t r, std::int64_t col, double) { return x.at(r, perm[col]); });
      const std::int64_t n = pinned.shape[1];
      for (std::int64_t r = 0; r < pinned.shape[0]; ++r)
        for (std::int64_t col = 0; col < n; ++col) {
          const Expected& e = want.at(r, perm[col]);
          const double got = b[r * n + col], base = a[r * n + perm[col]];
          const bool ok = e.kind != Expected::Kind::approx ? same_bits(got, base)
                                                           : std::fabs(got - base) <= 2 * tolerance->bound(e);
          if (!ok) {
            count(ctx, *v, false, 0);
            RC_FAIL("column permutation (std::shuffle seed " + std::to_string(seed) + ") changes the output at row " +
                    std::to_string(r) + ": " + std::to_string(got) + " vs " + std::to_string(base) +
                    "\n  reproduce: ./kverify run '" + pinned.to_text() + "'");
          }
        }
      count(ctx, *v, true, 0);
    }
  }
}

void rows_sum_to_one(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, in_domain_values(op, d));
    for (const Variant* v : variants_of(ctx, op)) {
      if (!pin(ctx, *v, c)) continue;
      const Verdict verdict = run_case(c);
      // Each element may be off by its bound, the f16/bf16 rounding included: n ulps of 1 at most.
      const double allowed = static_cast<double>(c.shape[1]) * (ulp(d, 1.0) + 0x1.0p-20);
      const bool ok = verdict.outcome == Outcome::pass && verdict.stats.max_row_sum_deviation <= allowed;
      count(ctx, *v, ok, verdict.stats.worst_margin);
      if (!ok) RC_FAIL("rows must sum to 1 within " + std::to_string(allowed) + "\n" + format(verdict));
    }
  }
}

void singleton_row_is_one(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, in_domain_values(op, d));
    c.shape[1] = 1;
    c.placement = {};
    for (const Variant* v : variants_of(ctx, op)) {
      if (!pin_as_is(ctx, *v, c)) continue;
      const auto out = outputs_with(c, *v, keep_input);
      bool ok = true;
      for (double y : out) ok = ok && y == 1.0;
      count(ctx, *v, ok, 0);
      if (!ok)
        RC_FAIL("a row of one finite value must give exactly 1\n  reproduce: ./kverify run '" + c.to_text() + "'");
    }
  }
}

void equal_logits_are_uniform(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const double value = *rc::gen::elementOf(std::vector<double>{0, 1, -7, 300, -300, d == DType::f16 ? 6e4 : 1e30});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("const", value))));
  }
}

void dominant_logit(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const double dominant = *rc::gen::elementOf(std::vector<double>{30, 100, 1e4, d == DType::f16 ? 6e4 : 1e30});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("dominant", dominant))));
  }
}

void extreme_logits(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    std::vector<ValueRecipe> extreme = {recipe("ties", 3), recipe("nearties", 1), recipe("nearties", 1000),
                                        recipe("const", 1e4), recipe("const", -1e4)};
    if (d != DType::f16) {
      extreme.push_back(recipe("extreme", 1));
      extreme.push_back(recipe("const", 1e30));
      extreme.push_back(recipe("const", -1e30));
    }
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::elementOf(extreme)));
  }
}

void out_of_domain(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("special", 1)));
    c.shape[0] = std::max<std::int64_t>(c.shape[0], 6);  // every pattern: NaN, +inf, all -inf, some -inf, masked
    c.placement = {};
    expect_pass(ctx, op, c);
  }
}

// [0, 0, log 2, 0, 0] -> [1/6, 1/6, 1/3, 1/6, 1/6] (the seed article's example).
void seed_example(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    Case c = parse_case("op=softmax shape=3x5 dtype=" + std::string(name(d)));
    const double want[] = {1.0 / 6, 1.0 / 6, 1.0 / 3, 1.0 / 6, 1.0 / 6};
    for (const Variant* v : variants_of(ctx, op)) {
      if (!pin_as_is(ctx, *v, c)) continue;
      const auto out =
          outputs_with(c, *v, [](std::int64_t, std::int64_t col, double) { return col == 2 ? std::log(2.0) : 0.0; });
      // log 2 is stored rounded: 1/3 and 1/6 hold to that rounding plus the output's.
      const double allowed = 2 * ulp(d, 1.0 / 3) + 4 * ulp(d, std::log(2.0)) / 3;
      bool ok = true;
      for (std::size_t i = 0; i < out.size(); ++i) ok = ok && std::fabs(out[i] - want[i % 5]) <= allowed;
      count(ctx, *v, ok, 0);
      if (!ok)
        RC_FAIL("[0, 0, log 2, 0, 0] must give [1/6, 1/6, 1/3, 1/6, 1/6] (" + std::string(v->name) + ", " +
                std::string(name(d)) + ")");
    }
  }
}

constexpr OpProperty kProperties[] = {
    {"padding_fills", "all-negative rows (a 0 fill of the max would win) at tail widths", &padding_fills},
    {"shift_invariance", "softmax(x + c) has the same bits as softmax(x) for exact shifts", &shift_invariance},
    {"permutation_invariance", "permuting a row's columns permutes its softmax", &permutation_invariance},
    {"rows_sum_to_one", "every finite row sums to 1 within n output ulps", &rows_sum_to_one},
    {"singleton_row_is_one", "a row of one finite value gives exactly 1", &singleton_row_is_one},
    {"equal_logits_are_uniform", "equal logits (0, 300, -300, 1e30) give 1/n", &equal_logits_are_uniform},
    {"dominant_logit", "one logit far above the rest concentrates without NaN", &dominant_logit},
    {"extreme_logits", "ties, near-ties, large equal and mixed +-1e30 logits", &extreme_logits},
    {"out_of_domain", "NaN, +inf and all -inf rows are NaN; -inf among finite is 0", &out_of_domain},
    {"seed_example", "[0, 0, log 2, 0, 0] gives [1/6, 1/6, 1/3, 1/6, 1/6]", &seed_example},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::softmax
