// An example of a user's own kernel variant: row softmax, one block of 256 threads per row,
// three passes over the row (max, sum of exp, write), block reductions through a shared-memory
// tree. Ordinary CUDA C++: nvcc compiles it for the GPU, and the host compiler for emu after
// kverify_emu_rewrite has turned its <<<>>> launch into a call of emu's launch.
//
// kverify_add_variant compiles this header twice, once per backend, into one binary: everything
// here has internal linkage (the unnamed namespace), so the two copies never meet at link time.
#pragma once

#include "kernels/common/backend_launch.hpp"  // with_storage_type, LaunchRequest, launch_stream

namespace {

constexpr unsigned kThreads = 256;

// Every thread gets the reduction of `v` over the block (kThreads threads).
template <bool kMax>
__device__ float block_reduce(float v, float* scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (unsigned half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      const float a = scratch[threadIdx.x], b = scratch[threadIdx.x + half];
      scratch[threadIdx.x] = kMax ? fmaxf(a, b) : a + b;
    }
    __syncthreads();
  }
  const float result = scratch[0];
  __syncthreads();  // scratch is reused by the next reduction
  return result;
}

template <typename T>
__global__ void __launch_bounds__(kThreads) my_softmax_kernel(const T* x, T* y, long long cols, long long x_rs,
                                                              long long x_cs, long long y_rs, long long y_cs) {
  __shared__ float scratch[kThreads];
  const long long row = blockIdx.x;
  const T* xr = x + row * x_rs;
  T* yr = y + row * y_rs;
  // -inf pads the max; a NaN is dropped by fmaxf but comes back through exp(NaN - max) in the sum,
  // so a row with a NaN or a +inf comes out all NaN, as the contract says.
  float max = -INFINITY;
  for (long long c = threadIdx.x; c < cols; c += kThreads) max = fmaxf(max, kv::to_f32(xr[c * x_cs]));
  max = block_reduce<true>(max, scratch);
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < cols; c += kThreads) sum += expf(kv::to_f32(xr[c * x_cs]) - max);
  sum = block_reduce<false>(sum, scratch);
  for (long long c = threadIdx.x; c < cols; c += kThreads)
    yr[c * y_cs] = kv::from_f32<T>(expf(kv::to_f32(xr[c * x_cs]) - max) / sum);
}

// The launcher kverify calls: tensors in the op's order (softmax: x, then y), any strides.
void my_softmax_launch(const kverify::LaunchRequest& r) {
  kverify::with_storage_type(r.dtype, [&]<typename T>() {
    const kverify::DeviceTensor& x = r.tensors[0];
    const kverify::DeviceTensor& y = r.tensors[1];
    my_softmax_kernel<T><<<static_cast<unsigned>(x.layout.rows), kThreads, 0, kverify::launch_stream(r)>>>(
        static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.cols, x.layout.row_stride, x.layout.col_stride,
        y.layout.row_stride, y.layout.col_stride);
  });
}

}  // namespace
