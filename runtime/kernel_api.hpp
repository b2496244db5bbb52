// What kverify's kernels include: CUDA with cuda_fp16.h and cuda_bf16.h. Under nvcc it is CUDA
// itself; under a host compiler the emu model of it (runtime/emu/model/cuda_model.hpp, whose surface
// docs/emu-cuda-surface.md lists). Kernels are ordinary CUDA C++ (__half, __nv_bfloat16, vector
// types, extern __shared__, ...); the one addition is kv::to_f32 / kv::from_f32<T>, a single
// spelling of the round-to-nearest conversion between float and each storage type for templates
// over float, __half and __nv_bfloat16 (CUDA's own names differ per type).
#pragma once

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace kv {
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
// cuda_bf16.h.
#include "core/dtype.hpp"
#include "runtime/emu/include/cuda_bf16.h"
#include "runtime/emu/include/cuda_fp16.h"
#include "runtime/emu/model/cuda_model.hpp"

namespace kv {
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
