// gelu_tanh over one contiguous run of n elements (x and y each one dense run, in the same element
// order, both 16-byte aligned; the launcher checks this and otherwise runs gelu_tanh_strided):
// 16-byte vector loads and stores, 4 f32 or 8 f16/bf16 per access, in a grid-stride loop; the
// n % V elements after the last whole vector (the tail) are done one per thread by the first
// threads of the grid. The contract and the arithmetic: kernels/gelu_tanh/gelu_tanh_math.cuh.
//
// The vector type is a struct of V storage values with alignas(16): under nvcc an access through
// it is one 16-byte load/store (ld.global.v4 / st.global.v4, the pattern PyTorch's aligned_vector
// uses); on emu it is a 16-byte struct copy, and the asan flavor's UBSan checks its alignment.
#pragma once

#include "kernels/gelu_tanh/gelu_tanh_math.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

inline constexpr int kGeluVectorBytes = 16;

template <typename T>
struct alignas(kGeluVectorBytes) GeluVector {
  static constexpr int kLanes = kGeluVectorBytes / static_cast<int>(sizeof(T));
  T lane[kLanes];
};

template <typename T>
struct GeluContiguousArgs {
  const T* x;  // 16-byte aligned
  T* y;        // 16-byte aligned
  long long n;
};

template <typename T>
__global__ void __launch_bounds__(256) gelu_tanh_contiguous_vec(GeluContiguousArgs<T> a) {
  using Vec = GeluVector<T>;
  constexpr int kLanes = Vec::kLanes;
  const Vec* __restrict__ xv = reinterpret_cast<const Vec*>(a.x);
  Vec* __restrict__ yv = reinterpret_cast<Vec*>(a.y);
  const long long vectors = a.n / kLanes;
  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = first; i < vectors; i += step) {
    Vec v = xv[i];
    for (int k = 0; k < kLanes; ++k) v.lane[k] = kv::from_f32<T>(gelu_tanh_f32(kv::to_f32(v.lane[k])));
    yv[i] = v;
  }
  // The tail: fewer than kLanes (<= 8) elements, and the grid has at least 256 threads.
  const long long tail = vectors * kLanes + first;
  if (tail < a.n) a.y[tail] = kv::from_f32<T>(gelu_tanh_f32(kv::to_f32(a.x[tail])));
}

}  // namespace kverify::kernels
