// The kernels of the plain composed ("eager") baselines (ops/softmax and ops/gelu_tanh's
// bench_baseline.cu): one kernel per framework op, each intermediate written to memory in the
// storage dtype. What a framework runs without fusion.
#pragma once

#include <cuda_runtime.h>

#include "bench/device.hpp"
#include "kernels/common/backend_launch.hpp"  // with_storage_type, kv::to_f32 / from_f32
#include "runtime/cuda/check.hpp"

namespace kverify::bench::eager {

constexpr int kThreads = 256;

inline int grid_for(long long n) {
  const long long blocks = (n + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 132 * 32 ? blocks : 132 * 32);  // grid-stride beyond
}

template <typename T, typename F>
__global__ void map1(const T* a, T* out, long long n, F f) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = kv::from_f32<T>(f(kv::to_f32(a[i])));
}
template <typename T, typename F>
__global__ void map2(const T* a, const T* b, T* out, long long n, F f) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = kv::from_f32<T>(f(kv::to_f32(a[i]), kv::to_f32(b[i])));
}
// out[i] = f(a[i], per_row[i / cols])
template <typename T, typename F>
__global__ void map_row(const T* a, const float* per_row, T* out, long long n, long long cols, F f) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = kv::from_f32<T>(f(kv::to_f32(a[i]), per_row[i / cols]));
}

// A row reduction (max or sum, f32): a warp per row up to 1024 columns, else a block per row.
template <typename T, bool kMax>
__global__ void reduce_rows_warp(const T* x, float* out, long long rows, long long cols) {
  const long long row = blockIdx.x * (long long)(blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;
  const int lane = threadIdx.x % 32;
  float acc = kMax ? -INFINITY : 0.f;
  for (long long c = lane; c < cols; c += 32) {
    const float v = kv::to_f32(x[row * cols + c]);
    acc = kMax ? fmaxf(acc, v) : acc + v;
  }
  for (int o = 16; o > 0; o /= 2) {
    const float v = __shfl_xor_sync(0xffffffffu, acc, o);
    acc = kMax ? fmaxf(acc, v) : acc + v;
  }
  if (lane == 0) out[row] = acc;
}
template <typename T, bool kMax>
__global__ void reduce_rows_block(const T* x, float* out, long long cols) {
  __shared__ float part[kThreads / 32];
  const long long row = blockIdx.x;
  float acc = kMax ? -INFINITY : 0.f;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = kv::to_f32(x[row * cols + c]);
    acc = kMax ? fmaxf(acc, v) : acc + v;
  }
  for (int o = 16; o > 0; o /= 2) {
    const float v = __shfl_xor_sync(0xffffffffu, acc, o);
    acc = kMax ? fmaxf(acc, v) : acc + v;
  }
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float r = part[0];
    for (int w = 1; w < kThreads / 32; ++w) r = kMax ? fmaxf(r, part[w]) : r + part[w];
    out[row] = r;
  }
}

template <typename T, bool kMax>
void reduce_rows(const T* x, float* out, long long rows, long long cols, cudaStream_t s) {
  if (cols <= 1024) {
    reduce_rows_warp<T, kMax><<<static_cast<unsigned>((rows + 7) / 8), kThreads, 0, s>>>(x, out, rows, cols);
  } else {
    reduce_rows_block<T, kMax><<<static_cast<unsigned>(rows), kThreads, 0, s>>>(x, out, cols);
  }
  kverify::cuda::check_launch("eager row reduction");
}

// The framework ops, as functors (an extended __device__ lambda cannot live in a generic lambda).
struct Sub {
  __device__ float operator()(float v, float w) const { return v - w; }
};
struct Div {
  __device__ float operator()(float v, float w) const { return v / w; }
};
struct Add {
  __device__ float operator()(float v, float w) const { return v + w; }
};
struct Mul {
  __device__ float operator()(float v, float w) const { return v * w; }
};
struct Exp {
  __device__ float operator()(float v) const { return expf(v); }
};
struct Tanh {
  __device__ float operator()(float v) const { return tanhf(v); }
};
struct Cube {
  __device__ float operator()(float v) const { return v * v * v; }
};
struct Scale {
  float k;
  __device__ float operator()(float v) const { return v * k; }
};
struct OnePlus {
  __device__ float operator()(float v) const { return 1.f + v; }
};

// The first four kernels of an eager softmax, and of log_softmax: each row's max into `row_max`,
// x - max into `shifted`, its exp into `exps` (both in the storage dtype, as the framework keeps
// them), the exps' row sum into `row_sum`.
template <typename T>
void softmax_parts(const T* x, T* shifted, T* exps, float* row_max, float* row_sum, long long rows, long long cols,
                   cudaStream_t s) {
  const long long n = rows * cols;
  const int g = grid_for(n);
  reduce_rows<T, true>(x, row_max, rows, cols, s);
  map_row<<<g, kThreads, 0, s>>>(x, row_max, shifted, n, cols, Sub{});
  map1<<<g, kThreads, 0, s>>>(shifted, exps, n, Exp{});
  reduce_rows<T, false>(exps, row_sum, rows, cols, s);
}

}  // namespace kverify::bench::eager
