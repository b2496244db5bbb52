// softmax, mid to very wide rows, each input element read from memory once and held in registers:
//
//   block_regs    (kClustered = false) one block per row; each of the block's threads holds P
//                 vectors of V elements (up to 1024 x 32 = 32768 columns), block reductions.
//   cluster_regs  (kClustered = true, sm_90 only) a thread-block cluster of C blocks per row
//                 (C = 2..8, the portable cluster size); block r of the cluster holds slice r of
//                 the row in its registers; the blocks' partial max, then their partial sums, are
//                 exchanged through distributed shared memory (each block reads the C slots of
//                 every block in rank order: the same bits in every block and on every run).
//                 Rows up to 8 x 32768 = 262144 columns.
//
// Thread t's vector p covers columns slice_begin + (p * blockDim.x + t) * V .. + V - 1 (coalesced).
// Rows: blockIdx.y strides over them (gridDim.y <= 65535). Padding, addition depth and out-of-domain
// rows as in softmax_rows_vec.cuh; the cluster adds C - 1 sequential additions (C <= 8) and one
// more max. Vector access and the V = 1 any-layout path: kernels/common/vec_io.cuh.
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/common/vec_io.cuh"
#include "kernels/softmax/softmax_block_per_row.cuh"  // SoftmaxArgs
#include "kernels/softmax/softmax_rows_vec.cuh"       // softmax_scale_factor, softmax_normalise

#if defined(__CUDACC__)
#include <cooperative_groups.h>
#endif

namespace kverify::kernels {

inline constexpr int kSoftmaxRegsMaxThreads = 1024;
inline constexpr int kSoftmaxRegsMaxValues = 32;  // per thread: V * P
inline constexpr int kSoftmaxMaxCluster = 8;

// Across the cluster: every block contributes `mine` (its block-wide value) and gets the
// combination of all blocks' values in rank order. `slots` is this block's shared array of
// kSoftmaxMaxCluster floats, `round` picks which slot a use writes (two uses per row, the slots
// alternate so that a block racing ahead to the next use never overwrites a value still being read).
template <bool kClustered, typename Op>
__device__ __forceinline__ float cluster_combine(float mine, Op op, float* slots, int round) {
  if constexpr (!kClustered) {
    return mine;
  } else {
#if defined(__CUDACC__)
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned blocks = cluster.num_blocks();
    if (threadIdx.x == 0) slots[round] = mine;
    cluster.sync();  // every block's slot written and visible cluster-wide
    float all = Op::identity();
    for (unsigned r = 0; r < blocks; ++r) all = op(all, cluster.map_shared_rank(slots, r)[round]);
    return all;
#else
    __trap();  // never instantiated for emu: the cluster variant is registered on_emu = false
#endif
  }
}

template <typename T, int V, int P, bool kClustered>
__global__ void __launch_bounds__(kSoftmaxRegsMaxThreads) softmax_block_regs(SoftmaxArgs<T> a) {
  __shared__ float scratch[32];
  __shared__ float slots[4];  // cluster exchange: max and sum, two rows deep
  unsigned rank = 0, blocks = 1;
#if defined(__CUDACC__)
  if constexpr (kClustered) {
    rank = cooperative_groups::this_cluster().block_rank();
    blocks = cooperative_groups::this_cluster().num_blocks();
  }
#endif
  // Each block's slice: a whole number of vectors so that every slice starts 16-byte aligned.
  const long long vectors = (a.cols + V - 1) / V;
  const long long slice_vectors = (vectors + blocks - 1) / blocks;
  const long long begin = static_cast<long long>(rank) * slice_vectors * V;
  const long long end_raw = begin + slice_vectors * V;
  const long long end = end_raw < a.cols ? end_raw : a.cols;

  // Thread t's vector p starts at this column of the slice (int: a slice has <= 32768 columns).
  const auto column = [](int p) { return (p * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x)) * V; };
  int parity = 0;
  for (long long row = blockIdx.y; row < a.rows; row += gridDim.y, parity ^= 1) {
    const T* x = a.x + row * a.x_row_stride + begin * a.x_col_stride;
    T* y = a.y + row * a.y_row_stride + begin * a.y_col_stride;
    const int cols = static_cast<int>(end > begin ? end - begin : 0);  // this block's slice

    float v[P][V];
#pragma unroll
    for (int p = 0; p < P; ++p) load_vec<T, V>(x, a.x_col_stride, cols, column(p), MaxOp::identity(), v[p]);
    float max = MaxOp::identity();
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int k = 0; k < V; ++k) max = fmaxf(max, v[p][k]);
    max = block_reduce(max, MaxOp{}, scratch);
    max = cluster_combine<kClustered>(max, MaxOp{}, slots, 2 * parity);

    float acc[V];
#pragma unroll
    for (int k = 0; k < V; ++k) acc[k] = 0.0f;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      softmax_exp_vec<T, V>(v[p], max, column(p), cols);
#pragma unroll
      for (int k = 0; k < V; ++k) acc[k] += v[p][k];
    }
    float sum = block_reduce(tree_sum<V>(acc), SumOp{}, scratch);
    sum = cluster_combine<kClustered>(sum, SumOp{}, slots, 2 * parity + 1);
    const float factor = softmax_scale_factor<T>(sum);
#pragma unroll
    for (int p = 0; p < P; ++p) {
#pragma unroll
      for (int k = 0; k < V; ++k) v[p][k] = softmax_normalise<T>(v[p][k], factor);
      store_vec<T, V>(y, a.y_col_stride, cols, column(p), v[p]);
    }
  }
#if defined(__CUDACC__)
  // No block may leave (and release its shared memory) while another still reads its slots.
  if constexpr (kClustered) cooperative_groups::this_cluster().sync();
#endif
}

}  // namespace kverify::kernels
