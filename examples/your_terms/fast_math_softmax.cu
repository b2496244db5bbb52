// A block-per-row softmax (one warp for rows of up to 32 columns, else 128 threads) built with nvcc
// --use_fast_math (its CMake says so): expf is __expf and subnormals flush to zero. Correct under
// the fast-math tolerance, outside the default one.
#include <cuda_runtime.h>

namespace fast_math_softmax {

constexpr int kThreads = 128;  // the most a block has; narrow rows take one warp (softmax)

template <bool kMax>
__device__ float block_reduce(float v, float* tree) {
  tree[threadIdx.x] = v;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      tree[threadIdx.x] =
          kMax ? fmaxf(tree[threadIdx.x], tree[threadIdx.x + half]) : tree[threadIdx.x] + tree[threadIdx.x + half];
    __syncthreads();
  }
  const float result = tree[0];
  __syncthreads();
  return result;
}

__global__ void softmax_rows(const float* x, float* y, long long cols, long long x_row_stride, long long y_row_stride) {
  __shared__ float tree[kThreads];
  const float* xr = x + blockIdx.x * x_row_stride;
  float* yr = y + blockIdx.x * y_row_stride;
  float max = -INFINITY;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) max = fmaxf(max, xr[c]);
  max = block_reduce<true>(max, tree);
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(xr[c] - max);
  sum = block_reduce<false>(sum, tree);
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - max) / sum;
}

void softmax(const float* x, float* y, int rows, int cols, long long x_row_stride, long long y_row_stride,
             cudaStream_t stream) {
  softmax_rows<<<rows, cols <= 32 ? 32 : kThreads, 0, stream>>>(x, y, cols, x_row_stride, y_row_stride);
}

}  // namespace fast_math_softmax
