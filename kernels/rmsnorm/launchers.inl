// The rmsnorm launchers, written once: rmsnorm_emu.cpp and rmsnorm_cuda.cu compile them, each
// defining KV_BACKEND (emu or cuda) first.
#include "kernels/common/backend_launch.hpp"
#include "kernels/common/row_plans.hpp"
#include "kernels/rmsnorm/rmsnorm_kernels.cuh"

namespace kverify::kernels::rmsnorm {

// The op's tensors in its order (ops/rmsnorm/spec.cpp): x, w, y, rstd; w and rstd are rank 1 (a
// column: their one stride is the layout's row stride).
template <typename T>
RmsnormArgs<T> rmsnorm_args(const LaunchRequest& r) {
  const DeviceTensor &x = r.tensors[0], &w = r.tensors[1], &y = r.tensors[2], &rstd = r.tensors[3];
  return {static_cast<const T*>(x.data),
          static_cast<const T*>(w.data),
          static_cast<T*>(y.data),
          static_cast<float*>(rstd.data),
          x.layout.rows,
          x.layout.cols,
          x.layout.row_stride,
          x.layout.col_stride,
          w.layout.row_stride,
          y.layout.row_stride,
          y.layout.col_stride,
          rstd.layout.row_stride,
          static_cast<float>(r.params[0])};
}

// block_vec's vector path: x and y rows of unit stride starting on 16-byte boundaries, w dense
// and aligned too (its one stride is the layout's row stride).
inline bool rmsnorm_vector_path(const LaunchRequest& r) {
  const std::size_t bytes = size_of(r.dtype);
  const DeviceTensor &x = r.tensors[0], &w = r.tensors[1], &y = r.tensors[2];
  const bool w_dense = w.layout.rows == 1 || w.layout.row_stride == 1;
  return vector_rows_ok(x.layout, reinterpret_cast<std::uintptr_t>(x.data), bytes) &&
         vector_rows_ok(y.layout, reinterpret_cast<std::uintptr_t>(y.data), bytes) && w_dense &&
         reinterpret_cast<std::uintptr_t>(w.data) % kVectorBytes == 0;
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

void warp_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = rmsnorm_args<T>(r);
    rmsnorm_warp_per_row<T><<<dim3(static_cast<unsigned>((a.rows + kWarpRowsPerBlock - 1) / kWarpRowsPerBlock)),
                              dim3(32 * kWarpRowsPerBlock), 0, launch_stream(r)>>>(a);
    check_launch("rmsnorm_warp_per_row<T>");
  });
}

void block_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = rmsnorm_args<T>(r);
    rmsnorm_block_per_row<T>
        <<<dim3(static_cast<unsigned>(a.rows)), dim3(block_per_row_threads(a.cols)), 0, launch_stream(r)>>>(a);
    check_launch("rmsnorm_block_per_row<T>");
  });
}

template <typename T, int V>
void block_vec_launch(const LaunchRequest& r, const RmsnormArgs<T>& a) {
  const RegisterRowPlan plan = register_row_plan(a.cols, V);
  const dim3 grid(static_cast<unsigned>(a.rows));
  if (plan.vectors_per_thread == 1)
    rmsnorm_block_vec<T, V, 1><<<grid, dim3(plan.threads), 0, launch_stream(r)>>>(a);
  else
    rmsnorm_block_vec<T, V, 4><<<grid, dim3(plan.threads), 0, launch_stream(r)>>>(a);
}

void block_vec(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = rmsnorm_args<T>(r);
    if (rmsnorm_vector_path(r) && (a.cols + kLanesPerVector<T> - 1) / kLanesPerVector<T> <= kRegisterRowMaxVectors)
      block_vec_launch<T, kLanesPerVector<T>>(r, a);
    else if (a.cols <= kRegisterRowMaxVectors)
      block_vec_launch<T, 1>(r, a);
    else  // wider than registers hold: two passes over the row
      rmsnorm_block_per_row<T>
          <<<dim3(static_cast<unsigned>(a.rows)), dim3(block_per_row_threads(a.cols)), 0, launch_stream(r)>>>(a);
    check_launch("rmsnorm_block_vec<T>");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::rmsnorm
