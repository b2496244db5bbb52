// gelu_tanh, any layout: a grid-stride loop over the rows x cols elements with 64-bit indices,
// each element read through x's strides and written through y's (independent strides and offsets;
// the pointers already point at element (0,0)). The launcher orders the loop so that consecutive
// threads write neighbouring y elements (it swaps rows and columns for a column-major y).
// The contract and the arithmetic: kernels/gelu_tanh/gelu_tanh_math.cuh.
#pragma once

#include "kernels/gelu_tanh/gelu_tanh_math.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T>
struct GeluStridedArgs {
  const T* x;
  T* y;
  long long rows, cols;  // in the loop's order: cols is the fast dimension
  long long x_row_stride, x_col_stride;
  long long y_row_stride, y_col_stride;
};

template <typename T>
__global__ void __launch_bounds__(256) gelu_tanh_strided(GeluStridedArgs<T> a) {
  const long long n = a.rows * a.cols;
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const long long r = i / a.cols;
    const long long c = i - r * a.cols;
    const float v = kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride]);
    a.y[r * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(gelu_tanh_f32(v));
  }
}

}  // namespace kverify::kernels
