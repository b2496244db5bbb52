// cross_entropy kernels: loss[r] = logsumexp(x[r, :]) - x[r, t[r]] (0 where t[r] == ignore_index),
// then total = the sum of the losses not ignored, or its mean over their count. f32 arithmetic for
// every storage dtype. Contract and tolerance: ops/cross_entropy/cross_entropy.hpp (the policy
// counts on at least 32 threads per row and at most ceil(V/32) terms a thread, as each has).
//
// Every variant reads a row once, keeping an online (max, sum) pair per thread: a larger value
// rescales the sum by exp(old max - new max) first, so no exponential ever exceeds 1 (a row of
// logits past 88 would overflow expf otherwise), and pairs merge the same way. A row whose target
// is ignore_index is not read at all (its loss is 0).
//   warp_per_row   narrow rows: a warp per row, 8 rows per block, lanes stride the row
//   block_online   a block per row (up to 512 threads): 16-byte vectors where the row is dense
//                  (a scalar head up to the first 16-byte boundary, so any row start takes them),
//                  4 vectors per thread loaded before any is used; strided elements otherwise
// Then cross_entropy_total, one block: each thread adds its rows' losses in a fixed order and the
// block's tree adds the partials, so two runs give the same bits (no atomics).
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/common/vec_io.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

template <typename T>
struct CrossEntropyArgs {
  const T* logits;
  const long long* target;
  float* loss;
  float* total;
  long long rows, classes;
  long long logits_row_stride, logits_col_stride, target_stride, loss_stride;
  long long ignore_index;
  int mean;  // 1: total is the mean over the rows not ignored; 0: their sum
};

inline constexpr float kLog2e = 1.4426950408889634f;

// A running (max, sum of exp(x - max)) pair.
struct OnlineSum {
  float max = -INFINITY;
  float sum = 0.0f;

  __device__ __forceinline__ void add(float x) {
    if (x == -INFINITY) return;  // a masked class: exp 0 (and -inf - -inf would be NaN)
    if (x > max) {
      sum *= expf(max - x);  // max = -inf: sum is 0 and expf(-inf) 0
      max = x;
    }
    sum += expf(x - max);  // a NaN x makes the sum NaN
  }
  // Another pair's terms. A pair whose max is -inf has a sum of 0, or NaN when it met a NaN: added
  // as it is (its rescale would be expf(-inf - -inf), NaN either way).
  __device__ __forceinline__ void merge(float other_max, float other_sum) {
    if (other_max == -INFINITY) {
      sum += other_sum;
      return;
    }
    if (other_max > max) {
      sum = sum * expf(max - other_max) + other_sum;
      max = other_max;
    } else {
      sum += other_sum * expf(other_max - max);
    }
  }
};

__device__ __forceinline__ OnlineSum warp_merge(OnlineSum p) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const float m = __shfl_xor_sync(0xffffffffu, p.max, offset);
    const float s = __shfl_xor_sync(0xffffffffu, p.sum, offset);
    p.merge(m, s);
  }
  return p;
}

// Every thread gets the block's pair. `scratch` holds at least 64 floats of shared memory.
__device__ __forceinline__ OnlineSum block_merge(OnlineSum p, float* scratch) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  p = warp_merge(p);
  if (lane == 0) scratch[warp] = p.max, scratch[32 + warp] = p.sum;
  __syncthreads();
  OnlineSum q;
  if (lane < blockDim.x / 32) q.max = scratch[lane], q.sum = scratch[32 + lane];
  q = warp_merge(q);
  __syncthreads();  // scratch is free again
  return q;
}

template <typename T>
__device__ __forceinline__ bool cross_entropy_ignored(const CrossEntropyArgs<T>& a, long long row) {
  return a.target[row * a.target_stride] == a.ignore_index;
}

// (max - x[t]) + log(sum): two non-negative terms.
template <typename T>
__device__ __forceinline__ void cross_entropy_store(const CrossEntropyArgs<T>& a, long long row, OnlineSum p) {
  const T* x = a.logits + row * a.logits_row_stride;
  const float target = kv::to_f32(x[a.target[row * a.target_stride] * a.logits_col_stride]);
  a.loss[row * a.loss_stride] = (p.max - target) + logf(p.sum);
}

template <typename T>
__global__ void __launch_bounds__(256) cross_entropy_warp_per_row(CrossEntropyArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;  // whole warps leave together
  const unsigned lane = threadIdx.x % 32;
  if (cross_entropy_ignored(a, row)) {
    if (lane == 0) a.loss[row * a.loss_stride] = 0.0f;
    return;
  }
  const T* x = a.logits + row * a.logits_row_stride;
  OnlineSum p;
  for (long long c = lane; c < a.classes; c += 32) p.add(kv::to_f32(x[c * a.logits_col_stride]));
  p = warp_merge(p);
  if (lane == 0) cross_entropy_store(a, row, p);
}

