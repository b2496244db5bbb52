// The generic properties every op has, and the catalogue's table: for each op of the op table, the
// generic ones, then the op's own (PROPERTIES of its kverify_add_op: op_own_properties).
#include "properties/catalogue.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

#include "kernels/registry.hpp"
#include "pipeline/run_at_once.hpp"
#include "pipeline/run_case.hpp"
#include "properties/property_kit.hpp"
#include "reference/compare.hpp"

namespace kverify::properties {
namespace {

void reference_agreement(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) expect_pass(ctx, op, *case_of(op, d, {}, Placements::any, in_domain_values(op, d)));
}

void tail_widths(const Context& ctx, const OpSpec& op) {
  CaseShape shape;
  shape.tails_only = true;
  shape.max_width = 16385;
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, *case_of(op, d, shape, Placements::contiguous, in_domain_values(op, d)));
}

void strides_transposes_offsets(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx))
    expect_pass(ctx, op, *case_of(op, d, {}, Placements::not_contiguous, in_domain_values(op, d)));
}

template <const char* kGuard>
void guard_holds(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx))
    expect_no_guard(ctx, op, *case_of(op, d, {}, Placements::any, in_domain_values(op, d)), kGuard);
}

// The result does not depend on the order in which a block's threads run (emu's schedule seed).
void schedule_independent(const Context& ctx, const OpSpec& op) {
  if (ctx.backend != Backend::emu) return;  // the GPU's schedule is not ours to choose
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, in_domain_values(op, d));
    const std::uint64_t other = *rc::gen::inRange<std::uint64_t>(1, 1u << 20);
    for (const Variant* v : variants_of(ctx, op)) {
      if (!pin(ctx, *v, c)) continue;
      Case d2 = c;
      d2.schedule = other;
      const auto a = outputs_with(c, *v, keep_input), b = outputs_with(d2, *v, keep_input);
      bool same = true;
      for (std::size_t i = 0; i < a.size(); ++i) same = same && same_bits(a[i], b[i]);
      count(ctx, *v, same, 0);
      if (!same)
        RC_FAIL("outputs differ between schedule " + std::to_string(c.schedule) + " and " + std::to_string(other) +
                "\n  reproduce: ./kverify run '" + c.to_text() +
                "' and the same with schedule=" + std::to_string(other));
    }
  }
}

// A drawn Case and a companion drawn from it (sibling_of, other_values_of), in one dtype per draw
// (each pair is several runs), pinned to each variant in turn: body(variant, case, companion).
template <typename Body>
void for_each_pinned_pair(const Context& ctx, const OpSpec& op,
                          rc::Gen<Case> (*companion_of)(const Case&, rc::Gen<ValueRecipe>), Body body) {
  const DType d = *rc::gen::elementOf(dtypes_of(ctx));
  const Case drawn = *case_of(op, d, {}, Placements::any, in_domain_values(op, d));
  const Case drawn_companion = *companion_of(drawn, in_domain_values(op, d));
  for (const Variant* v : variants_of(ctx, op)) {
    Case c = drawn, companion = drawn_companion;
    if (pin(ctx, *v, c) && pin(ctx, *v, companion)) body(*v, c, companion);
  }
}

// State kept between calls (a plan or buffer the launcher caches, a __device__ variable, a static
// set on the first call): a Case, then a sibling (the same width, more rows, other values: what a
// cache keyed by the width alone takes for the first), then the first again, in this process. Each
// must pass, and the first's two runs give the same bits. A failure's reproduce line is the
// sequence, which `kverify run ... --then` replays in one process.
void state_between_cases(const Context& ctx, const OpSpec& op) {
  for_each_pinned_pair(ctx, op, &sibling_of, [&](const Variant& variant, const Case& c, const Case& sibling) {
    const Variant* v = &variant;
    const std::string sequence =
        "'" + c.to_text() + "' --then '" + sibling.to_text() + "' --then '" + c.to_text() + "'";
    const auto fail = [&](const std::string& what, const Verdict& verdict) {
      count(ctx, *v, false, verdict);
      RC_FAIL(what + "\n" + format(verdict) + "\n  reproduce (one process, in this order): ./kverify run " + sequence);
    };
    std::vector<ElementError> first, again;
    const Verdict once = run_case(c, &first);
    if (once.outcome == Outcome::skipped) RC_FAIL("not run: " + once.reason);
    if (once.outcome != Outcome::pass) fail("the Case fails", once);
    const Verdict between = run_case(sibling);
    if (between.outcome != Outcome::pass) fail("the sibling Case fails when run after the first", between);
    const Verdict twice = run_case(c, &again);
    if (twice.outcome != Outcome::pass) fail("the first Case fails when run again after the sibling", twice);
    bool same = first.size() == again.size();
    for (std::size_t i = 0; same && i < first.size(); ++i)
      same = same_bits(first[i].signed_ulps, again[i].signed_ulps) && same_bits(first[i].abs, again[i].abs);
    if (!same) fail("the first Case's outputs differ when run again after the sibling (both within tolerance)", twice);
    count(ctx, *v, true, twice);
  });
}

