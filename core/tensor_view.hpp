// A read-only view of one stored tensor (its bytes as the kernel saw them), for the references
// and the comparison: element (r, c) widened exactly to f64.
#pragma once

#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace kverify {

struct TensorView {
  const unsigned char* base = nullptr;  // element index 0 of the layout (offset counted from here)
  Layout2D layout;
  DType dtype = DType::f32;

  std::int64_t rows() const { return layout.rows; }
  std::int64_t cols() const { return layout.cols; }
  const unsigned char* bytes_at(std::int64_t r, std::int64_t c) const {
    return base + static_cast<std::size_t>(layout.index(r, c)) * size_of(dtype);
  }
  double at(std::int64_t r, std::int64_t c) const { return load_as_f64(dtype, bytes_at(r, c)); }
};

}  // namespace kverify
