// Host vectors seen as the TensorViews an op's reference reads, for the ops' reference tests.
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor_view.hpp"

namespace kverify::test_views {

inline TensorView f64_view(const std::vector<double>& v, Layout2D layout) {
  return {reinterpret_cast<const unsigned char*>(v.data()), layout, DType::f64};
}

// `v` as `rows` x `cols` float64, row-major.
inline TensorView f64_rows(const std::vector<double>& v, std::int64_t rows, std::int64_t cols) {
  return f64_view(v, Layout2D::row_major(rows, cols));
}

}  // namespace kverify::test_views
