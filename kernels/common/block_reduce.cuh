// Block-wide reductions of one f32 per thread: a butterfly inside each warp, then the warps'
// partials through shared memory. blockDim.x must be a multiple of 32 (every lane exists).
#pragma once

#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

struct MaxOp {
  static constexpr float identity() { return -INFINITY; }  // padding that loses every max
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  static constexpr float identity() { return 0.0f; }
  __device__ float operator()(float a, float b) const { return a + b; }
};

template <typename Op>
__device__ __forceinline__ float warp_reduce(float v, Op op) {
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// Every thread gets the block's result. `scratch` holds at least 32 floats of shared memory.
template <typename Op>
__device__ __forceinline__ float block_reduce(float v, Op op, float* scratch) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  v = warp_reduce(v, op);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = lane < blockDim.x / 32 ? scratch[lane] : Op::identity();
  v = warp_reduce(v, op);
  __syncthreads();  // scratch is reused by the next reduction
  return v;
}

}  // namespace kverify::kernels
