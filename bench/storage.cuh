// Storage types of the baselines: f32, f16, bf16 as CUDA's own types, f32 arithmetic.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <stdexcept>

#include "core/dtype.hpp"

namespace kverify::bench {

__device__ __forceinline__ float load_f32(float v) { return v; }
__device__ __forceinline__ float load_f32(__half v) { return __half2float(v); }
__device__ __forceinline__ float load_f32(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T>
__device__ __forceinline__ T store_as(float v);
template <>
__device__ __forceinline__ float store_as<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half store_as<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 store_as<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

template <typename F>
void with_storage(DType d, F&& f) {
  switch (d) {
    case DType::f32: f.template operator()<float>(); return;
    case DType::f16: f.template operator()<__half>(); return;
    case DType::bf16: f.template operator()<__nv_bfloat16>(); return;
    default: throw std::invalid_argument("the bench baselines take f32, f16 or bf16");
  }
}

}  // namespace kverify::bench
