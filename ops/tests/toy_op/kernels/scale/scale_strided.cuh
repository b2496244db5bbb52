// scale, any layout: a grid-stride loop over rows x cols, 64-bit indices.
#pragma once

#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T>
struct ScaleArgs {
  const T* x;
  T* y;
  long long rows, cols, x_row_stride, x_col_stride, y_row_stride, y_col_stride;
};

template <typename T>
__global__ void scale_strided(ScaleArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    a.y[r * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(2.0f * kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride]));
  }
}

}  // namespace kverify::kernels
