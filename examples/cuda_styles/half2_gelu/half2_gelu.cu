// gelu_tanh for f16 as a kernel engineer writes it: half2 loads and stores over a dense tensor
// (two elements per thread, math in f32) and one scalar launch for an odd last element. Dense and
// 4-byte aligned only: kverify hears that from the registration (SIGNATURE flat, ACCEPTS
// aligned=4) and skips every other layout. kDropTail plants the bug of its mutant: the odd last
// element is never written.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace half2_gelu {

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

inline unsigned blocks_for(long long items) {
  const long long b = (items + 255) / 256;
  return static_cast<unsigned>(b < 4096 ? b : 4096);
}

// The launcher as the kernel's own code calls it: n dense elements, x and y 4-byte aligned.
template <bool kDropTail = false>
void gelu_dense(const __half* x, __half* y, long long n, cudaStream_t stream) {
  const long long pairs = n / 2;
  if (pairs > 0)
    gelu_pairs<<<blocks_for(pairs), 256, 0, stream>>>(reinterpret_cast<const __half2*>(x),
                                                      reinterpret_cast<__half2*>(y), pairs);
  if (n % 2 == 1 && !kDropTail) gelu_one<<<1, 1, 0, stream>>>(x + n - 1, y + n - 1);
}

}  // namespace half2_gelu
