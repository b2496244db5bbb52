// Deliberately wrong kernels, one bug class from the seeds each, registered as mutants (never
// chosen by variant=auto). The suites must kill every one: the mutation self-test in
// properties/tests/mutants_test.cpp runs the property catalogue against each.
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/gelu_tanh/gelu_tanh_math.cuh"
#include "kernels/matmul_relu/matmul_relu_tiled_smem.cuh"
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


// softmax, a warp per row, masking only the store: lanes read past the row's end (into the next
// row, the padding, or the canary) and those values enter the max and the sum.
template <typename T>
__global__ void softmax_store_only_mask(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  const long long padded = (a.cols + 31) / 32 * 32;  // BUG: loads are not masked
  float max = -INFINITY;
  for (long long c = lane; c < padded; c += 32) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (long long c = lane; c < padded; c += 32) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = warp_reduce(sum, SumOp{});
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

// softmax, a warp per row, assuming unit column strides.
template <typename T>
__global__ void softmax_unit_stride(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  float max = -INFINITY;
  for (long long c = lane; c < a.cols; c += 32) max = fmaxf(max, kv::to_f32(x[c]));  // BUG: x_col_stride ignored
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += expf(kv::to_f32(x[c]) - max);
  sum = warp_reduce(sum, SumOp{});
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c]) - max) / sum);
}

// softmax with a fixed block of 256 threads, each taking 4 columns: rows past 1024 are truncated.
template <typename T>
__global__ void softmax_fixed_block(SoftmaxArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  const long long cols = a.cols < 1024 ? a.cols : 1024;  // BUG: the rest of a wide row is ignored
  float max = MaxOp::identity();
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = block_reduce(max, MaxOp{}, scratch);
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = block_reduce(sum, SumOp{}, scratch);
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

// softmax whose denominator is accumulated in f16 (11 significant bits).
template <typename T>
__global__ void softmax_f16_denominator(SoftmaxArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  float max = MaxOp::identity();
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = block_reduce(max, MaxOp{}, scratch);
  kv::half sum = kv::from_f32<kv::half>(0.0f);  // BUG: the running sum rounds to f16 at every step
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    sum = kv::from_f32<kv::half>(kv::to_f32(sum) + expf(kv::to_f32(x[c * a.x_col_stride]) - max));
  const float total = block_reduce(kv::to_f32(sum), SumOp{}, scratch);
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / total);
}

// softmax, one block per row, with the barrier between the two phases of its block reduction
// missing: a warp may read a partial that another warp has not written yet, or overwrite one.
template <typename T>
__global__ void softmax_missing_barrier(SoftmaxArgs<T> a) {
  __shared__ float partial[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  float max = -INFINITY;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = warp_reduce(max, MaxOp{});
  if (lane == 0) partial[warp] = max;
  // BUG: no __syncthreads() here
  max = lane < warps ? partial[lane] : -INFINITY;
  max = warp_reduce(max, MaxOp{});
  __syncthreads();
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) partial[warp] = sum;
  __syncthreads();
  sum = lane < warps ? partial[lane] : 0.0f;
  sum = warp_reduce(sum, SumOp{});
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

// row_sum, a warp per row, whose lanes past the row add 1 instead of 0 (a non-zero padding).
template <typename T>
__global__ void row_sum_nonzero_padding(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  const long long padded = (a.cols + 31) / 32 * 32;
  float sum = 0.0f;
  for (long long c = lane; c < padded; c += 32)
    sum += c < a.cols ? kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]) : 1.0f;  // BUG: pad 1
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// gelu_tanh with the cubic coefficient 0.0447 (instead of 0.044715), or with the erf GELU.
template <typename T, int kWhich>
__global__ void gelu_wrong_formula(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    const float x = kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride]);
    float y;
    if (kWhich == 0) {
      y = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.0447f * x * x * x)));  // BUG: 0.0447
    } else {
      y = 0.5f * x * (1.0f + erff(x * 0.70710678f));  // BUG: the erf GELU, not the tanh approximation
    }
    a.y[r * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(y);
  }
}

// matmul_relu, one thread per output, K walked in tiles of 16, each with one of four bugs:
//   kBug 0: ReLU applied to every K tile's partial sum
//   kBug 1: the K tail is not masked (reads A and B past K)
//   kBug 2: the M/N tail store is not masked (writes past C's edge)
//   kBug 3: A read as row-major whatever its strides
template <typename T, int kBug>
__global__ void matmul_buggy(MatmulReluArgs<T> a) {
  const long long n = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long m = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y;
  // BUG 2 leaves only the N tail unmasked: its stray stores stay within 15 elements of a row's end
  // (the row gap, or the buffer's back canary for the last row), never further.
  if (m >= a.m || (kBug != 2 && n >= a.n)) return;
  float acc = 0.0f;
  if (n < a.n) {
    const long long k_end = kBug == 1 ? (a.k + 15) / 16 * 16 : a.k;
    for (long long k0 = 0; k0 < k_end; k0 += 16) {
      for (long long k = k0; k < k0 + 16 && k < k_end; ++k) {
        const long long a_index = kBug == 3 ? m * a.k + k : m * a.a_row_stride + k * a.a_col_stride;
        acc = fmaf(kv::to_f32(a.a[a_index]), kv::to_f32(a.b[k * a.b_row_stride + n * a.b_col_stride]), acc);
      }
      if (kBug == 0) acc = acc > 0.0f ? acc : 0.0f;  // BUG 0: ReLU per K tile
    }
  }
  const float y = acc > 0.0f ? acc : (acc != acc ? acc : 0.0f);
  a.c[m * a.c_row_stride + n * a.c_col_stride] = kv::from_f32<T>(y);  // BUG 2 writes past M/N too
}

}  // namespace kverify::kernels::mutants
