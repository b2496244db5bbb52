#include "properties/catalogue.hpp"

#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <vector>

#include "kernels/registry.hpp"
#include "pipeline/case_trace.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/run_case.hpp"
#include "properties/generators.hpp"
#include "reference/op_checks.hpp"

namespace kverify::properties {
namespace {

// --- running a Case on every variant x dtype -------------------------------------------------

std::vector<DType> dtypes_of(const Context& ctx) {
  if (ctx.dtype) return {*ctx.dtype};
  return {DType::f32, DType::f16, DType::bf16};
}

std::vector<const Variant*> variants_of(const Context& ctx, std::string_view op) {
  std::vector<const Variant*> out;
  for (const auto& v : all_variants())
    if (v.op == op && !v.mutant && (!ctx.variant || *ctx.variant == v.name)) out.push_back(&v);
  if (ctx.variant)  // a mutant, asked for by name (the mutation self-test)
    for (const auto& v : all_variants())
      if (v.op == op && v.mutant && *ctx.variant == v.name) out.push_back(&v);
  return out;
}

// The Case pinned to one variant and the context's backend, or false when the variant cannot take it.
bool pin(const Context& ctx, const Variant& v, Case& c) {
  c.variant = std::string(v.name);
  c.backend = ctx.backend;
  if (ctx.backend != Backend::emu) c.schedule = 0;
  return !unsupported(v, c, ctx.backend);
}

void count(const Context& ctx, const Variant& v, bool passed, double margin) {
  if (!ctx.tally) return;
  auto& t = (*ctx.tally)[std::string(v.name)];
  ++t.cases;
  t.passed += passed;
  t.worst_margin = std::max(t.worst_margin, margin);
}

// Fails the property unless the Case passes on every variant (the message is the Verdict, whose
// reproduce line is the shrunk Case).
void expect_pass(const Context& ctx, const OpInfo& op, Case c) {
  for (const Variant* v : variants_of(ctx, op.name)) {
    if (!pin(ctx, *v, c)) continue;
    const Verdict verdict = run_case(c);
    if (verdict.outcome == Outcome::skipped) RC_FAIL("not run: " + verdict.reason);
    count(ctx, *v, verdict.outcome == Outcome::pass, verdict.stats.worst_margin);
    if (verdict.outcome != Outcome::pass) RC_FAIL(format(verdict));
  }
}

// Fails only when a guard of this kind fired (so each guard has its own named property).
void expect_no_guard(const Context& ctx, const OpInfo& op, Case c, std::string_view guard) {
  for (const Variant* v : variants_of(ctx, op.name)) {
    if (!pin(ctx, *v, c)) continue;
    const Verdict verdict = run_case(c);
    bool fired = false;
    for (const auto& g : verdict.guards) fired = fired || g.guard == guard;
    count(ctx, *v, !fired, verdict.stats.worst_margin);
    if (fired) RC_FAIL(format(verdict));
  }
}

// One run of a pinned Case with input 0 rewritten by `edit` (logical row, col, stored value -> new
// value); returns the stored outputs, row-major, widened to f64.
template <typename Edit>
std::vector<double> outputs_with(const Case& c, const Variant& v, Edit edit) {
  trace_case(c);  // names the Case for `kverify check`'s fault isolation (pipeline/case_trace.hpp)
  std::vector<GuardedImage> images = materialize(c);
  GuardedImage& x = images[0];
  for (std::int64_t r = 0; r < x.layout().rows; ++r)
    for (std::int64_t col = 0; col < x.layout().cols; ++col)
      store_from_f64(c.dtype, edit(r, col, x.view().at(r, col)), x.element(r, col));
  for (int t = 0; t < c.op->tensor_count; ++t)
    if (c.op->tensors()[t].output) images[t].poison(Poison::nan, 1);
  try {
    execute(c.backend, v, c, images);
  } catch (const std::exception& e) {
    RC_FAIL(std::string("launch failed: ") + e.what() + "\n  reproduce: ./kverify run '" + c.to_text() + "'");
  }
  std::vector<double> out;
  const GuardedImage& y = images[static_cast<std::size_t>(c.op->tensor_count - 1)];
  for (std::int64_t r = 0; r < y.layout().rows; ++r)
    for (std::int64_t col = 0; col < y.layout().cols; ++col) out.push_back(y.view().at(r, col));
  return out;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

const OpInfo& op_named(std::string_view name) { return *find_op(name); }

ValueRecipe recipe(const char* name, double param) { return {name, param, true}; }

// --- generic properties (every op) ------------------------------------------------------------

template <const char* kOp>
void reference_agreement(const Context& ctx) {
  const OpInfo& op = op_named(kOp);
  for (DType d : dtypes_of(ctx)) expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, in_domain_values(op, d)));
}

template <const char* kOp>
void tail_widths(const Context& ctx) {
  const OpInfo& op = op_named(kOp);
  CaseShape shape;
  shape.tails_only = true;
  shape.max_width = 16385;
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, *case_of(op, d, shape, Placements::contiguous, in_domain_values(op, d)));
}