// Two callers at once (run_at_once: two host threads, a stream each; on emu their launches take
// turns, so one call's second launch runs after the other's first): the Case and another of its
// shape with other values, both must pass. Launcher-owned static scratch, a `__device__` buffer
// both calls use, a plan one call writes while the other reads it: one call takes the other's
// data. A failure's reproduce line is the pair, which `kverify run ... --alongside` replays.
void launched_at_once(const Context& ctx, const OpSpec& op) {
  for_each_pinned_pair(ctx, op, &other_values_of, [&](const Variant& v, const Case& c, const Case& other) {
    const auto [first, second] = run_at_once(c, other);
    for (const Verdict* verdict : {&first, &second})
      if (verdict->outcome == Outcome::skipped) RC_FAIL("not run: " + verdict->reason);
    for (const Verdict* verdict : {&first, &second})
      if (verdict->outcome != Outcome::pass) {
        count(ctx, v, false, *verdict);
        RC_FAIL(std::string(verdict == &first ? "the Case" : "the other Case") +
                " fails when the other call runs at the same time\n" + format(*verdict) +
                "\n  reproduce (two calls at once): ./kverify run '" + c.to_text() + "' --alongside '" +
                other.to_text() + "'");
      }
    count(ctx, v, true, first);
  });
}

// Rounding bias. An output stored in f16 or bf16 by rounding to nearest has errors of either sign:
// over n elements whose exact value the dtype cannot hold, the signed errors (in ulps of the
// dtype) average near 0, with a standard deviation of at most 0.29/sqrt(n) (errors uniform on
// [-0.5, 0.5] ulp). A kernel that stores by truncation, or always rounds up, stays inside the
// ulp each element is allowed, with a mean of 0.5 ulp toward zero (or up). The mean may also
// lean by what the policy allows beyond that ulp (the f32 arithmetic's own error, which may all
// go one way), so the allowance for either mean is
//   0.2 ulp (at n >= 128: 7.8 standard deviations)  +  mean_i max(0, bound_i - ulp_i) / ulp_i,
// and a Case is judged only where that stays below 0.4 ulp (a truncating kernel's 0.5 must stand
// out) with n >= 128: many rows of smooth random values; zeros, non-finite and exactly held
// references are left out (nothing was rounded there).
constexpr double kBiasNoise = 0.2, kBiasJudgedBelow = 0.4;
constexpr std::size_t kBiasMinElements = 128;

struct Bias {
  std::size_t n = 0;
  double mean = 0, toward_zero = 0, allowance = kBiasNoise;
};

Bias bias_of(const std::vector<ElementError>& elements, DType d) {
  Bias b;
  double beyond = 0;
  for (const ElementError& e : elements) {
    if (e.dtype != d || e.bound < 0 || !std::isfinite(e.signed_ulps) || e.want == 0 || round_to(d, e.want) == e.want)
      continue;
    const double unit = ulp(d, e.want);
    ++b.n;
    b.mean += e.signed_ulps;
    b.toward_zero += e.want > 0 ? -e.signed_ulps : e.signed_ulps;  // positive: toward zero
    beyond += std::max(0.0, e.bound - unit) / unit;
  }
  if (b.n == 0) return b;
  const auto n = static_cast<double>(b.n);
  b.mean /= n;
  b.toward_zero /= n;
  b.allowance += beyond / n;
  return b;
}

