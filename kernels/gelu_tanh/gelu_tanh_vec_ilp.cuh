// gelu_tanh over one contiguous, 16-byte aligned run of n elements (the same precondition as
// gelu_tanh_contiguous_vec.cuh; its launcher checks it and runs gelu_tanh_strided otherwise), with
// more bytes in flight: each thread loads kUnroll 16-byte vectors (blockDim apart, so a warp's
// accesses stay coalesced) before computing any of them, in a grid-stride loop over tiles of
// blockDim * kUnroll vectors. Out-of-range vectors of the last tile are neither read nor written;
// the n % V tail elements go to the first threads of the grid, one each.
// The contract and the arithmetic: kernels/gelu_tanh/gelu_tanh_math.cuh; f32 storage uses it as is.
//
// f16/bf16 storage moves half the bytes per element, so the arithmetic decides the time (2^28
// elements: ~0.25 ms of memory). gelu_tanh_f32_16 computes y = x sigmoid(t) in fewer instructions
// than gelu_tanh_math.cuh's form (ncu on the H200: 28.7 instructions per element there), each step
// within what the f16/bf16 policy's extra output ulp leaves:
//   xc = max(x, -16) (NaN kept); t2 = t log2 e = xc (A xc^2 + B), A and B the f32 constants
//   sqrt(8/pi) log2 e times 0.044715 and 1 (5 roundings: 2.5 eps32 relative, the policy's t allows 3);
//   e = exp2f(-|t2|) (2 ulp; subnormal results kept, no flush: x near -10 gives e ~ 2^-127 and
//   y ~ 2^-123, above bf16's 2^-126 floor); r = __fdividef(1, 1 + e) (1 + e in [1, 2]: 2 ulp);
//   s = r for t >= 0, e r for t < 0 (sigmoid(t) either way); y = xc s.
// Relative error of y, in eps32: t >= 0, (2 + 2.5 |t|) e / (1 + e) + 3 (1 + e, the division, the
// product); t < 0, (2 + 2.5 |t|) / (1 + e) + 3.5 (s = e r moves with e by 1 / (1 + e); one product
// more). In both the |t| part is 2.5 |t| (1 - sigmoid t), 2.5 times the policy's condition against
// its 3, and the rest at most 5.5 against its 4: 1.5 eps32
// more, against half an output ulp left by the final rounding (>= 2^-9 |y| = 2^14 eps32 for bf16,
// 2^-12 |y| for f16; below f16's normal range its 2^-24 floor). The limits: x >= 16 gives e = 0,
// s = 1, y = x (also +inf and values whose x^2 overflows: t2 = inf); x <= -16 (and -inf) computes
// at xc = -16, where e = 2^-458 = 0 and y = -16 * 0 = -0; +-0 keep their sign (t2 = +-0 >= 0,
// s = 1/2); NaN stays NaN. The policy (ops/gelu_tanh/reference.cpp) is unchanged and every test of
// it still applies.
#pragma once

#include <type_traits>

#include "kernels/gelu_tanh/gelu_tanh_contiguous_vec.cuh"  // GeluVector, GeluContiguousArgs
#include "kernels/gelu_tanh/gelu_tanh_math.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

inline constexpr int kGeluUnroll = 4;

__device__ __forceinline__ float gelu_tanh_f32_16(float x) {
  constexpr float kB = 1.5957691216057308f * 1.4426950408889634f;  // sqrt(8/pi) log2 e
  constexpr float kA = kB * 0.044715f;
  const float xc = x < -16.0f ? -16.0f : x;
  const float t2 = xc * fmaf(kA, xc * xc, kB);
  const float e = exp2f(-fabsf(t2));
  const float r = __fdividef(1.0f, 1.0f + e);
  return xc * (t2 >= 0.0f ? r : e * r);
}

template <typename T>
__device__ __forceinline__ float gelu_tanh_storage(float x) {
  if constexpr (sizeof(T) == 2)
    return gelu_tanh_f32_16(x);
  else
    return gelu_tanh_f32(x);
}

// GELU of every lane of v, in place. 16-bit lanes are rounded two at a time (one packed
// conversion instruction for a pair, where lane by lane took one each).
template <typename T>
__device__ __forceinline__ void convert_gelu_vector(GeluVector<T>& v) {
  constexpr int kLanes = GeluVector<T>::kLanes;
  if constexpr (std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>) {
#pragma unroll
    for (int k = 0; k < kLanes; k += 2) {
      const float y0 = gelu_tanh_f32_16(kv::to_f32(v.lane[k])), y1 = gelu_tanh_f32_16(kv::to_f32(v.lane[k + 1]));
      if constexpr (std::is_same_v<T, __nv_bfloat16>) {
        const __nv_bfloat162 pair = __floats2bfloat162_rn(y0, y1);
        v.lane[k] = pair.x;
        v.lane[k + 1] = pair.y;
      } else {
        const __half2 pair = __floats2half2_rn(y0, y1);
        v.lane[k] = pair.x;
        v.lane[k + 1] = pair.y;
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < kLanes; ++k) v.lane[k] = kv::from_f32<T>(gelu_tanh_storage<T>(kv::to_f32(v.lane[k])));
  }
}

template <typename T>
__global__ void __launch_bounds__(256) gelu_tanh_vec_ilp(GeluContiguousArgs<T> a) {
  using Vec = GeluVector<T>;
  constexpr int kLanes = Vec::kLanes;
  const Vec* __restrict__ xv = reinterpret_cast<const Vec*>(a.x);
  Vec* __restrict__ yv = reinterpret_cast<Vec*>(a.y);
  const long long vectors = a.n / kLanes;
  const long long tile = static_cast<long long>(blockDim.x) * kGeluUnroll;
  const long long step = static_cast<long long>(gridDim.x) * tile;
  long long base = static_cast<long long>(blockIdx.x) * tile + threadIdx.x;
  // Whole tiles: kGeluUnroll unconditional loads in flight. (With each load guarded ptxas took 58
  // registers for bf16 and 64 for f32, 4 blocks per SM; unguarded 32 and 46: bf16 0.92 -> 0.93 and
  // f32 0.94 -> 0.97 of the copy ceiling on the H200, reports/h200/perf.md Version 8.)
#pragma unroll 1
  for (; base + tile - blockDim.x < vectors; base += step) {
    Vec v[kGeluUnroll];
#pragma unroll
    for (int u = 0; u < kGeluUnroll; ++u) v[u] = xv[base + static_cast<long long>(u) * blockDim.x];
#pragma unroll
    for (int u = 0; u < kGeluUnroll; ++u) {
      convert_gelu_vector(v[u]);
      yv[base + static_cast<long long>(u) * blockDim.x] = v[u];
    }
  }
  // The last, partial tile (at most one per thread).
  if (base < vectors) {
#pragma unroll 1
    for (int u = 0; u < kGeluUnroll; ++u) {
      const long long i = base + static_cast<long long>(u) * blockDim.x;
      if (i < vectors) {
        Vec v = xv[i];
        convert_gelu_vector(v);
        yv[i] = v;
      }
    }
  }
  // The tail: fewer than kLanes (<= 8) elements, and the grid has at least 256 threads.
  const long long tail = vectors * kLanes + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tail < a.n) a.y[tail] = kv::from_f32<T>(gelu_tanh_storage<T>(kv::to_f32(a.x[tail])));
}

}  // namespace kverify::kernels