template <const char* kOp>
void strides_transposes_offsets(const Context& ctx) {
  const OpInfo& op = op_named(kOp);
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::not_contiguous, in_domain_values(op, d)));
}

template <const char* kOp, const char* kGuard>
void guard_holds(const Context& ctx) {
  const OpInfo& op = op_named(kOp);
  for (DType d : dtypes_of(ctx))
    expect_no_guard(ctx, op, *case_of(op, d, {}, Placements::any, in_domain_values(op, d)), kGuard);
}

// The result does not depend on the order in which a block's threads run (emu's schedule seed).
template <const char* kOp>
void schedule_independent(const Context& ctx) {
  if (ctx.backend != Backend::emu) return;  // the GPU's schedule is not ours to choose
  const OpInfo& op = op_named(kOp);
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, in_domain_values(op, d));
    const std::uint64_t other = *rc::gen::inRange<std::uint64_t>(1, 1u << 20);
    for (const Variant* v : variants_of(ctx, op.name)) {
      if (!pin(ctx, *v, c)) continue;
      Case d2 = c;
      d2.schedule = other;
      const auto keep = [](std::int64_t, std::int64_t, double x) { return x; };
      const auto a = outputs_with(c, *v, keep), b = outputs_with(d2, *v, keep);
      bool same = true;
      for (std::size_t i = 0; i < a.size(); ++i) same = same && same_bits(a[i], b[i]);
      count(ctx, *v, same, 0);
      if (!same)
        RC_FAIL("outputs differ between schedule " + std::to_string(c.schedule) + " and " + std::to_string(other) +
                "\n  reproduce: ./kverify run '" + c.to_text() + "' and the same with schedule=" + std::to_string(other));
    }
  }
}

// --- softmax ---------------------------------------------------------------------------------

void softmax_padding_fills(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  CaseShape shape;
  shape.tails_only = true;
  for (DType d : dtypes_of(ctx)) {
    const double scale = *rc::gen::elementOf(std::vector<double>{5, 30, 300});
    // All-negative rows: a 0 fill of the max would win; const:-200 makes exp(x - 0) underflow.
    const ValueRecipe v = *rc::gen::elementOf(std::vector<ValueRecipe>{recipe("negative", scale), recipe("const", -200)});
    expect_pass(ctx, op, *case_of(op, d, shape, Placements::any, rc::gen::just(v)));
  }
}

