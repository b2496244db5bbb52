// matmul_relu's kernel arguments from a LaunchRequest, and the grid extent rule its launchers
// share (launchers.inl, matmul_relu_simt_launch.cuh, the mutants, the tests).
#pragma once

#include "kernels/launch_request.hpp"
#include "kernels/matmul_relu/matmul_relu_tiled_smem.cuh"  // MatmulReluArgs

namespace kverify::kernels::matmul_relu {

// LaunchRequest -> kernel arguments: shape M x N x K; tensors a (M x K), b (K x N), c (M x N), each
// pointing at its element (0, 0) with its own strides in elements.
template <typename T>
MatmulReluArgs<T> matmul_relu_args(const LaunchRequest& r) {
  const DeviceTensor& a = r.tensors[0];
  const DeviceTensor& b = r.tensors[1];
  const DeviceTensor& c = r.tensors[2];
  return {static_cast<const T*>(a.data),
          static_cast<const T*>(b.data),
          static_cast<T*>(c.data),
          r.shape[0],
          r.shape[1],
          r.shape[2],
          a.layout.row_stride,
          a.layout.col_stride,
          b.layout.row_stride,
          b.layout.col_stride,
          c.layout.row_stride,
          c.layout.col_stride};
}

// Blocks along one grid dimension: the tile count, capped at the dimension's limit (the kernels
// loop over the tiles beyond it).
inline unsigned grid_extent(long long tiles, long long limit) {
  return static_cast<unsigned>(tiles < limit ? tiles : limit);
}

}  // namespace kverify::kernels::matmul_relu
