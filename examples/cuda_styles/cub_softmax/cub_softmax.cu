// Row softmax on cub::BlockReduce: a block per row (one warp for rows of up to 32 columns, else
// 256 threads: the block size a template argument, as CUB's is), each thread's strided max and
// sum combined by CUB (the result is defined in thread 0 only, so thread 0 shares it through
// shared memory), three reads of the row. kZeroPadding plants the bug of its mutant: each
// thread's running max starts at 0 instead of -inf.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cub/cub.cuh>
#include <cuda/functional>
#include <stdexcept>
#include <string>

namespace cub_softmax {

// A value of thread 0 for the whole block.
__device__ float broadcast(float v, float* slot) {
  if (threadIdx.x == 0) *slot = v;
  __syncthreads();
  const float shared = *slot;
  __syncthreads();
  return shared;
}

// fmaxf drops a NaN from the max, but exp(NaN - max) brings it back into the sum, and a +inf or a
// row of only -inf gives inf - inf = NaN there: such rows come out all NaN, as the contract says.
template <typename T, int kThreads, bool kZeroPadding>
__global__ void __launch_bounds__(kThreads)
    softmax_rows(const T* x, T* y, long long cols, long long xrs, long long xcs, long long yrs, long long ycs) {
  using BlockReduce = cub::BlockReduce<float, kThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float slot;
  const T* xr = x + blockIdx.x * xrs;
  T* yr = y + blockIdx.x * yrs;
  float max = kZeroPadding ? 0.0f : -INFINITY;
  for (long long c = threadIdx.x; c < cols; c += kThreads) max = fmaxf(max, static_cast<float>(xr[c * xcs]));
  max = broadcast(BlockReduce(temp).Reduce(max, ::cuda::maximum<>{}), &slot);
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < cols; c += kThreads) sum += expf(static_cast<float>(xr[c * xcs]) - max);
  sum = broadcast(BlockReduce(temp).Sum(sum), &slot);
  for (long long c = threadIdx.x; c < cols; c += kThreads)
    yr[c * ycs] = static_cast<T>(expf(static_cast<float>(xr[c * xcs]) - max) / sum);
}

// The launcher in the kernel's own terms: any row and column strides.
template <typename T, bool kZeroPadding = false>
void softmax(const T* x, T* y, long long rows, long long cols, long long xrs, long long xcs, long long yrs,
             long long ycs, cudaStream_t stream) {
  if (cols <= 32)  // no idle warps waiting at the barriers of a narrow row
    softmax_rows<T, 32, kZeroPadding><<<static_cast<unsigned>(rows), 32, 0, stream>>>(x, y, cols, xrs, xcs, yrs, ycs);
  else
    softmax_rows<T, 256, kZeroPadding><<<static_cast<unsigned>(rows), 256, 0, stream>>>(x, y, cols, xrs, xcs, yrs, ycs);
}

}  // namespace cub_softmax