// Adding the same integer to every logit changes nothing: x - max is the same exact number.
void softmax_shift_invariance(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  for (DType d : dtypes_of(ctx)) {
    const Case c = *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("int", 3)));
    const double shift = static_cast<double>(*rc::gen::inRange(-100, 101));  // |x + shift| < 256: exact in every dtype
    for (const Variant* v : variants_of(ctx, op.name)) {
      Case pinned = c;
      if (!pin(ctx, *v, pinned)) continue;
      const auto a = outputs_with(pinned, *v, [](std::int64_t, std::int64_t, double x) { return x; });
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
void softmax_permutation_invariance(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  for (DType d : dtypes_of(ctx)) {
    const Case c = *case_of(op, d, {}, Placements::contiguous, in_domain_values(op, d));
    const std::uint64_t seed = *rc::gen::inRange<std::uint64_t>(0, 1000);
    std::vector<std::int64_t> perm(static_cast<std::size_t>(c.shape[1]));
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
    std::shuffle(perm.begin(), perm.end(), std::mt19937_64(seed));
    for (const Variant* v : variants_of(ctx, op.name)) {
      Case pinned = c;
      if (!pin(ctx, *v, pinned)) continue;
      auto images = materialize(pinned);
      const auto want = reference_for(pinned, std::vector<TensorView>{images[0].view()});
      const auto tolerance = tolerance_for(pinned);
      const auto x = images[0].view();
      const auto a = outputs_with(pinned, *v, [](std::int64_t, std::int64_t, double value) { return value; });
      const auto b = outputs_with(pinned, *v, [&](std::int64_t r, std::int64_t col, double) { return x.at(r, perm[col]); });
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

void softmax_rows_sum_to_one(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, in_domain_values(op, d));
    for (const Variant* v : variants_of(ctx, op.name)) {
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

void softmax_singleton_row_is_one(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, in_domain_values(op, d));
    c.shape[1] = 1;
    c.placement = {};
    for (const Variant* v : variants_of(ctx, op.name)) {
      if (!pin(ctx, *v, c)) continue;
      const auto out = outputs_with(c, *v, [](std::int64_t, std::int64_t, double x) { return x; });
      bool ok = true;
      for (double y : out) ok = ok && y == 1.0;
      count(ctx, *v, ok, 0);
      if (!ok) RC_FAIL("a row of one finite value must give exactly 1\n  reproduce: ./kverify run '" + c.to_text() + "'");
    }
  }
}

void softmax_equal_logits_are_uniform(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  for (DType d : dtypes_of(ctx)) {
    const double value = *rc::gen::elementOf(std::vector<double>{0, 1, -7, 300, -300, d == DType::f16 ? 6e4 : 1e30});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("const", value))));
  }
}

void softmax_dominant_logit(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  for (DType d : dtypes_of(ctx)) {
    const double dominant = *rc::gen::elementOf(std::vector<double>{30, 100, 1e4, d == DType::f16 ? 6e4 : 1e30});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("dominant", dominant))));
  }
}

void softmax_extreme_logits(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
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

void softmax_out_of_domain(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("special", 1)));
    c.shape[0] = std::max<std::int64_t>(c.shape[0], 4);  // every pattern: one NaN, one +inf, all -inf, some -inf
    c.placement = {};
    expect_pass(ctx, op, c);
  }
}

// [0, 0, log 2, 0, 0] -> [1/6, 1/6, 1/3, 1/6, 1/6] (the seed article's example).
void softmax_seed_example(const Context& ctx) {
  const OpInfo& op = op_named("softmax");
  for (DType d : dtypes_of(ctx)) {
    Case c = parse_case("op=softmax shape=3x5 dtype=" + std::string(name(d)));
    const double want[] = {1.0 / 6, 1.0 / 6, 1.0 / 3, 1.0 / 6, 1.0 / 6};
    for (const Variant* v : variants_of(ctx, op.name)) {
      if (!pin(ctx, *v, c)) continue;
      const auto out = outputs_with(c, *v, [](std::int64_t, std::int64_t col, double) { return col == 2 ? std::log(2.0) : 0.0; });
      // log 2 is stored rounded: 1/3 and 1/6 hold to that rounding plus the output's.
      const double allowed = 2 * ulp(d, 1.0 / 3) + 4 * ulp(d, std::log(2.0)) / 3;
      bool ok = true;
      for (std::size_t i = 0; i < out.size(); ++i) ok = ok && std::fabs(out[i] - want[i % 5]) <= allowed;
      count(ctx, *v, ok, 0);
      if (!ok) RC_FAIL("[0, 0, log 2, 0, 0] must give [1/6, 1/6, 1/3, 1/6, 1/6] (" + std::string(v->name) + ", " +
                       std::string(name(d)) + ")");
    }
  }
}

// --- gelu_tanh -------------------------------------------------------------------------------

void gelu_values_case(const Context& ctx, const std::vector<double>& values) {
  const OpInfo& op = op_named("gelu_tanh");
  for (DType d : dtypes_of(ctx)) {
    double value = *rc::gen::elementOf(values);
    if (std::fabs(value) > info(d).max_finite) value = std::copysign(info(d).max_finite, value);
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("const", value))));
  }
}

