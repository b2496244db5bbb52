// Strided layouts: Layout2D (rows x cols, the form kernels take) and Layout (any rank); shape,
// strides in elements, offset in elements.
// Validation rejects empty shapes, non-positive strides, outputs whose elements share an address,
// and footprints whose byte count does not fit in 64 bits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
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

// A tensor of any rank up to kMaxRank: sizes and strides per dimension (in elements), an offset.
// Every consumer that walks elements sees it as a logical rows x cols matrix: for rank >= 2, cols
// is the last dimension's size and rows the product of the others (element (row, col) is found by
// splitting row into the leading indices); rank 1 is a column (rows = its size, cols = 1: a
// per-row statistic such as a mean[N] lines up with the rows of x[N, C]); rank 0 is one element.
// For rank 2 that is the tensor itself, so Layout2D is its exact view there (as_2d).
inline constexpr int kMaxRank = 6;

struct Layout {
  int rank = 0;
  std::array<std::int64_t, kMaxRank> sizes{};
  std::array<std::int64_t, kMaxRank> strides{};
  std::int64_t offset = 0;

  Layout() = default;
  Layout(const Layout2D& l);  // NOLINT: a rank-2 layout is one (implicit, where a Layout2D is given)

  // Row-major (the last dimension adjacent), offset 0.
  static Layout contiguous(std::span<const std::int64_t> sizes);

  std::int64_t elements() const;
  std::int64_t cols() const { return rank < 2 ? 1 : sizes[rank - 1]; }
  std::int64_t rows() const;
  std::int64_t col_stride() const { return rank < 2 ? 1 : strides[rank - 1]; }
  // Element index (offset counted) of logical (row, col).
  std::int64_t index(std::int64_t row, std::int64_t col) const {
    if (rank == 2) return offset + row * strides[0] + col * strides[1];
    if (rank < 2) return offset + (rank == 1 ? row * strides[0] : 0);
    std::int64_t at = offset + col * strides[rank - 1];
    for (int d = rank - 2; d >= 0; --d) {
      at += (row % sizes[d]) * strides[d];
      row /= sizes[d];
    }
    return at;
  }
  // The indices of logical (row, col), one per dimension.
  std::array<std::int64_t, kMaxRank> indices(std::int64_t row, std::int64_t col) const;
  // Elements from the start of the buffer to one past the last addressed element.
  std::int64_t footprint() const;
  bool contiguous_row_major() const;
  // The rows x cols matrix with one row stride, when the leading dimensions collapse into one
  // (always for rank <= 2); nullopt otherwise.
  std::optional<Layout2D> as_2d() const;

  friend bool operator==(const Layout&, const Layout&) = default;
};

// Why the layout is unusable, or nullopt (rank <= 2: exactly layout_problem of its Layout2D).
std::optional<std::string> layout_problem(const Layout& layout, std::size_t element_bytes, bool is_output);
// "(i,j,k)": an element's indices as a Verdict names them.
std::string index_text(const Layout& layout, std::int64_t row, std::int64_t col);

}  // namespace kverify