void rounding_unbiased(const Context& ctx, const OpSpec& op) {
  // Enough outputs to judge at a small Case's cost: where every output spans a tail dimension
  // (softmax's rows, matmul's C), up to 3 rows of 128-512; where one does not (row_sum's one value
  // per row), 128-160 rows of at most 64. Both keep the f32 arithmetic's own error far below a
  // 16-bit ulp.
  bool outputs_span_tails = true;
  for (const TensorSpec& t : op.tensors) {
    if (!t.output) continue;
    bool spans = false;
    for (const std::int8_t d : t.shape())
      spans = spans || (d >= 0 && op.dims[static_cast<std::size_t>(d)].draw == DimDraw::tail);
    outputs_span_tails = outputs_span_tails && spans;
  }
  const CaseShape judged_shape = outputs_span_tails
                                     ? CaseShape{.max_rows = 3, .max_width = 512, .min_width = kBiasMinElements}
                                     : CaseShape{.max_rows = 160, .max_width = 64, .min_rows = kBiasMinElements};
  const auto smooth = rc::gen::element(recipe("normal", 1), recipe("uniform", 4));
  // One 16-bit dtype per drawn Case (f32's errors are the arithmetic's, not a store's rounding).
  std::vector<DType> rounded;
  for (DType d : dtypes_of(ctx))
    if (d != DType::f32) rounded.push_back(d);
  if (rounded.empty()) return;
  const DType d = *rc::gen::elementOf(rounded);
  Case c = *case_of(op, d, judged_shape, Placements::contiguous, smooth);
  for (const Variant* v : variants_of(ctx, op)) {
    if (!pin(ctx, *v, c)) continue;
    std::vector<ElementError> elements;
    const Verdict verdict = run_case(c, &elements);
    if (verdict.outcome == Outcome::skipped) RC_FAIL("not run: " + verdict.reason);
    if (verdict.outcome != Outcome::pass) RC_FAIL(format(verdict));
    const Bias b = bias_of(elements, d);
    if (b.n < kBiasMinElements || b.allowance >= kBiasJudgedBelow) continue;  // this Case cannot judge it
    const bool unbiased = std::fabs(b.mean) <= b.allowance && std::fabs(b.toward_zero) <= b.allowance;
    count(ctx, *v, unbiased, std::max(std::fabs(b.mean), std::fabs(b.toward_zero)) / b.allowance);
    if (!unbiased) {
      char said[640];
      std::snprintf(said, sizeof said,
                    "%s/%s: the %s outputs' signed errors lean one way: mean %+.3f ulp, toward zero %+.3f ulp "
                    "over %zu rounded elements (allowed: %.3f either way; round to nearest gives about 0, "
                    "truncation +0.5 toward zero)\n  the property's judgment, not the Verdict's: each element is "
                    "within its bound, so `kverify run` of the Case passes",
                    std::string(op.name).c_str(), std::string(v->name).c_str(), std::string(name(d)).c_str(), b.mean,
                    b.toward_zero, b.n, b.allowance);
      RC_FAIL(std::string(said) + "\n  reproduce: ./kverify run '" + c.to_text() + "'");
    }
  }
}

constexpr char kCanary[] = "canary", kUnwritten[] = "unwritten", kInputModified[] = "input-modified",
               kNondeterministic[] = "nondeterministic";

constexpr OpProperty kGeneric[] = {
    {"reference_agreement", "agrees with the reference under the policy on random Cases", &reference_agreement},
    {"tail_widths", "every tail width (1, 2, 3, 31, 32, 33, ... 16385) passes", &tail_widths},
    {"strides_transposes_offsets", "padded, transposed, strided and offset layouts pass", &strides_transposes_offsets},
    {"no_out_of_bounds_writes", "no canary byte around or between elements changes", &guard_holds<kCanary>},
    {"every_output_written", "no output element keeps its poison", &guard_holds<kUnwritten>},
    {"inputs_unchanged", "input bytes are the same after the launch", &guard_holds<kInputModified>},
    {"deterministic", "two runs of the same Case give the same bits", &guard_holds<kNondeterministic>},
    {"schedule_independent", "emu: any thread order gives the same bits", &schedule_independent},
    {"state_between_cases", "a Case, a sibling of the same width, the Case again: each passes, same bits",
     &state_between_cases},
    {"launched_at_once", "the Case and another of its shape, two host threads and streams at once: both pass",
     &launched_at_once},
    {"rounding_unbiased", "f16/bf16 outputs' signed errors average near 0 (no truncating store)", &rounding_unbiased},
};

const std::vector<Property>& table() {
  static const std::vector<Property> all = [] {
    std::vector<Property> out;
    const auto add = [&](const OpSpec& op, std::span<const OpProperty> list) {
      for (const auto& p : list)
        out.push_back({std::string(op.name) + "." + std::string(p.name), &op, p.checks, p.body});
    };
    for (const OpSpec* op : all_ops()) {
      add(*op, kGeneric);
      add(*op, op_own_properties(*op));
    }
    return out;
  }();
  return all;
}

}  // namespace

std::span<const Property> all_properties() { return table(); }

const Property* find_property(std::string_view name) {
  for (const auto& p : table())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace kverify::properties
