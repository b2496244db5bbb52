// softmax, mid to very wide rows on sm_90: a thread-block cluster of C blocks per row (C = 1..16;
// above 8 the non-portable cluster size), block r of the cluster owning slice r of the row.
//
//   - The slice comes into shared memory by asynchronous bulk copies (cp.async.bulk) that one
//     thread issues; a ring of `stages` slices per block lets the next rows' copies run while the
//     threads work on the current row. The bytes in flight depend neither on registers nor on how
//     many threads wait: with 1 stage, the other blocks on the SM keep the memory busy.
//   - Each input element is read from memory once. Kept exps (KeepExps: blocks of <= 512
//     threads, <= 64 exps per thread) read the slice from shared memory once, into registers:
//     each thread shifts its exps by its own max m_t and sums them, one combine of the threads'
//     (m_t, s_t) pairs gives the block's (m_b, s_b) behind a single barrier, and the stores
//     scale the kept exps; the stage's next copy starts right after the combine. Otherwise
//     three passes over the slice (max; exp and sum; recompute or reread, normalise, store),
//     P 16-byte vectors per thread in each, and the stage is refilled after the stores.
//   - One exchange per row: every block sends its (local max m_b, s_b = sum of exp(x - m_b)) to
//     every block of the cluster through distributed shared memory, with an asynchronous store
//     that counts its 8 bytes on the receiver's barrier (no memory fence, no cluster barrier per
//     row); each block then forms M = max m_b and S = sum s_b exp(m_b - M) with a warp butterfly
//     over the C pairs (the same bits in every block and on every run).
//   - The grid is persistent: as many clusters as the device holds at once, each taking rows
//     blockIdx.y, blockIdx.y + gridDim.y, ...
//
// Precondition (the launcher checks it and runs the any-layout variants otherwise): unit column
// stride and 16-byte aligned rows for x and y. Slices are whole 16-byte vectors, so every slice
// starts aligned; a row's last partial vector (cols % V elements) is read and written by single
// threads from global memory.
//
// Arithmetic and its error (softmax_exp, softmax_scale_factor: softmax_rows_vec.cuh):
//   f16/bf16, recomputed: pass 3 recomputes exp(x - M) (the slice is kept 16-bit: no room for
//     f32 values in shared memory) and stores it times 1 / S; S carries the pair combination's
//     exp(m_b - M) (expf, 2 ulp) and one product per pair, 2.5 eps32 more than a plain sum: far
//     below the output ulp the 16-bit policy adds (ops/softmax/reference.cpp). Both passes take
//     the fast exp as E = 2^64 exp (softmax_exp_times_2_64) and apply its 2^-64 once: to the
//     block's sum, and folded into the factor 2^-64 / S (>= 2^-84, exact). A power-of-two scale
//     commutes with rounding outside the subnormals, so the sum and y = E (2^-64 / S) carry the
//     bits of summing and scaling e = E 2^-64, except where e was subnormal, where they skip its
//     rounding (the sum's terms stay below n 2^64 <= 2^84, far from overflow). Two
//     multiplications per element fewer.
//   f16/bf16 and f32 across blocks, kept: y = E_t (2^-64 exp(m_t - M) / S) with E_t = 2^64
//     exp(x - m_t) (f32: e_t = exp(x - m_t) and exp(m_t - M) / S). x <= m_t <= M, so the roundings
//     of x - m_t and m_t - M cost |x - M| / 2 eps32, the policy's first term; then exp's error
//     (fast exp for 16-bit, expf for f32), expf's 2 ulp for the factor and two roundings (the
//     factor, the product): 5 eps32 for f32, as the recomputing f32 C > 1 below; far below the
//     16-bit policy's 2048 eps32 (f16; bf16 16384). S gains one level of pair combination (an
//     expf and a product per warp and per block), beside a sum term of >= 260 eps32 (f32 C > 1)
//     or the 16-bit output ulp.
//   f32, one block (C = 1, m_b = M): e = exp(x - M) (kept in registers, or in place of x in
//     shared memory), y = e / S, as the register kernels.
//   f32, C > 1, recomputed: y = e * (exp(m_b - M) / S), one division per block: per element expf twice
//     (2 + 2 ulp), one rounding of the factor, one of the product: 5 eps32 where the register
//     kernels have 2.5; the launcher uses C > 1 only for rows over 16384 columns, where the
//     policy's sum term (n/32 + log2 n) / 2 is above 260 eps32 and the sum's own depth is ~35
//     roundings (a thread's P vectors, log2 V, two butterflies of 5, the pairs' butterfly of 5).
//     The rounding of x - m_b and of m_b - M cost |x - m_b| / 2 + |m_b - M| / 2 = |x - M| / 2
//     eps32, the policy's first term.
// Out-of-domain rows are NaN by IEEE arithmetic, as in the register kernels: a NaN makes its
// thread's and block's sums NaN; +inf makes exp(inf - inf); an all -inf row makes M = -inf (below,
// at the shift). A -inf among finite values gives 0, also where it fills a thread's elements or a
// block's whole slice.
#pragma once