void gelu_stable_at_eleven(const Context& ctx) { gelu_values_case(ctx, {11, -11, 10.5, 12, 20, -20}); }
void gelu_up_to_dtype_max(const Context& ctx) { gelu_values_case(ctx, {65504, -65504, 1e30, -1e30, 3.4e38, -3.4e38}); }
void gelu_signed_zeros(const Context& ctx) {
  const OpInfo& op = op_named("gelu_tanh");
  for (DType d : dtypes_of(ctx)) expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("zeros", 0))));
}

// GELU(x) = x exactly once x is large (sigmoid(2u) rounds to 1 in f32 from x = 16 on).
void gelu_large_x_is_x(const Context& ctx) {
  const OpInfo& op = op_named("gelu_tanh");
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("uniform", 1)));
    const double base = *rc::gen::elementOf(std::vector<double>{16, 100, 1e4, 6e4});
    for (const Variant* v : variants_of(ctx, op.name)) {
      if (!pin(ctx, *v, c)) continue;
      std::vector<double> stored;
      const auto out = outputs_with(c, *v, [&](std::int64_t, std::int64_t, double x) {
        const double value = round_to(d, base * (1.5 + x));  // in [0.5, 2.5] x base
        stored.push_back(value);
        return value;
      });
      bool ok = true;
      for (std::size_t i = 0; i < out.size(); ++i) ok = ok && out[i] == stored[i];
      count(ctx, *v, ok, 0);
      if (!ok) RC_FAIL("GELU(x) must be x for x >= 16\n  reproduce: ./kverify run '" + c.to_text() + "'");
    }
  }
}

// --- row_sum and matmul_relu -------------------------------------------------------------------

void row_sum_integer_rows_exact(const Context& ctx) {
  const OpInfo& op = op_named("row_sum");
  for (DType d : dtypes_of(ctx)) {
    const double k = *rc::gen::elementOf(std::vector<double>{1, 3, 100});
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("int", k))));
  }
}

void row_sum_padding_fills(const Context& ctx) {
  const OpInfo& op = op_named("row_sum");
  CaseShape shape;
  shape.tails_only = true;
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, *case_of(op, d, shape, Placements::any,
                                  rc::gen::elementOf(std::vector<ValueRecipe>{recipe("const", 1), recipe("negative", 2)})));
}

void row_sum_seed_example(const Context& ctx) {
  const OpInfo& op = op_named("row_sum");
  for (DType d : dtypes_of(ctx)) expect_pass(ctx, op, parse_case("op=row_sum shape=1x10 values=ramp dtype=" + std::string(name(d))));
}

void matmul_integer_exact(const Context& ctx) {
  const OpInfo& op = op_named("matmul_relu");
  for (DType d : dtypes_of(ctx)) expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, rc::gen::just(recipe("int", 2))));
}

void matmul_relu_after_full_k(const Context& ctx) {
  const OpInfo& op = op_named("matmul_relu");
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::any,
                                  rc::gen::elementOf(std::vector<ValueRecipe>{recipe("halves", 1), recipe("normal", 1)})));
}

// --- the table ------------------------------------------------------------------------------------

constexpr char kSoftmax[] = "softmax", kGelu[] = "gelu_tanh", kRowSum[] = "row_sum", kMatmul[] = "matmul_relu";
constexpr char kCanary[] = "canary", kUnwritten[] = "unwritten", kInputModified[] = "input-modified",
               kNondeterministic[] = "nondeterministic";

