#include "bench/row_rotation.hpp"

#include <numeric>

#include "pipeline/sampled_check.hpp"

namespace kverify::bench {

RowRotation row_rotation(const Case& c) {
  if (!rows_checked_apart(*c.op)) return {};
  std::int64_t step = 1;
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    if (!c.op->follows_rows(t)) continue;
    const auto rows2d = c.layout(t).as_2d();
    if (!rows2d || !c.layout(t).contiguous_row_major()) return {};
    const auto per_row = static_cast<std::int64_t>(logical_rows(c, t, 0, 1).second * rows2d->cols *
                                                   static_cast<std::int64_t>(size_of(tensor_dtype(c, t))));
    step = std::lcm(step, 256 / std::gcd(per_row, std::int64_t{256}));
  }
  return {op_rows(c), step};
}

std::size_t element_bytes(const Layout& layout, DType dtype) {
  return static_cast<std::size_t>(layout.footprint() - layout.offset) * size_of(dtype);
}

}  // namespace kverify::bench