#include <type_traits>

#include "kernels/common/block_reduce.cuh"
#include "kernels/common/bulk_copy.cuh"
#include "kernels/common/vec_io.cuh"
#include "kernels/softmax/bulk_limits.hpp"
#include "kernels/softmax/softmax_block_per_row.cuh"  // SoftmaxArgs
#include "kernels/softmax/softmax_rows_vec.cuh"       // softmax_exp, softmax_scale_factor

namespace kverify::kernels {

inline constexpr int kBulkMaxVectorsPerThread = 16;
// Blocks of at most this many threads hold their exps in registers from the sum to the store
// when a thread has at most kBulkMaxKeptExps of them (64 floats: no spill under 128 registers).
inline constexpr int kBulkKeptExpsMaxThreads = 512;
inline constexpr int kBulkMaxKeptExps = 64;

#if defined(__CUDACC__)

// A warp's (max, sum) of the pairs (m, s = sum of exp(x - m)) its lanes hold (`present`). m == max
// passes s on unscaled: a part of only -inf (m = max = -inf) adds its 0, a NaN in s stays NaN, and
// the part that holds the max takes no exp. The butterflies' order is fixed: every warp, and every
// run, gets the same bits.
__device__ __forceinline__ float2 warp_pair_combine(float m, float s, bool present) {
  const float max = warp_reduce(present ? m : -INFINITY, MaxOp{});
  const float scaled = !present ? 0.0f : m == max ? s : s * softmax_exp<float>(m, max);
  return make_float2(max, warp_reduce(scaled, SumOp{}));
}

// The cluster's (M, S) of a row from every block's (m_b, s_b). Threads q < C of the block send the
// block's pair to block q; every warp combines the C pairs, lane r holding block r's.
__device__ __forceinline__ float2 bulk_cluster_combine(float2 mine, float2* pairs, std::uint64_t* barrier,
                                                       unsigned parity, unsigned rank, unsigned blocks) {
  const unsigned lane = threadIdx.x % 32;
  if (threadIdx.x < blocks)
    bulk::store_pair_to_peer(bulk::peer_address(&pairs[rank], threadIdx.x), mine,
                             bulk::peer_address(barrier, threadIdx.x));
  bulk::wait_parity(barrier, parity);
  const float2 p = lane < blocks ? pairs[lane] : make_float2(-INFINITY, 0.0f);
  return warp_pair_combine(p.x, p.y, lane < blocks);
}

// The block's (max, sum) from every thread's (m, s), in every thread, with one barrier: `scratch`
// (32 pairs) may be written again only after the block's next barrier (the kernel alternates two
// sets between rows).
__device__ __forceinline__ float2 block_pair_combine(float m, float s, float2* scratch) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const float2 mine = warp_pair_combine(m, s, true);
  if (lane == 0) scratch[warp] = mine;
  __syncthreads();
  const float2 p = lane < warps ? scratch[lane] : make_float2(-INFINITY, 0.0f);
  return warp_pair_combine(p.x, p.y, lane < warps);
}

