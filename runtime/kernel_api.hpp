// The one header a kernel includes. Under nvcc it is CUDA itself; under a host compiler it is the
// emu model of CUDA (runtime/emu/cuda_model.hpp). Kernels are written once against this surface:
//   threadIdx/blockIdx/blockDim/gridDim, __syncthreads, __syncwarp, __shfl_*_sync, __ballot_sync,
//   __any_sync, __all_sync, atomics, __shared__, KV_DYNAMIC_SHARED(T, name), CUDA math functions,
//   and the storage types kv::half / kv::bfloat16 with kv::to_f32 / kv::from_f32<T>.
#pragma once

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace kv {
using half = __half;
using bfloat16 = __nv_bfloat16;
__device__ __forceinline__ float to_f32(float v) { return v; }
__device__ __forceinline__ float to_f32(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_f32(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T>
__device__ __forceinline__ T from_f32(float v);
template <>
__device__ __forceinline__ float from_f32<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __half from_f32<__half>(float v) {
  return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_f32<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}
}  // namespace kv

#else
// The emu model of what nvcc gives every .cu file (cuda_runtime.h) plus cuda_fp16.h and
// cuda_bf16.h: kv::half is CUDA's __half on both backends.
#include "core/dtype.hpp"
#include "runtime/emu/cuda_model.hpp"
#include "runtime/emu/include/cuda_bf16.h"
#include "runtime/emu/include/cuda_fp16.h"

namespace kv {
using half = __half;
using bfloat16 = __nv_bfloat16;
constexpr float to_f32(float v) { return v; }
constexpr float to_f32(__half v) { return __half2float(v); }
constexpr float to_f32(__nv_bfloat16 v) { return __bfloat162float(v); }
// kverify's raw-bits storage types convert too (host code holding f16/bf16 images).
constexpr float to_f32(::kverify::f16 v) { return ::kverify::to_f32(v); }
constexpr float to_f32(::kverify::bf16 v) { return ::kverify::to_f32(v); }
template <typename T>
constexpr T from_f32(float v) {
  if constexpr (std::is_same_v<T, float>)
    return v;
  else if constexpr (std::is_same_v<T, __half>)
    return __float2half_rn(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __float2bfloat16_rn(v);
  else
    return ::kverify::from_f32<T>(v);
}
}  // namespace kv
#endif
