// embed_rmsnorm's own property, beside the generic ones every op has (kverify's catalogue: the
// reference, tail widths, layouts, guards, determinism, schedules).
#include <cstring>

#include "properties/property_kit.hpp"

namespace kverify::ops::embed_rmsnorm {
namespace {

using namespace kverify::properties;

// Every token with the same id: every output row is that table row's, bit for bit (a kernel that
// reads the wrong row, or mixes rows, gives rows that differ).
void repeated_ids_repeat_rows(const Context& ctx, const OpSpec& op) {
  for (DType d : dtypes_of(ctx)) {
    Case c = *case_of(op, d, {}, Placements::any, in_domain_values(op, d));
    const std::int64_t tokens = c.shape[0], width = c.shape[2];
    const double id = static_cast<double>(*rc::gen::inRange<std::int64_t>(0, c.shape[1]));
    for (const Variant* v : variants_of(ctx, op)) {
      if (!pin(ctx, *v, c)) continue;
      // outputs_with edits input 0, the ids; it returns y (T x C) then rstd (T).
      const auto out = outputs_with(c, *v, [&](std::int64_t, std::int64_t, double) { return id; });
      bool same = true;
      for (std::int64_t t = 1; t < tokens; ++t) {
        for (std::int64_t col = 0; col < width; ++col) same = same && same_bits(out[t * width + col], out[col]);
        same = same && same_bits(out[tokens * width + t], out[tokens * width]);
      }
      count(ctx, *v, same, 0);
      if (!same)
        RC_FAIL("tokens with the same id " + std::to_string(static_cast<long long>(id)) +
                " got different rows\n  reproduce: ./kverify run '" + c.to_text() + "' with every id " +
                std::to_string(static_cast<long long>(id)));
    }
  }
}

constexpr OpProperty kProperties[] = {
    {"repeated_ids_repeat_rows", "tokens with the same id get the same row and rstd, bit for bit",
     &repeated_ids_repeat_rows},
};

}  // namespace

std::span<const properties::OpProperty> properties() { return kProperties; }

}  // namespace kverify::ops::embed_rmsnorm
