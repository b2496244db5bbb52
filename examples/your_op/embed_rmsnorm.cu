// embed_rmsnorm's kernel as a kernel engineer writes it: a block per token gathers its table row,
// sums the squares in f32 (a strided loop per thread, a warp shuffle tree, the warps' partials
// through shared memory), and writes rstd and the normalised row. Its launcher takes the op's
// tensors, sizes and parameter in the op's order (SIGNATURE tensors): kverify derives the call from
// the op's declaration (embed_rmsnorm_op.cpp).
//
// kPaddedMean plants the bug of its mutant: the mean square divides by the width rounded up to the
// block's 32-lane tiles instead of the width (a padded reduction's length), wrong at every width
// that is not a multiple of 32 and right at the powers of two a KernelBench-style check uses.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace embed_rmsnorm {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __half from_float<__half>(float v) {
  return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

constexpr int kThreads = 256;

// Where each tensor's elements are, in elements (the contiguous launcher's are row-major).
struct Strides {
  long long ids, table_row, table_col, w, y_row, y_col, rstd;
};

template <typename T, bool kPaddedMean>
__global__ void __launch_bounds__(kThreads) embed_rmsnorm_kernel(const int* ids, const T* table, const T* w, T* y,
                                                                 float* rstd, int width, float eps, Strides s) {
  __shared__ float partial[kThreads / 32];
  const int t = blockIdx.x;
  const T* row = table + static_cast<long long>(ids[t * s.ids]) * s.table_row;
  float sum = 0.0f;
  for (int c = threadIdx.x; c < width; c += kThreads) {
    const float x = to_float(row[c * s.table_col]);
    sum += x * x;
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < kThreads / 32 ? partial[threadIdx.x] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (threadIdx.x == 0) partial[0] = sum;
  }
  __syncthreads();
  const int length = kPaddedMean ? (width + 31) / 32 * 32 : width;
  const float r = rsqrtf(partial[0] / static_cast<float>(length) + eps);
  if (threadIdx.x == 0) rstd[t * s.rstd] = r;
  T* out = y + t * s.y_row;
  for (int c = threadIdx.x; c < width; c += kThreads)
    out[c * s.y_col] = from_float<T>(to_float(row[c * s.table_col]) * r * to_float(w[c * s.w]));
}

// ids[T], table[V, C], w[C] -> y[T, C], rstd[T]; contiguous, sizes below 2^31.
template <typename T, bool kPaddedMean = false>
void forward(const int* ids, const T* table, const T* w, T* y, float* rstd, int tokens, int vocab, int width, float eps,
             cudaStream_t stream) {
  (void)vocab;  // the ids are in range: the op's contract
  if (tokens == 0) return;
  const Strides contiguous{1, width, 1, 1, width, 1, 1};
  embed_rmsnorm_kernel<T, kPaddedMean><<<tokens, kThreads, 0, stream>>>(ids, table, w, y, rstd, width, eps, contiguous);
}

// The same over any layout: each tensor's strides after the sizes (SIGNATURE tensors_strided).
template <typename T>
void forward_strided(const int* ids, const T* table, const T* w, T* y, float* rstd, long long tokens, long long vocab,
                     long long width, long long ids_stride, long long table_row_stride, long long table_col_stride,
                     long long w_stride, long long y_row_stride, long long y_col_stride, long long rstd_stride,
                     float eps, cudaStream_t stream) {
  (void)vocab;
  if (tokens == 0) return;
  const Strides s{ids_stride, table_row_stride, table_col_stride, w_stride, y_row_stride, y_col_stride, rstd_stride};
  embed_rmsnorm_kernel<T, false>
      <<<static_cast<unsigned>(tokens), kThreads, 0, stream>>>(ids, table, w, y, rstd, static_cast<int>(width), eps, s);
}

}  // namespace embed_rmsnorm
