// The one header a kernel includes. Under nvcc it is CUDA itself; under a host compiler it is the
// emu model of CUDA (runtime/emu/cuda_model.hpp). Kernels are written once against this surface:
//   threadIdx/blockIdx/blockDim/gridDim, __syncthreads, __syncwarp, __shfl_*_sync, __ballot_sync,
//   __any_sync, __all_sync, atomics, __shared__, KV_DYNAMIC_SHARED(T, name), CUDA math functions,
//   and the storage types kv::half / kv::bfloat16 with kv::to_f32 / kv::from_f32<T>.
#pragma once

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define KV_DYNAMIC_SHARED(T, name)                                    \
  extern __shared__ __align__(16) unsigned char kv_dynamic_shared_[]; \
  T* name = reinterpret_cast<T*>(kv_dynamic_shared_)

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
#include "core/dtype.hpp"
#include "runtime/emu/cuda_model.hpp"

namespace kv {
using half = ::kverify::f16;
using bfloat16 = ::kverify::bf16;
using ::kverify::from_f32;
using ::kverify::to_f32;
}  // namespace kv
#endif
