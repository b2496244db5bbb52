// A read-only view of one stored tensor (its bytes as the kernel saw them), for the references
// and the comparison: element (row, col) of its logical rows x cols (core/layout.hpp), or element
// (i, j, k, ...) by its indices, widened exactly to f64.
#pragma once

#include <initializer_list>

#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace kverify {

struct TensorView {
  const unsigned char* base = nullptr;  // element index 0 of the layout (offset counted from here)
  Layout layout;
  DType dtype = DType::f32;

  std::int64_t rows() const { return layout.rows(); }
  std::int64_t cols() const { return layout.cols(); }
  // The size of dimension d.
  std::int64_t size(int d) const { return layout.sizes[static_cast<std::size_t>(d)]; }
  const unsigned char* bytes_at(std::int64_t r, std::int64_t c) const {
    return base + static_cast<std::size_t>(layout.index(r, c)) * size_of(dtype);
  }
  double at(std::int64_t r, std::int64_t c) const { return load_as_f64(dtype, bytes_at(r, c)); }
  // By indices, one per dimension: x.element({n, c}), q.element({b, h, t, d}).
  double element(std::initializer_list<std::int64_t> indices) const {
    std::int64_t at_index = layout.offset;
    int d = 0;
    for (const std::int64_t i : indices) at_index += i * layout.strides[static_cast<std::size_t>(d++)];
    return load_as_f64(dtype, base + static_cast<std::size_t>(at_index) * size_of(dtype));
  }
};

}  // namespace kverify