// The max of a 16-byte vector's values: 16-bit ones in pairs in their storage type (the max of
// 16-bit values is one of them; __hmax2 returns the non-NaN operand, as fmaxf).
template <typename T, int V>
__device__ __forceinline__ float vector_max(const VecOf<T, V>& v, float max) {
  if constexpr (sizeof(T) == 2) {
    using Pair = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
    const Pair* pairs = reinterpret_cast<const Pair*>(&v);
    Pair m = pairs[0];
#pragma unroll
    for (int k = 1; k < V / 2; ++k) m = __hmax2(m, pairs[k]);
    return fmaxf(max, fmaxf(kv::to_f32(m.x), kv::to_f32(m.y)));
  } else {
#pragma unroll
    for (int k = 0; k < V; ++k) max = fmaxf(max, v.lane[k]);
    return max;
  }
}

// Dynamic shared memory: `stages` slices of `slice_vectors` 16-byte vectors; blockDim.x * P >=
// slice_vectors. KeepExps: blockDim.x <= kBulkKeptExpsMaxThreads and P V <= kBulkMaxKeptExps.
template <typename T, int P, bool KeepExps>
__global__ void __launch_bounds__(KeepExps ? kBulkKeptExpsMaxThreads : 1024)
    softmax_cluster_bulk(SoftmaxArgs<T> a, int slice_vectors, int stages) {
  constexpr int V = kLanesPerVector<T>;
  static_assert(!KeepExps || P * V <= kBulkMaxKeptExps, "the kept exps must fit the registers");
  using Vec = VecOf<T, V>;
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ std::uint64_t full[kBulkMaxStages];
  // Two barriers and pair sets, for even and odd rows: a block that has all C pairs of row i
  // knows that every block has finished reading row i - 1's, never row i - 2's (their set).
  __shared__ std::uint64_t exchanged[2];
  __shared__ float2 pairs[2][kBulkMaxCluster];
  __shared__ float red[2][32];
  __shared__ float2 block_pairs[2][32];  // block_pair_combine's, for even and odd rows

  const unsigned rank = bulk::cluster_rank(), blocks = bulk::cluster_blocks();
  const long long begin = static_cast<long long>(rank) * slice_vectors * V;
  const long long end_raw = begin + static_cast<long long>(slice_vectors) * V;
  const int n = static_cast<int>(end_raw < a.cols ? end_raw - begin : (a.cols > begin ? a.cols - begin : 0));
  const int vectors = n / V;  // brought by bulk copies
  const int tail = n - vectors * V;
  const std::uint32_t bytes = static_cast<std::uint32_t>(vectors) * bulk::kGranule;
  const std::size_t stage_bytes = static_cast<std::size_t>(slice_vectors) * bulk::kGranule;
  const int t = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x);

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) bulk::init(&full[s], 1);
    bulk::init(&exchanged[0], 1);  // thread 0's arrival with the bytes the C blocks send
    bulk::init(&exchanged[1], 1);
    bulk::fence_init();
  }
  bulk::cluster_sync();  // every block's barriers exist before any block stores to them

  const auto issue = [&](int stage, long long row) {
    unsigned char* dst = ring + stage * stage_bytes;
    const unsigned char* src = reinterpret_cast<const unsigned char*>(a.x + row * a.x_row_stride + begin);
    bulk::arrive_expect_bytes(&full[stage], bytes);
    constexpr std::uint32_t kPiece = 32 * 1024;
    for (std::uint32_t off = 0; off < bytes; off += kPiece)
      bulk::bulk_load(dst + off, src + off, bytes - off < kPiece ? bytes - off : kPiece, &full[stage]);
  };
  if (threadIdx.x == 0)
    for (int s = 0; s < stages; ++s) {
      const long long row = blockIdx.y + static_cast<long long>(s) * gridDim.y;
      if (row < a.rows) issue(s, row);
    }

  int i = 0;
  for (long long row = blockIdx.y; row < a.rows; row += gridDim.y, ++i) {
    const int stage = i % stages;
    Vec* buf = reinterpret_cast<Vec*>(ring + stage * stage_bytes);
    const T* x = a.x + row * a.x_row_stride + begin;
    T* y = a.y + row * a.y_row_stride + begin;
    const bool tail_thread = t < tail;
    const float tail_x = tail_thread ? kv::to_f32(x[vectors * V + t]) : MaxOp::identity();

    bulk::wait_parity(&full[stage], static_cast<unsigned>(i / stages) & 1u);
    // Kept exps read the slice once, into registers; the recomputing pass reads it three times.
    float kept[KeepExps ? P : 1][V];
    float max = tail_x;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      const int j = p * threads + t;
      if (j < vectors) {
        if constexpr (KeepExps) {
          const Vec v = buf[j];
          max = vector_max<T, V>(v, max);
#pragma unroll
          for (int k = 0; k < V; ++k) kept[p][k] = kv::to_f32(v.lane[k]);
        } else {
          max = vector_max<T, V>(buf[j], max);
        }
      }
    }
    // Kept exps shift by the thread's own max (no block reduction before the exps; one pair
    // combine after them), except f32 in one block, which keeps y = exp(x - M) / S exact to the
    // register kernels' 2.5 eps32 (a thread's max costs an expf and a product more: 5 eps32).
    const bool own_max = KeepExps && (sizeof(T) == 2 || blocks > 1);
    const float shift_max = own_max ? max : block_reduce(max, MaxOp{}, red[0]);
    // A part of the row of only -inf (a masked slice) has shift_max = -inf: its terms exp(-inf -
    // 0) = 0 instead of exp(-inf - -inf) = NaN, so its sum is 0 and the rest of the row decides.
    // A row of only -inf still comes out NaN: its M = -inf makes exp(m - M) and the combine NaN
    // (C > 1), S = 0 makes y = 0 / 0 or 0 * (1 / 0) (C = 1).
    const float shift = shift_max == -INFINITY ? 0.0f : shift_max;

    // The terms of the sum: f32 e (kept for pass 3), 16-bit 2^64 e.
    const auto term = [&](float x) {
      if constexpr (sizeof(T) == 4)
        return softmax_exp<T>(x, shift);
      else
        return softmax_exp_times_2_64(x, shift);
    };
    float acc[V];
