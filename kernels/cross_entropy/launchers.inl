// The cross_entropy launchers, written once: cross_entropy_emu.cpp and cross_entropy_cuda.cu
// compile them, each defining KV_BACKEND (emu or cuda) first.
#include "kernels/common/backend_launch.hpp"
#include "kernels/common/row_plans.hpp"
#include "kernels/cross_entropy/cross_entropy_kernels.cuh"

namespace kverify::kernels::cross_entropy {

// The op's tensors in its order (ops/cross_entropy/spec.cpp): logits, target, loss, total; target
// and loss are rank 1 (a column: their one stride is the layout's row stride), total rank 0.
template <typename T>
CrossEntropyArgs<T> cross_entropy_args(const LaunchRequest& r) {
  const DeviceTensor &logits = r.tensors[0], &target = r.tensors[1], &loss = r.tensors[2], &total = r.tensors[3];
  return {static_cast<const T*>(logits.data),
          static_cast<const long long*>(target.data),
          static_cast<float*>(loss.data),
          static_cast<float*>(total.data),
          logits.layout.rows,
          logits.layout.cols,
          logits.layout.row_stride,
          logits.layout.col_stride,
          target.layout.row_stride,
          loss.layout.row_stride,
          static_cast<long long>(r.params[0]),
          r.params[1] == 0 ? 1 : 0};  // the reduction's choices: mean, sum
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

template <typename T>
void launch_total(const LaunchRequest& r, const CrossEntropyArgs<T>& a) {
  const unsigned threads = static_cast<unsigned>(a.rows >= 1024 ? 1024 : (a.rows + 31) / 32 * 32);
  cross_entropy_total<T><<<1, threads, 0, launch_stream(r)>>>(a);
  check_launch("cross_entropy_total<T>");
}

void warp_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = cross_entropy_args<T>(r);
    cross_entropy_warp_per_row<T><<<dim3(static_cast<unsigned>((a.rows + kWarpRowsPerBlock - 1) / kWarpRowsPerBlock)),
                                    dim3(32 * kWarpRowsPerBlock), 0, launch_stream(r)>>>(a);
    check_launch("cross_entropy_warp_per_row<T>");
    launch_total(r, a);
  });
}

void block_online(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = cross_entropy_args<T>(r);
    const dim3 grid(static_cast<unsigned>(a.rows));
    constexpr int V = kLanesPerVector<T>;
    // 128 bytes in flight per thread: 8 vectors of 16-bit logits, 4 of f32 (the first measure on an
    // H100 had 4 of either).
    constexpr int P = sizeof(T) == 2 ? 8 : 4;
    if (a.logits_col_stride == 1 || a.classes == 1)
      cross_entropy_block_online<T, V, P>
          <<<grid, dim3(block_per_row_threads((a.classes + V - 1) / V)), 0, launch_stream(r)>>>(a);
    else
      cross_entropy_block_online<T, 1, 4><<<grid, dim3(block_per_row_threads(a.classes)), 0, launch_stream(r)>>>(a);
    check_launch("cross_entropy_block_online<T>");
    launch_total(r, a);
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::cross_entropy
