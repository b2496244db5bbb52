// Rank-2 strided layouts: shape, strides in elements, offset in elements.
// Validation rejects empty shapes, non-positive strides, outputs whose elements share an address,
// and footprints whose byte count does not fit in 64 bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kverify {

struct Layout2D {
  std::int64_t rows = 1;
  std::int64_t cols = 1;
  std::int64_t row_stride = 1;
  std::int64_t col_stride = 1;
  std::int64_t offset = 0;

  static Layout2D row_major(std::int64_t rows, std::int64_t cols) { return {rows, cols, cols, 1, 0}; }

  std::int64_t index(std::int64_t r, std::int64_t c) const { return offset + r * row_stride + c * col_stride; }
  std::int64_t elements() const { return rows * cols; }
  bool contiguous_row_major() const { return (rows == 1 || row_stride == cols) && (cols == 1 || col_stride == 1); }
  // Elements from the start of the buffer to one past the last addressed element.
  std::int64_t footprint() const { return offset + (rows - 1) * row_stride + (cols - 1) * col_stride + 1; }

  friend bool operator==(const Layout2D&, const Layout2D&) = default;
};

// Why the layout is unusable, or nullopt. `is_output` adds the no-overlap rule.
std::optional<std::string> layout_problem(const Layout2D& layout, std::size_t element_bytes, bool is_output);

// Two distinct elements sharing one address, if any: {r1, c1, r2, c2}.
struct Overlap {
  std::int64_t r1, c1, r2, c2;
};
std::optional<Overlap> find_overlap(const Layout2D& layout);

}  // namespace kverify
