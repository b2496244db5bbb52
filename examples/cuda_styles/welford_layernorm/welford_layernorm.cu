// LayerNorm in one pass over the row, as public repositories write it (Apex, llm.c, the Welford
// tutorials): a warp per row, 8 rows per block; each lane runs Welford's updates over its strided
// share of the row (count, mean, sum of squared deviations M2), then the lanes' triples are merged
// by shuffles with Chan's formula. kDropsMergeTerm plants the bug of its mutant: the merge adds
// the two M2 but not the delta^2 n_a n_b / n term, so the spread between the lanes' means is lost.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace welford_layernorm {

constexpr int kRowsPerBlock = 8;

struct Welford {
  float count, mean, m2;
};

__device__ inline Welford merge(Welford a, Welford b, bool drops_merge_term) {
  const float n = a.count + b.count;
  if (n == 0.0f) return a;
  const float delta = b.mean - a.mean, share = b.count / n;
  const float term = drops_merge_term ? 0.0f : delta * delta * a.count * share;
  return {n, a.mean + delta * share, a.m2 + b.m2 + term};
}

template <typename T, bool kDropsMergeTerm>
__global__ void __launch_bounds__(32 * kRowsPerBlock)
    layernorm_rows(const T* x, const T* w, const T* b, T* y, float* mean_out, float* rstd_out, int rows, int cols,
                   float eps) {
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / 32;
  if (row >= rows) return;  // the whole warp: all 32 lanes share the row
  const int lane = threadIdx.x % 32;
  const T* xr = x + static_cast<long long>(row) * cols;
  Welford s{0.0f, 0.0f, 0.0f};
  for (int c = lane; c < cols; c += 32) {
    const float v = static_cast<float>(xr[c]);
    s.count += 1.0f;
    const float delta = v - s.mean;
    s.mean += delta / s.count;
    s.m2 += delta * (v - s.mean);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const Welford other{__shfl_xor_sync(0xffffffffu, s.count, offset), __shfl_xor_sync(0xffffffffu, s.mean, offset),
                        __shfl_xor_sync(0xffffffffu, s.m2, offset)};
    // Both lanes of a pair merge in the same order (lower lane first), so all 32 end with the
    // same triple, bit for bit.
    s = lane & offset ? merge(other, s, kDropsMergeTerm) : merge(s, other, kDropsMergeTerm);
  }
  const float rstd = rsqrtf(s.m2 / static_cast<float>(cols) + eps);
  if (lane == 0) {
    mean_out[row] = s.mean;
    rstd_out[row] = rstd;
  }
  T* yr = y + static_cast<long long>(row) * cols;
  for (int c = lane; c < cols; c += 32)
    yr[c] = static_cast<T>((static_cast<float>(xr[c]) - s.mean) * rstd * static_cast<float>(w[c]) +
                           static_cast<float>(b[c]));
}

// The launcher in the kernel's own terms: dense rows, int sizes.
template <typename T, bool kDropsMergeTerm = false>
void layernorm(const T* x, const T* w, const T* b, T* y, float* mean, float* rstd, int rows, int cols, float eps,
               cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  layernorm_rows<T, kDropsMergeTerm>
      <<<blocks, 32 * kRowsPerBlock, 0, stream>>>(x, w, b, y, mean, rstd, rows, cols, eps);
}

}  // namespace welford_layernorm
