// When gelu_tanh's 16-byte vector path applies: host-side rules shared by the registry's auto_when
// (kernels/gelu_tanh/variants.cpp, which sees the Case) and the contiguous_vec launcher
// (kernels/gelu_tanh/launchers.inl, which sees the device pointers).
//
// It applies when x and y are each one dense run of rows x cols elements in the same element
// order (both row-major, or both column-major; a single row or column is both), so that element k
// of x's run is element k of y's, and both runs start on a 16-byte boundary.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/layout.hpp"

namespace kverify::kernels::gelu_tanh {

inline constexpr std::size_t kVectorAlignment = 16;

inline bool dense_row_major(const Layout2D& l) { return l.contiguous_row_major(); }
inline bool dense_col_major(const Layout2D& l) {
  return (l.rows == 1 || l.row_stride == 1) && (l.cols == 1 || l.col_stride == l.rows);
}

// x and y are each one dense run, element k of one being element k of the other.
inline bool same_dense_order(const Layout2D& x, const Layout2D& y) {
  return (dense_row_major(x) && dense_row_major(y)) || (dense_col_major(x) && dense_col_major(y));
}

// `x_address` and `y_address`: the byte addresses of element (0,0) (or anything congruent to them
// modulo 16: the auto rule passes offset * element size, the buffers starting 16-byte aligned).
inline bool vector_path_applies(const Layout2D& x, std::uintptr_t x_address, const Layout2D& y,
                                std::uintptr_t y_address) {
  return same_dense_order(x, y) && x_address % kVectorAlignment == 0 && y_address % kVectorAlignment == 0;
}

}  // namespace kverify::kernels::gelu_tanh
