// The softmax launchers, written once: softmax_emu.cpp compiles them for emu and softmax_cuda.cu
// for the GPU, each defining KV_BACKEND (the namespace, emu or cuda) first; KV_LAUNCH differs.
// Each launcher maps a LaunchRequest to its kernel's grid, block and arguments.
#include "kernels/common/backend_launch.hpp"
#include "kernels/softmax/softmax_block_per_row.cuh"

namespace kverify::kernels::softmax {

template <typename T>
SoftmaxArgs<T> softmax_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.rows, x.layout.cols,
          x.layout.row_stride, x.layout.col_stride, y.layout.row_stride, y.layout.col_stride};
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

// One block per row (rows <= 2^31 - 1, the grid's x limit); 32..256 threads, a multiple of 32.
void block_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    const long long warps = (args.cols + 31) / 32;
    const unsigned threads = static_cast<unsigned>(32 * (warps < 8 ? warps : 8));
    KV_LAUNCH(softmax_block_per_row<T>, dim3(static_cast<unsigned>(args.rows)), dim3(threads), 0, r, args);
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::softmax
