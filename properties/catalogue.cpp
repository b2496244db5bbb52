// The generic properties every op has, and the catalogue's table: for each op of the op table, the
// generic ones, then the op's own (PROPERTIES of its kverify_add_op: op_own_properties).
#include "properties/catalogue.hpp"

#include <vector>

#include "kernels/registry.hpp"
#include "properties/property_kit.hpp"

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
