// Cross-entropy over a large vocabulary in chunks, as the fused-loss kernels of public repositories
// write it (Liger's and Unsloth's Triton kernels, translated to CUDA): a block per row walks the row
// in chunks of 1024 logits; each chunk's max and sum of exponentials come from block reductions in
// shared memory, and the running (max, sum) pair is rescaled when the max grows. The loss is
// max + log(sum) - x[target], 0 for a row whose target is ignore_index; a one-thread kernel then
// adds the losses in row order and divides by the rows kept for the mean. kDropsLastChunk plants
// the bug of its mutant: the chunk loop stops before a partial last chunk (start + 1024 <= V), so
// the tail of every row whose width is no multiple of 1024 is left out of the sum.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>

namespace chunked_cross_entropy {

constexpr int kThreads = 256;
constexpr int kChunk = 1024;  // logits per chunk: 4 a thread

// The block's max (kMax) or sum of v; every thread gets it. `scratch` holds kThreads floats.
template <bool kMax>
__device__ float block_all(float v, float* scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      scratch[threadIdx.x] = kMax ? fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + half])
                                  : scratch[threadIdx.x] + scratch[threadIdx.x + half];
    __syncthreads();
  }
  const float all = scratch[0];
  __syncthreads();
  return all;
}

template <typename T, bool kDropsLastChunk>
__global__ void __launch_bounds__(kThreads)
    cross_entropy_rows(const T* logits, const long long* target, float* loss, int cols, int ignore_index) {
  __shared__ float scratch[kThreads];
  const int row = blockIdx.x;
  const long long t = target[row];
  if (t == ignore_index) {
    if (threadIdx.x == 0) loss[row] = 0.0f;
    return;
  }
  const T* x = logits + static_cast<long long>(row) * cols;
  float m = -INFINITY, s = 0.0f;
  for (int start = 0; kDropsLastChunk ? start + kChunk <= cols : start < cols; start += kChunk) {
    float v[kChunk / kThreads];
    float chunk_max = -INFINITY;
    for (int k = 0; k < kChunk / kThreads; ++k) {
      const int c = start + k * kThreads + threadIdx.x;
      v[k] = c < cols ? static_cast<float>(x[c]) : -INFINITY;
      chunk_max = fmaxf(chunk_max, v[k]);
    }
    const float next = fmaxf(m, block_all<true>(chunk_max, scratch));
    float part = 0.0f;
    for (int k = 0; k < kChunk / kThreads; ++k) part += expf(v[k] - next);  // expf(-inf) is 0 past the row
    s = s * expf(m - next) + block_all<false>(part, scratch);
    m = next;
  }
  if (threadIdx.x == 0) loss[row] = m + logf(s) - static_cast<float>(x[t]);
}

__global__ void add_losses(const long long* target, const float* loss, float* total, int rows, int ignore_index,
                           bool mean) {
  float sum = 0.0f;
  int kept = 0;
  for (int r = 0; r < rows; ++r)
    if (target[r] != ignore_index) sum += loss[r], ++kept;
  *total = mean ? sum / static_cast<float>(kept) : sum;
}

// The launcher in the kernel's own terms: dense rows, int sizes; reduction 0 is the mean, 1 the sum.
template <typename T, bool kDropsLastChunk = false>
void cross_entropy(const T* logits, const long long* target, float* loss, float* total, int rows, int cols,
                   int ignore_index, int reduction, cudaStream_t stream) {
  cross_entropy_rows<T, kDropsLastChunk><<<rows, kThreads, 0, stream>>>(logits, target, loss, cols, ignore_index);
  add_losses<<<1, 1, 0, stream>>>(target, loss, total, rows, ignore_index, reduction == 0);
}

}  // namespace chunked_cross_entropy