#define KV_GENERIC_PROPERTIES(OP, op_name)                                                                           \
  {op_name ".reference_agreement", op_name, "agrees with the reference under the policy on random Cases",           \
   &reference_agreement<OP>},                                                                                        \
      {op_name ".tail_widths", op_name, "every tail width (1, 2, 3, 31, 32, 33, ... 16385) passes",                  \
       &tail_widths<OP>},                                                                                            \
      {op_name ".strides_transposes_offsets", op_name, "padded, transposed, strided and offset layouts pass",         \
       &strides_transposes_offsets<OP>},                                                                             \
      {op_name ".no_out_of_bounds_writes", op_name, "no canary byte around or between elements changes",            \
       &guard_holds<OP, kCanary>},                                                                                   \
      {op_name ".every_output_written", op_name, "no output element keeps its poison", &guard_holds<OP, kUnwritten>}, \
      {op_name ".inputs_unchanged", op_name, "input bytes are the same after the launch",                           \
       &guard_holds<OP, kInputModified>},                                                                            \
      {op_name ".deterministic", op_name, "two runs of the same Case give the same bits",                           \
       &guard_holds<OP, kNondeterministic>},                                                                         \
      {op_name ".schedule_independent", op_name, "emu: any thread order gives the same bits",                       \
       &schedule_independent<OP>}

const Property kProperties[] = {
    KV_GENERIC_PROPERTIES(kSoftmax, "softmax"),
    {"softmax.padding_fills", "softmax", "all-negative rows (a 0 fill of the max would win) at tail widths",
     &softmax_padding_fills},
    {"softmax.shift_invariance", "softmax", "softmax(x + c) has the same bits as softmax(x) for exact shifts",
     &softmax_shift_invariance},
    {"softmax.permutation_invariance", "softmax", "permuting a row's columns permutes its softmax",
     &softmax_permutation_invariance},
    {"softmax.rows_sum_to_one", "softmax", "every finite row sums to 1 within n output ulps",
     &softmax_rows_sum_to_one},
    {"softmax.singleton_row_is_one", "softmax", "a row of one finite value gives exactly 1",
     &softmax_singleton_row_is_one},
    {"softmax.equal_logits_are_uniform", "softmax", "equal logits (0, 300, -300, 1e30) give 1/n",
     &softmax_equal_logits_are_uniform},
    {"softmax.dominant_logit", "softmax", "one logit far above the rest concentrates without NaN",
     &softmax_dominant_logit},
    {"softmax.extreme_logits", "softmax", "ties, near-ties, large equal and mixed +-1e30 logits",
     &softmax_extreme_logits},
    {"softmax.out_of_domain", "softmax", "NaN, +inf and all -inf rows are NaN; -inf among finite is 0",
     &softmax_out_of_domain},
    {"softmax.seed_example", "softmax", "[0, 0, log 2, 0, 0] gives [1/6, 1/6, 1/3, 1/6, 1/6]", &softmax_seed_example},
    KV_GENERIC_PROPERTIES(kGelu, "gelu_tanh"),
    {"gelu_tanh.stable_at_eleven", "gelu_tanh", "x = +-11 and neighbours are finite and right", &gelu_stable_at_eleven},
    {"gelu_tanh.up_to_dtype_max", "gelu_tanh", "x up to the dtype's largest finite value", &gelu_up_to_dtype_max},
    {"gelu_tanh.signed_zeros", "gelu_tanh", "+0 -> +0 and -0 -> -0", &gelu_signed_zeros},
    {"gelu_tanh.large_x_is_x", "gelu_tanh", "GELU(x) is exactly x for x >= 16", &gelu_large_x_is_x},
    KV_GENERIC_PROPERTIES(kRowSum, "row_sum"),
    {"row_sum.integer_rows_exact", "row_sum", "integer rows are summed bit-exactly", &row_sum_integer_rows_exact},
    {"row_sum.padding_fills", "row_sum", "tail widths with constant and negative rows (a non-zero fill shows)",
     &row_sum_padding_fills},
    {"row_sum.seed_example", "row_sum", "[1..10] sums to exactly 55", &row_sum_seed_example},
    KV_GENERIC_PROPERTIES(kMatmul, "matmul_relu"),
    {"matmul_relu.integer_exact", "matmul_relu", "integer inputs give bit-exact products", &matmul_integer_exact},
    {"matmul_relu.relu_after_full_k", "matmul_relu",
     "partial sums that change sign: the ReLU applies to the full K sum only", &matmul_relu_after_full_k},
};
#undef KV_GENERIC_PROPERTIES

}  // namespace

std::span<const Property> all_properties() { return kProperties; }

const Property* find_property(std::string_view name) {
  for (const auto& p : kProperties)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace kverify::properties
