#include "core/layout.hpp"

#include <numeric>

namespace kverify {

std::optional<Overlap> find_overlap(const Layout2D& l) {
  // r*rs + c*cs == r'*rs + c'*cs has a solution with (dr, dc) != 0 iff the smallest one,
  // dr = cs/g, dc = rs/g (g = gcd), fits in the shape.
  if (l.rows == 1 || l.cols == 1) return std::nullopt;
  const std::int64_t g = std::gcd(l.row_stride, l.col_stride);
  const std::int64_t dr = l.col_stride / g;
  const std::int64_t dc = l.row_stride / g;
  if (dr < l.rows && dc < l.cols) return Overlap{dr, 0, 0, dc};
  return std::nullopt;
}

std::optional<std::string> layout_problem(const Layout2D& l, std::size_t element_bytes, bool is_output) {
  using std::to_string;
  if (l.rows < 1 || l.cols < 1)
    return "shape " + to_string(l.rows) + "x" + to_string(l.cols) + " has a size below 1 (accepted: sizes >= 1)";
  if (l.row_stride < 1 || l.col_stride < 1)
    return "strides " + to_string(l.row_stride) + "," + to_string(l.col_stride) +
           " include a stride below 1 (accepted: strides >= 1, in elements)";
  if (l.offset < 0) return "offset " + to_string(l.offset) + " is negative (accepted: offset >= 0, in elements)";
  std::int64_t a = 0, b = 0, footprint = 0, bytes = 0;
  if (__builtin_mul_overflow(l.rows - 1, l.row_stride, &a) || __builtin_mul_overflow(l.cols - 1, l.col_stride, &b) ||
      __builtin_add_overflow(a, b, &footprint) || __builtin_add_overflow(footprint, l.offset, &footprint) ||
      __builtin_add_overflow(footprint, std::int64_t{1}, &footprint) ||
      __builtin_mul_overflow(footprint, static_cast<std::int64_t>(element_bytes), &bytes))
    return "shape " + to_string(l.rows) + "x" + to_string(l.cols) + " with strides " + to_string(l.row_stride) + "," +
           to_string(l.col_stride) + " and offset " + to_string(l.offset) +
           " spans more bytes than fit in 64 bits (accepted: a footprint below 2^63 bytes)";
  if (is_output) {
    if (auto o = find_overlap(l))
      return "output elements (" + to_string(o->r1) + "," + to_string(o->c1) + ") and (" + to_string(o->r2) + "," +
             to_string(o->c2) + ") share an address with strides " + to_string(l.row_stride) + "," +
             to_string(l.col_stride) + " (accepted: strides that give every element its own address, e.g. " +
             to_string(l.cols) + ",1)";
  }
  return std::nullopt;
}

}  // namespace kverify
