// The matmul_relu launchers, written once: matmul_relu_emu.cpp compiles them for emu and
// matmul_relu_cuda.cu for the GPU, each defining KV_BACKEND (the namespace, emu or cuda) first.
// Included without KV_BACKEND it gives matmul_relu_args only (tests use it).
#include "kernels/common/backend_launch.hpp"
#include "kernels/matmul_relu/matmul_relu_simt128.cuh"
#include "kernels/matmul_relu/matmul_relu_tiled_smem.cuh"

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

#if defined(KV_BACKEND)
namespace KV_BACKEND {

// 64 x 64 tiles of C, 256 threads each; grid x over N tiles, y over M tiles.
void tiled_smem(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    using namespace matmul_tiled_smem;
    const auto args = matmul_relu_args<T>(r);
    const dim3 grid(grid_extent((args.n + kBN - 1) / kBN, 0x7fffffff), grid_extent((args.m + kBM - 1) / kBM, 65535));
    matmul_relu_tiled_smem<T><<<grid, dim3(kThreads), 0, launch_stream(r)>>>(args);
    check_launch("matmul_relu_tiled_smem<T>");
  });
}

// 128 x 128 tiles of C, 256 threads with 8 x 8 register tiles; grid x over N tiles, y over M tiles.
void simt_128x128(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    using namespace matmul_simt128;
    const auto args = matmul_relu_args<T>(r);
    const dim3 grid(grid_extent((args.n + kBN - 1) / kBN, 0x7fffffff), grid_extent((args.m + kBM - 1) / kBM, 65535));
    matmul_relu_simt128<T><<<grid, dim3(kThreads), 0, launch_stream(r)>>>(args);
    check_launch("matmul_relu_simt128<T>");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::matmul_relu