// V elements a vector (1: strided elements), P vectors loaded per thread before any is added.
template <typename T, int V, int P>
__global__ void __launch_bounds__(512) cross_entropy_block_online(CrossEntropyArgs<T> a) {
  __shared__ float scratch[64];
  const long long row = blockIdx.x;
  if (cross_entropy_ignored(a, row)) {  // the same for every thread of the block
    if (threadIdx.x == 0) a.loss[row * a.loss_stride] = 0.0f;
    return;
  }
  const T* x = a.logits + row * a.logits_row_stride;
  OnlineSum p;
  long long body = 0;  // the first column of the vectors
  if constexpr (V > 1) {
    const auto misaligned = reinterpret_cast<unsigned long long>(x) % kVectorBytes;
    body =
        misaligned == 0 ? 0 : (kVectorBytes - static_cast<long long>(misaligned)) / static_cast<long long>(sizeof(T));
    if (body > a.classes) body = a.classes;
    if (threadIdx.x < body) p.add(kv::to_f32(x[threadIdx.x]));
  }
  // The vectors' exponentials as exp2f((x - max) log2(e)): a subtraction, a product and the ex2
  // instruction per logit, where expf's own range reduction costs more (the 16-bit rows were
  // compute-bound on an H100); the policy counts the product's rounding. Never
  // exp2f(fmaf(x, log2(e), -max log2(e))): max log2(e) rounds by u |max|, which as an exponent
  // scales every term by up to 2^(u |max|) (a row of 1e30s then sums to inf).
  const T* vectors = x + body;
  const long long whole = (a.classes - body) / V;  // whole vectors (V = 1: every element)
  const long long step = static_cast<long long>(blockDim.x) * P;
  for (long long first = threadIdx.x; first < whole; first += step) {
    VecOf<T, V> v[P];
#pragma unroll
    for (int k = 0; k < P; ++k) {
      const long long i = first + static_cast<long long>(k) * blockDim.x;
      if (i < whole) v[k] = load_whole_vec<T, V>(vectors, a.logits_col_stride, i * V);
    }
#pragma unroll
    for (int k = 0; k < P; ++k) {
      if (first + static_cast<long long>(k) * blockDim.x >= whole) break;
      float most = kv::to_f32(v[k].lane[0]);
#pragma unroll
      for (int j = 1; j < V; ++j) most = fmaxf(most, kv::to_f32(v[k].lane[j]));
      if (most > p.max) {
        p.sum *= exp2f((p.max - most) * kLog2e);
        p.max = most;
      }
      if (p.max == -INFINITY) {  // masked classes only so far: every exponential 0, but a NaN stays
#pragma unroll
        for (int j = 0; j < V; ++j)
          if (kv::to_f32(v[k].lane[j]) != kv::to_f32(v[k].lane[j])) p.sum = NAN;
        continue;
      }
#pragma unroll
      for (int j = 0; j < V; ++j) p.sum += exp2f((kv::to_f32(v[k].lane[j]) - p.max) * kLog2e);  // NaN stays
    }
  }
  if constexpr (V > 1) {  // the tail past the last whole vector
    const long long c = body + whole * V + threadIdx.x;
    if (c < a.classes) p.add(kv::to_f32(x[c]));
  }
  p = block_merge(p, scratch);
  if (threadIdx.x == 0) cross_entropy_store(a, row, p);
}

// One block: the sum of the losses not ignored (each thread its rows in order, then the block's
// tree) and their count; the mean divides once (0 / 0 is NaN, PyTorch's mean over no row).
template <typename T>
__global__ void __launch_bounds__(1024) cross_entropy_total(CrossEntropyArgs<T> a) {
  __shared__ float scratch[32];
  __shared__ long long kept_by_warp[32];
  float sum = 0.0f;
  long long kept = 0;
  for (long long r = threadIdx.x; r < a.rows; r += blockDim.x)
    if (!cross_entropy_ignored(a, r)) sum += a.loss[r * a.loss_stride], ++kept;
  sum = block_reduce(sum, SumOp{}, scratch);
  for (int offset = 16; offset > 0; offset /= 2) kept += __shfl_xor_sync(0xffffffffu, kept, offset);
  if (threadIdx.x % 32 == 0) kept_by_warp[threadIdx.x / 32] = kept;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long all = 0;
    for (unsigned w = 0; w < blockDim.x / 32; ++w) all += kept_by_warp[w];
    *a.total = a.mean ? sum / static_cast<float>(all) : sum;
  }
}

}  // namespace kverify::kernels
