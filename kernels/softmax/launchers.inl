// The softmax launchers, written once: softmax_emu.cpp compiles them for emu and softmax_cuda.cu
// for the GPU, each defining KV_BACKEND (the namespace, emu or cuda) first; KV_LAUNCH differs.
// Each launcher maps a LaunchRequest to its kernel's grid, block and arguments.
#include "kernels/common/backend_launch.hpp"
#include "kernels/softmax/softmax_block_on_chip.cuh"
#include "kernels/softmax/softmax_block_per_row.cuh"
#include "kernels/softmax/softmax_online.cuh"
#include "kernels/softmax/softmax_warp_per_row.cuh"

namespace kverify::kernels::softmax {

template <typename T>
SoftmaxArgs<T> softmax_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.rows, x.layout.cols,
          x.layout.row_stride, x.layout.col_stride, y.layout.row_stride, y.layout.col_stride};
}

// Threads for a block-per-row kernel: one per column up to `max_threads`, a multiple of 32.
inline unsigned block_threads(long long cols, unsigned max_threads) {
  const long long warps = (cols + 31) / 32;
  return static_cast<unsigned>(32 * (warps < max_threads / 32 ? warps : max_threads / 32));
}

inline constexpr long long kWarpPerRowMaxColumns = 32 * 32;

#if defined(KV_BACKEND)
namespace KV_BACKEND {

// One block per row (rows <= 2^31 - 1, the grid's x limit); 32..256 threads.
void block_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    KV_LAUNCH(softmax_block_per_row<T>, dim3(static_cast<unsigned>(args.rows)), dim3(block_threads(args.cols, 256)), 0,
              r, args);
  });
}

// A warp per row, 8 rows per block; registers per lane: the next power of two >= cols / 32.
void warp_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    if (args.cols > kWarpPerRowMaxColumns)
      throw std::invalid_argument("softmax/warp_per_row takes rows of at most 1024 columns");
    const dim3 grid(static_cast<unsigned>((args.rows + 7) / 8)), block(256);
    const long long per_lane = (args.cols + 31) / 32;
    if (per_lane <= 1) KV_LAUNCH((softmax_warp_per_row<T, 1>), grid, block, 0, r, args);
    else if (per_lane <= 2) KV_LAUNCH((softmax_warp_per_row<T, 2>), grid, block, 0, r, args);
    else if (per_lane <= 4) KV_LAUNCH((softmax_warp_per_row<T, 4>), grid, block, 0, r, args);
    else if (per_lane <= 8) KV_LAUNCH((softmax_warp_per_row<T, 8>), grid, block, 0, r, args);
    else if (per_lane <= 16) KV_LAUNCH((softmax_warp_per_row<T, 16>), grid, block, 0, r, args);
    else KV_LAUNCH((softmax_warp_per_row<T, 32>), grid, block, 0, r, args);
  });
}

// One block per row with the row in dynamic shared memory; up to 1024 threads.
void block_on_chip(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    if (args.cols > kMaxOnChipColumns)
      throw std::invalid_argument("softmax/block_on_chip takes rows of at most 57344 columns");
    const std::size_t shared = static_cast<std::size_t>(args.cols) * sizeof(float);
    KV_ALLOW_DYNAMIC_SHARED(softmax_block_on_chip<T>, shared);
    KV_LAUNCH(softmax_block_on_chip<T>, dim3(static_cast<unsigned>(args.rows)), dim3(block_threads(args.cols, 1024)),
              shared, r, args);
  });
}

// One block per row, streaming: any width.
void online(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    KV_LAUNCH(softmax_online<T>, dim3(static_cast<unsigned>(args.rows)), dim3(block_threads(args.cols, 1024)), 0, r,
              args);
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::softmax
