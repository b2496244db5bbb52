// cross_entropy's own properties (the generic ones every op has are properties/catalogue.cpp's).
#include <string>

#include "ops/cross_entropy/cross_entropy.hpp"
#include "pipeline/run_case.hpp"
#include "properties/property_kit.hpp"

namespace kverify::ops::cross_entropy {
namespace {

using namespace kverify::properties;

// A row whose target is ignore_index contributes nothing, so its logits are never needed: the rows
// ignored rewritten to +-1e30 (+-6e4 in f16: inside the contract) leave loss and total as they were,
// bit for bit.
// A kernel that computes every row and masks afterwards (a log-sum-exp of the ignored row's logits
// gathered at a clamped target, multiplied by 0) or that counts ignored rows in total shows here.
void ignored_rows_unread(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    const Case c = *case_of(op, d, {.max_rows = 24}, Placements::any, in_domain_values(op, d));
    const double big = d == DType::f16 ? 6e4 : 1e30;
    for (const Variant* v : variants_of(ctx, op)) {
      Case pinned = c;
      if (!pin(ctx, *v, pinned)) continue;
      const auto images = materialize(pinned);
      const auto target = images[1].view();
      const auto ignore_index = static_cast<std::int64_t>(pinned.param(0));
      const auto ignored = [&](std::int64_t r) { return static_cast<std::int64_t>(target.at(r, 0)) == ignore_index; };
      const auto a = outputs_with(pinned, *v, keep_input);
      const auto b = outputs_with(pinned, *v, [&](std::int64_t r, std::int64_t col, double x) {
        return ignored(r) ? (col % 2 ? -big : big) : x;
      });
      std::size_t bad = a.size();
      for (std::size_t i = 0; i < a.size() && bad == a.size(); ++i)
        if (!same_bits(a[i], b[i])) bad = i;
      count(ctx, *v, bad == a.size(), 0);
      if (bad != a.size())
        RC_FAIL("the logits of the ignored rows (target = ignore_index " + std::to_string(ignore_index) +
                ") rewritten to +-" + std::to_string(big) + " change output element " + std::to_string(bad) +
                " (loss then total): " + std::to_string(b[bad]) + " vs " + std::to_string(a[bad]) +
                "\n  reproduce: ./kverify run '" + pinned.to_text() + "' (then rewrite the ignored rows)");
    }
  }
}

// One class and ignore_index 0: every row is ignored, so every loss is 0, the sum 0 and the mean
// NaN (PyTorch's mean over no element), whatever the rows' count.
void every_row_ignored(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {.max_rows = 300}, Placements::any, in_domain_values(op, d));
    c.shape[1] = 1;
    c.placement = {};
    c.params[0] = 0;
    expect_pass(ctx, op, c);
  }
}

constexpr OpProperty kProperties[] = {
    {"ignored_rows_unread", "the ignored rows' logits rewritten to +-1e30 change no output bit", &ignored_rows_unread},
    {"every_row_ignored", "one class, ignore_index 0: every loss 0, the sum 0, the mean NaN", &every_row_ignored},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::cross_entropy
