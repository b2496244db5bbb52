#include "properties/property_kit.hpp"

#include <cmath>

#include "pipeline/case_trace.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/run_case.hpp"

namespace kverify::properties {

std::vector<DType> dtypes_of(const Context& ctx) {
  if (ctx.dtype) return {*ctx.dtype};
  return {DType::f32, DType::f16, DType::bf16};
}

std::vector<const Variant*> variants_of(const Context& ctx, const OpSpec& op) {
  std::vector<const Variant*> out;
  for (const auto& v : all_variants())
    if (v.op == op.name && !v.mutant && (!ctx.variant || *ctx.variant == v.name)) out.push_back(&v);
  if (ctx.variant)  // a mutant, asked for by name (the mutation self-test)
    for (const auto& v : all_variants())
      if (v.op == op.name && v.mutant && *ctx.variant == v.name) out.push_back(&v);
  return out;
}

namespace {
Context::Tally* tally_of(const Context& ctx, const Variant& v) {
  return ctx.tally ? &(*ctx.tally)[std::string(v.name)] : nullptr;
}
}  // namespace

bool pin(const Context& ctx, const Variant& v, Case& c) {
  c.variant = std::string(v.name);
  c.run_on(ctx.backend);
  const Case drawn = c;
  const bool fits = fit_into(domain_of(v), c);
  if (auto* t = tally_of(ctx, v)) {
    ++t->pinned;
    t->moved += fits && !(c == drawn);
    t->outside += !fits;
  }
  return fits && !unsupported(v, c, ctx.backend);
}

bool pin_as_is(const Context& ctx, const Variant& v, Case& c) {
  c.variant = std::string(v.name);
  c.run_on(ctx.backend);
  const bool takes = !unsupported(v, c, ctx.backend);
  if (auto* t = tally_of(ctx, v)) {
    ++t->pinned;
    t->outside += !takes;
  }
  return takes;
}

void count(const Context& ctx, const Variant& v, bool passed, double margin) {
  Context::Tally* t = tally_of(ctx, v);
  if (!t) return;
  ++t->cases;
  t->passed += passed;
  t->worst_margin = std::max(t->worst_margin, margin);
}

void count(const Context& ctx, const Variant& v, bool passed, const Verdict& verdict) {
  count(ctx, v, passed, verdict.stats.worst_margin);
  Context::Tally* t = tally_of(ctx, v);
  if (!t || !passed || verdict.outcome != Outcome::pass || verdict.accuracy_note.empty()) return;
  if (t->noted++ == 0) {
    t->first_note = verdict.subject + ": " + verdict.accuracy_note;
    t->first_note_case = verdict.reproduce;
  }
}

void expect_pass(const Context& ctx, const OpSpec& op, Case c) {
  for (const Variant* v : variants_of(ctx, op)) {
    if (!pin(ctx, *v, c)) continue;
    const Verdict verdict = run_case(c);
    if (verdict.outcome == Outcome::skipped) RC_FAIL("not run: " + verdict.reason);
    count(ctx, *v, verdict.outcome == Outcome::pass, verdict);
    if (verdict.outcome != Outcome::pass) RC_FAIL(format(verdict));
  }
}

void expect_no_guard(const Context& ctx, const OpSpec& op, Case c, std::string_view guard) {
  for (const Variant* v : variants_of(ctx, op)) {
    if (!pin(ctx, *v, c)) continue;
    const Verdict verdict = run_case(c);
    if (verdict.outcome == Outcome::skipped) RC_FAIL("not run: " + verdict.reason);
    // A launch that failed (or raced, or went out of bounds) checked no guard: it fails the
    // property, never holds it.
    bool held = true;
    for (const auto& g : verdict.guards)
      held =
          held && g.guard != guard && g.guard != "launch" && g.guard != "race" && !g.guard.starts_with("out-of-bounds");
    count(ctx, *v, held, verdict);
    if (!held) RC_FAIL(format(verdict));
  }
}

std::vector<double> outputs_with(const Case& c, const Variant& v, const InputEdit& edit) {
  trace_case(c);  // names the Case for `kverify check`'s fault isolation (pipeline/case_trace.hpp)
  std::vector<GuardedImage> images = materialize(c);
  GuardedImage& x = images[0];
  for (std::int64_t r = 0; r < x.layout().rows(); ++r)
    for (std::int64_t col = 0; col < x.layout().cols(); ++col)
      store_from_f64(x.dtype(), edit(r, col, x.view().at(r, col)), x.element(r, col));
  for (const int t : c.op->outputs()) images[t].poison(Poison::nan, 1);
  try {
    execute(c.backend, v, c, images);
  } catch (const std::exception& e) {
    RC_FAIL(std::string("launch failed: ") + e.what() + "\n  reproduce: ./kverify run '" + c.to_text() + "'");
  }
  std::vector<double> out;  // every output in tensor order
  for (const int t : c.op->outputs()) {
    const GuardedImage& y = images[static_cast<std::size_t>(t)];
    for (std::int64_t r = 0; r < y.layout().rows(); ++r)
      for (std::int64_t col = 0; col < y.layout().cols(); ++col) out.push_back(y.view().at(r, col));
  }
  return out;
}

double keep_input(std::int64_t, std::int64_t, double stored) { return stored; }

void expect_power_of_two_scaling(const Context& ctx, const OpSpec& op, std::span<const int> powers,
                                 double negligible_eps) {
  CaseShape shape;
  shape.min_width = 32;  // f16 inputs of |x| 2^4 stay far below 65504; k >= 1 keeps them off subnormals
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, shape, Placements::any, rc::gen::just(recipe("normal", 1)));
    c.params[0] = negligible_eps;
    const int k = *rc::gen::inRange(1, 5);
    for (const Variant* v : variants_of(ctx, op)) {
      Case pinned = c;
      if (!pin(ctx, *v, pinned)) continue;
      const auto a = outputs_with(pinned, *v, keep_input);
      const auto b = outputs_with(pinned, *v, [&](std::int64_t, std::int64_t, double x) { return std::ldexp(x, k); });
      // Which output element i is, in outputs_with's order: every output's elements in turn.
      const std::vector<int> outputs = op.outputs();
      std::size_t bad = a.size(), first = 0;
      int bad_output = 0;
      for (std::size_t o = 0; o < outputs.size() && bad == a.size(); ++o) {
        const std::size_t count = static_cast<std::size_t>(pinned.layout(outputs[o]).elements());
        for (std::size_t i = first; i < first + count && bad == a.size(); ++i)
          if (!same_bits(std::ldexp(a[i], k * powers[o]), b[i])) bad = i, bad_output = static_cast<int>(o);
        first += count;
      }
      count(ctx, *v, bad == a.size(), 0);
      if (bad == a.size()) continue;
      std::size_t offset = 0;
      for (int o = 0; o < bad_output; ++o) offset += static_cast<std::size_t>(pinned.layout(outputs[o]).elements());
      const int power = powers[static_cast<std::size_t>(bad_output)];
      RC_FAIL(std::string(op.tensors[static_cast<std::size_t>(outputs[bad_output])].name) + " of x * 2^" +
              std::to_string(k) + " is " + std::to_string(b[bad]) + " where " +
              std::to_string(std::ldexp(a[bad], k * power)) + " was expected (x gives " + std::to_string(a[bad]) +
              (power == 0 ? "" : ", times 2^" + std::to_string(k * power)) + ") at its element " +
              std::to_string(bad - offset) + "\n  reproduce: ./kverify run '" + pinned.to_text() +
              "' (then scale every input by 2^" + std::to_string(k) + ")");
    }
  }
}

ValueRecipe recipe(const char* name, double param) { return {name, param, true}; }

}  // namespace kverify::properties
