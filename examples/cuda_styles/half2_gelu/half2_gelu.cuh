// gelu_tanh for f16 as a kernel engineer writes it: half2 loads and stores over a dense tensor
// (two elements per thread, math in f32), one scalar launch for an odd last element, and a
// strided kernel for any other layout. kDropTail plants the bug of its mutant: the odd last
// element is never written.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/common/backend_launch.hpp"  // check_launch: a refused launch names the kernel

// kverify compiles this header once per backend into one binary: the unnamed namespace keeps the
// two copies apart.
namespace half2_gelu {
namespace {

// 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)): finite for every finite x (exp overflows to +inf for
// very negative x, and x / inf is -0, the contract's sign); -inf would give -inf / inf = NaN.
__device__ __forceinline__ float gelu(float x) {
  if (x == -INFINITY) return -0.0f;
  const float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
  return x / (1.0f + expf(-2.0f * u));
}

__global__ void gelu_pairs(const __half2* __restrict__ x, __half2* __restrict__ y, long long pairs) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < pairs; i += step) {
    const float2 v = __half22float2(__ldg(x + i));
    y[i] = __floats2half2_rn(gelu(v.x), gelu(v.y));
  }
}

__global__ void gelu_one(const __half* x, __half* y) { *y = __float2half_rn(gelu(__half2float(*x))); }

__global__ void gelu_strided(const __half* x, __half* y, long long rows, long long cols, long long xrs, long long xcs,
                             long long yrs, long long ycs) {
  const long long n = rows * cols, step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += step) {
    const long long r = i / cols, c = i % cols;
    y[r * yrs + c * ycs] = __float2half_rn(gelu(__half2float(x[r * xrs + c * xcs])));
  }
}

inline unsigned blocks_for(long long items) {
  const long long b = (items + 255) / 256;
  return static_cast<unsigned>(b < 4096 ? b : 4096);
}

// The launcher as the kernel's own code calls it: n dense elements.
template <bool kDropTail = false>
void gelu_dense(const __half* x, __half* y, long long n, cudaStream_t stream) {
  const long long pairs = n / 2;
  if (pairs > 0)
    gelu_pairs<<<blocks_for(pairs), 256, 0, stream>>>(reinterpret_cast<const __half2*>(x),
                                                      reinterpret_cast<__half2*>(y), pairs);
  if (n % 2 == 1 && !kDropTail) gelu_one<<<1, 1, 0, stream>>>(x + n - 1, y + n - 1);
}

// kverify's request mapped onto it: x and y in the op's order (x, then y), any layout.
template <bool kDropTail = false>
void launch(const kverify::LaunchRequest& r) {
  const kverify::Layout2D& xl = r.tensors[0].layout;
  const kverify::Layout2D& yl = r.tensors[1].layout;
  const auto* x = static_cast<const __half*>(r.tensors[0].data);
  auto* y = static_cast<__half*>(r.tensors[1].data);
  const auto stream = static_cast<cudaStream_t>(r.stream);
  const bool pairs_aligned =
      reinterpret_cast<std::uintptr_t>(x) % 4 == 0 && reinterpret_cast<std::uintptr_t>(y) % 4 == 0;
  if (xl.contiguous_row_major() && yl.contiguous_row_major() && pairs_aligned)
    gelu_dense<kDropTail>(x, y, xl.rows * xl.cols, stream);
  else
    gelu_strided<<<blocks_for(xl.rows * xl.cols), 256, 0, stream>>>(x, y, xl.rows, xl.cols, xl.row_stride,
                                                                    xl.col_stride, yl.row_stride, yl.col_stride);
  kverify::check_launch("half2_gelu");
}

}  // namespace
}  // namespace half2_gelu
