// softmax, mid rows, each input element read from memory once and held in registers: one block per
// row; each of the block's threads holds P vectors of V elements (up to 1024 x 32 = 32768 columns),
// block reductions. Wider rows: softmax_cluster_bulk.cuh (a cluster of blocks per row, on sm_90).
//
// Thread t's vector p covers columns (p * blockDim.x + t) * V .. + V - 1 (coalesced). Rows:
// blockIdx.y strides over them (gridDim.y <= 65535). Padding, addition depth and out-of-domain
// rows as in softmax_rows_vec.cuh. Vector access and the V = 1 any-layout path:
// kernels/common/vec_io.cuh.
#pragma once

#include "kernels/common/block_reduce.cuh"
#include "kernels/common/vec_io.cuh"
#include "kernels/softmax/softmax_block_per_row.cuh"  // SoftmaxArgs
#include "kernels/softmax/softmax_rows_vec.cuh"       // softmax_scale_factor, softmax_normalise

namespace kverify::kernels {

inline constexpr int kSoftmaxRegsMaxThreads = 1024;
inline constexpr int kSoftmaxRegsMaxValues = 32;  // per thread: V * P

template <typename T, int V, int P>
__global__ void __launch_bounds__(kSoftmaxRegsMaxThreads) softmax_block_regs(SoftmaxArgs<T> a) {
  __shared__ float scratch[32];
  // Thread t's vector p starts at this column (int: a row here has <= 32768 columns).
  const auto column = [](int p) { return (p * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x)) * V; };
  for (long long row = blockIdx.y; row < a.rows; row += gridDim.y) {
    const T* x = a.x + row * a.x_row_stride;
    T* y = a.y + row * a.y_row_stride;
    // Read per row: hoisted above the loop, ptxas kept it live across it and spilled 36 bytes of
    // <f32, 4, 8> at the 64-register limit (nvcc 13.0), which cost 10 % of the copy ceiling.
    const int cols = static_cast<int>(a.cols);

    float v[P][V];
#pragma unroll
    for (int p = 0; p < P; ++p) load_vec<T, V>(x, a.x_col_stride, cols, column(p), MaxOp::identity(), v[p]);
    float max = MaxOp::identity();
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int k = 0; k < V; ++k) max = fmaxf(max, v[p][k]);
    max = block_reduce(max, MaxOp{}, scratch);

    float acc[V];
#pragma unroll
    for (int k = 0; k < V; ++k) acc[k] = 0.0f;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      softmax_exp_vec<T, V>(v[p], max, column(p), cols);
#pragma unroll
      for (int k = 0; k < V; ++k) acc[k] += v[p][k];
    }
    const float sum = block_reduce(tree_sum<V>(acc), SumOp{}, scratch);
    const float factor = softmax_scale_factor<T>(sum);
#pragma unroll
    for (int p = 0; p < P; ++p) {
#pragma unroll
      for (int k = 0; k < V; ++k) v[p][k] = softmax_normalise<T>(v[p][k], factor);
      store_vec<T, V>(y, a.y_col_stride, cols, column(p), v[p]);
    }
  }
}

}  // namespace kverify::kernels
