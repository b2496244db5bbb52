// Row softmax with the row held in dynamic shared memory: a block per row (one warp for rows of
// up to 32 columns, else 256 threads) reads the row once into `extern __shared__` (as f32), then
// max, exp and sum, and the write all work on that copy; block reductions through a shared tree.
// Rows above 48 KiB of shared memory raise the kernel's limit with cudaFuncSetAttribute, up to the
// H200's 227 KiB. kSkipBarrier plants the bug of its mutant: no __syncthreads between the steps of
// the reduction tree.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace dynamic_smem_softmax {

constexpr int kThreads = 256;  // the most a block has; narrow rows take one warp (softmax)
constexpr long long kMaxCols = (227 * 1024 - kThreads * 4) / 4;

template <bool kMax, bool kSkipBarrier>
__device__ float block_reduce(float v, float* tree) {
  tree[threadIdx.x] = v;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      tree[threadIdx.x] =
          kMax ? fmaxf(tree[threadIdx.x], tree[threadIdx.x + half]) : tree[threadIdx.x] + tree[threadIdx.x + half];
    if (!kSkipBarrier) __syncthreads();
  }
  __syncthreads();
  const float result = tree[0];
  __syncthreads();  // the tree is reused by the next reduction
  return result;
}

// fmaxf drops a NaN from the max, but exp(NaN - max) brings it back into the sum, and a +inf or a
// row of only -inf gives inf - inf = NaN there: such rows come out all NaN, as the contract says.
template <typename T, bool kSkipBarrier>
__global__ void __launch_bounds__(kThreads)
    softmax_rows(const T* x, T* y, long long cols, long long xrs, long long xcs, long long yrs, long long ycs) {
  extern __shared__ float row[];  // cols values, then blockDim.x for the reduction tree
  float* tree = row + cols;
  const T* xr = x + blockIdx.x * xrs;
  T* yr = y + blockIdx.x * yrs;
  float max = -INFINITY;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) {
    row[c] = static_cast<float>(xr[c * xcs]);
    max = fmaxf(max, row[c]);
  }
  max = block_reduce<true, kSkipBarrier>(max, tree);
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) {
    row[c] = expf(row[c] - max);
    sum += row[c];
  }
  sum = block_reduce<false, kSkipBarrier>(sum, tree);
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) yr[c * ycs] = static_cast<T>(row[c] / sum);
}

// The launcher in the kernel's own terms: any row and column strides.
template <typename T, bool kSkipBarrier = false>
void softmax(const T* x, T* y, long long rows, long long cols, long long xrs, long long xcs, long long yrs,
             long long ycs, cudaStream_t stream) {
  if (cols > kMaxCols)
    throw std::invalid_argument("dynamic_smem_softmax takes rows of at most " + std::to_string(kMaxCols) + " columns");
  const int threads = cols <= 32 ? 32 : kThreads;  // no idle warps waiting at the barriers of a narrow row
  const size_t bytes = static_cast<size_t>(cols + threads) * sizeof(float);
  if (bytes > 48 * 1024)
    cudaFuncSetAttribute(softmax_rows<T, kSkipBarrier>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         static_cast<int>(bytes));
  softmax_rows<T, kSkipBarrier>
      <<<static_cast<unsigned>(rows), threads, bytes, stream>>>(x, y, cols, xrs, xcs, yrs, ycs);
}

}  // namespace dynamic_smem_softmax