#pragma unroll
    for (int k = 0; k < V; ++k) acc[k] = 0.0f;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      const int j = p * threads + t;
      if (j < vectors) {
        if constexpr (KeepExps) {
#pragma unroll
          for (int k = 0; k < V; ++k) {
            kept[p][k] = term(kept[p][k]);
            acc[k] += kept[p][k];
          }
        } else {
          Vec v = buf[j];
#pragma unroll
          for (int k = 0; k < V; ++k) {
            const float e = term(kv::to_f32(v.lane[k]));
            acc[k] += e;
            if constexpr (sizeof(T) == 4) v.lane[k] = e;
          }
          if constexpr (sizeof(T) == 4) buf[j] = v;
        }
      }
    }
    const float tail_e = tail_thread ? term(tail_x) : 0.0f;
    acc[0] += tail_e;
    // 16-bit: the terms' 2^64 off once, per thread (own max: >= 1 wherever the thread has an
    // element, so exact) or per block.
    constexpr float kUnscale = sizeof(T) == 2 ? 0x1p-64f : 1.0f;
    const float thread_sum = tree_sum<V>(acc);
    const float2 block_total = own_max ? block_pair_combine(max, thread_sum * kUnscale, block_pairs[i & 1])
                                       : make_float2(shift_max, block_reduce(thread_sum, SumOp{}, red[1]) * kUnscale);
    const float block_max = block_total.x, block_sum = block_total.y;
    // Kept exps: no thread reads the stage again (every thread's reads of it precede the
    // combine's barrier), so the copy of its next row starts now, under the exchange and the
    // stores. Only the generic proxy's reads precede the copy's writes: no proxy fence.
    const auto refill = [&] {
      const long long next = row + static_cast<long long>(stages) * gridDim.y;
      if (next < a.rows) issue(stage, next);
    };
    if constexpr (KeepExps)
      if (threadIdx.x == 0) refill();

    // One block is its own cluster: nothing to exchange (and an asynchronous store to the
    // shared::cluster window of a one-block cluster is an invalid write for compute-sanitizer).
    float2 row_total = make_float2(block_max, block_sum);
    if (blocks > 1) {
      if (threadIdx.x == 0)
        bulk::arrive_expect_bytes(&exchanged[i & 1], blocks * static_cast<unsigned>(sizeof(float2)));
      row_total = bulk_cluster_combine(row_total, pairs[i & 1], &exchanged[i & 1], static_cast<unsigned>(i >> 1) & 1u,
                                       rank, blocks);
    }
    const float row_max = row_total.x, sum = row_total.y;

    // y = e * factor: 16-bit factor = 2^-64 / S (softmax_scale_factor) for 2^64 e; f32 across
    // blocks exp(m - M) / S, m the max the exps were shifted by (the thread's when own_max, else
    // the block's); f32 in one block divides e by S. 16-bit kept exps take exp(m - M) into the
    // factor as f32 does; the 16-bit pass that recomputes takes 2^64 exp(x - M).
    const bool divides = sizeof(T) == 4 && blocks == 1;
    const bool rescales = own_max || (sizeof(T) == 4 && blocks > 1);
    const float rescale = rescales ? softmax_exp<float>(own_max ? max : block_max, row_max) : 1.0f;
    // 16-bit kept exps: 2^-64 / S (>= 2^-84) and the rescale in one factor only while their
    // product is a normal f32. A part of the row far below M (exp(m - M) < 2^-62 S) would make it
    // subnormal or 0 and lose outputs that the 16-bit type still holds (bf16 down to 2^-133,
    // 2^64 times the kept exp); such a thread takes two products: (E rescale) >= 2^64 y is
    // normal wherever y is not 0 in bf16, then times 2^-64 / S.
    const float unscale = sizeof(T) == 2 ? softmax_scale_factor<T>(sum) * 0x1p-64f : 1.0f;
    const float factor = sizeof(T) == 2 ? unscale * rescale : divides ? sum : rescale / sum;
    const bool one_product = !(factor < 0x1p-126f);  // NaN too: it stays NaN either way
    // value: e (f32, or kept) or x (16-bit, recomputed)
    const auto out = [&](float value) {
      if constexpr (sizeof(T) == 4 || KeepExps)
        return divides ? value / factor : value * factor;
      else
        return softmax_exp_times_2_64(value, row_max) * factor;
    };
    const auto store = [&](auto out) {
#pragma unroll
      for (int p = 0; p < P; ++p) {
        const int j = p * threads + t;
        if (j < vectors) {
          float o[V];
          if constexpr (KeepExps) {
#pragma unroll
            for (int k = 0; k < V; ++k) o[k] = out(kept[p][k]);
          } else {
            const Vec v = buf[j];
#pragma unroll
            for (int k = 0; k < V; ++k) o[k] = out(kv::to_f32(v.lane[k]));
          }
          store_16_bytes<T, V>(y + j * V, pack_vec<T, V>(o));
        }
      }
      if (tail_thread) y[vectors * V + t] = kv::from_f32<T>(out(sizeof(T) == 4 || KeepExps ? tail_e : tail_x));
    };
    if (sizeof(T) == 4 || !KeepExps || one_product)
      store(out);
    else
      store([&](float kept_exp) { return kept_exp * rescale * unscale; });

    if constexpr (!KeepExps) {
      __syncthreads();  // every thread is done with this stage: it can be refilled
      if (threadIdx.x == 0) {
        bulk::fence_proxy_async();  // the f32 pass wrote the stage; the copy engine writes it next
        refill();
      }
    }
  }
  // No block may leave (its shared memory gone) while a peer still stores to its pairs.
  bulk::cluster_sync();
}

#endif

}  // namespace kverify::kernels
