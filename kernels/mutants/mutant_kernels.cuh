// Deliberately wrong kernels, one bug class from the seeds each, registered as mutants (never
// chosen by variant=auto). The suites must kill every one: the mutation self-test in
// properties/tests/mutants_test.cpp runs the property catalogue against each.
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/gelu_tanh/gelu_tanh_math.cuh"
#include "kernels/row_sum/row_sum_kernels.cuh"
#include "kernels/softmax/softmax_block_per_row.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels::mutants {

// softmax, a warp per row: lanes past the row pad the max with 0 instead of -inf. A row of only
// negative values then reports a max of 0 and, far enough below it, every exp underflows.
template <typename T>
__global__ void softmax_zero_padding(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  float max = 0.0f;  // BUG: the padding must lose every max (-inf)
  for (long long c = lane; c < a.cols; c += 32) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = warp_reduce(sum, SumOp{});
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

// softmax, a warp per row, without subtracting the max: exp overflows for logits above ~88.
template <typename T>
__global__ void softmax_no_max_subtraction(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += expf(kv::to_f32(x[c * a.x_col_stride]));  // BUG
  sum = warp_reduce(sum, SumOp{});
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride])) / sum);
}

// row_sum, a warp per row, that drops the last partial tile of 32 columns.
template <typename T>
__global__ void row_sum_drop_tail(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  const long long full = a.cols / 32 * 32 > 0 ? a.cols / 32 * 32 : a.cols;  // BUG: the tail is lost
  float sum = 0.0f;
  for (long long c = lane; c < full; c += 32) sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// row_sum that never writes its last row (an output tail never written).
template <typename T>
__global__ void row_sum_skip_last_row(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows - 1 && a.rows > 1) return;  // BUG
  const unsigned lane = threadIdx.x % 32;
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

template <typename T>
struct ElementwiseArgs {
  T* x;  // not const: one mutant writes into it
  T* y;
  long long rows, cols, x_row_stride, x_col_stride, y_row_stride, y_col_stride;
};

// gelu_tanh with tanh written as (e^2u - 1) / (e^2u + 1): inf / inf = NaN from x ~ 10 on.
template <typename T>
__global__ void gelu_exp_tanh(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    const float x = kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride]);
    const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
    const float e = expf(2.0f * u);
    a.y[r * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(0.5f * x * (1.0f + (e - 1.0f) / (e + 1.0f)));  // BUG
  }
}

// gelu_tanh, correct, that also writes into its input.
template <typename T>
__global__ void gelu_writes_input(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    T* x = &a.x[r * a.x_row_stride + c * a.x_col_stride];
    const float v = kv::to_f32(*x);
    a.y[r * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(gelu_tanh_f32(v));
    *x = kv::from_f32<T>(0.0f);  // BUG
  }
}

}  // namespace kverify::kernels::mutants
