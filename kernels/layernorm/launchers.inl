// The layernorm launchers, written once: layernorm_emu.cpp and layernorm_cuda.cu compile them, each
// defining KV_BACKEND (emu or cuda) first.
#include "kernels/common/backend_launch.hpp"
#include "kernels/common/row_plans.hpp"
#include "kernels/layernorm/layernorm_kernels.cuh"

namespace kverify::kernels::layernorm {

// The op's tensors in its order (ops/layernorm/spec.cpp): x, w, b, y, mean, rstd; w, b, mean and
// rstd are rank 1 (a column: their one stride is the layout's row stride).
template <typename T>
LayernormArgs<T> layernorm_args(const LaunchRequest& r) {
  const DeviceTensor &x = r.tensors[0], &w = r.tensors[1], &b = r.tensors[2], &y = r.tensors[3], &mean = r.tensors[4],
                     &rstd = r.tensors[5];
  return {static_cast<const T*>(x.data),
          static_cast<const T*>(w.data),
          static_cast<const T*>(b.data),
          static_cast<T*>(y.data),
          static_cast<float*>(mean.data),
          static_cast<float*>(rstd.data),
          x.layout.rows,
          x.layout.cols,
          x.layout.row_stride,
          x.layout.col_stride,
          w.layout.row_stride,
          b.layout.row_stride,
          y.layout.row_stride,
          y.layout.col_stride,
          mean.layout.row_stride,
          rstd.layout.row_stride,
          static_cast<float>(r.params[0])};
}

// block_vec's vector path: x and y rows of unit stride starting on 16-byte boundaries, w and b
// dense and aligned too (their one stride is the layout's row stride).
inline bool layernorm_vector_path(const LaunchRequest& r) {
  const std::size_t bytes = size_of(r.dtype);
  const DeviceTensor &x = r.tensors[0], &w = r.tensors[1], &b = r.tensors[2], &y = r.tensors[3];
  const auto dense_aligned = [](const DeviceTensor& t) {
    return (t.layout.rows == 1 || t.layout.row_stride == 1) &&
           reinterpret_cast<std::uintptr_t>(t.data) % kVectorBytes == 0;
  };
  return vector_rows_ok(x.layout, reinterpret_cast<std::uintptr_t>(x.data), bytes) &&
         vector_rows_ok(y.layout, reinterpret_cast<std::uintptr_t>(y.data), bytes) && dense_aligned(w) &&
         dense_aligned(b);
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

void warp_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = layernorm_args<T>(r);
    layernorm_warp_per_row<T><<<dim3(static_cast<unsigned>((a.rows + kWarpRowsPerBlock - 1) / kWarpRowsPerBlock)),
                                dim3(32 * kWarpRowsPerBlock), 0, launch_stream(r)>>>(a);
    check_launch("layernorm_warp_per_row<T>");
  });
}

void block_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = layernorm_args<T>(r);
    layernorm_block_per_row<T>
        <<<dim3(static_cast<unsigned>(a.rows)), dim3(block_per_row_threads(a.cols)), 0, launch_stream(r)>>>(a);
    check_launch("layernorm_block_per_row<T>");
  });
}

template <typename T, int V>
void block_vec_launch(const LaunchRequest& r, const LayernormArgs<T>& a) {
  const RegisterRowPlan plan = register_row_plan(a.cols, V);
  const dim3 grid(static_cast<unsigned>(a.rows));
  if (plan.vectors_per_thread == 1)
    layernorm_block_vec<T, V, 1><<<grid, dim3(plan.threads), 0, launch_stream(r)>>>(a);
  else
    layernorm_block_vec<T, V, 4><<<grid, dim3(plan.threads), 0, launch_stream(r)>>>(a);
}

void block_vec(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = layernorm_args<T>(r);
    if (layernorm_vector_path(r) && (a.cols + kLanesPerVector<T> - 1) / kLanesPerVector<T> <= kRegisterRowMaxVectors)
      block_vec_launch<T, kLanesPerVector<T>>(r, a);
    else if (a.cols <= kRegisterRowMaxVectors)
      block_vec_launch<T, 1>(r, a);
    else  // wider than registers hold: three passes over the row
      layernorm_block_per_row<T>
          <<<dim3(static_cast<unsigned>(a.rows)), dim3(block_per_row_threads(a.cols)), 0, launch_stream(r)>>>(a);
    check_launch("layernorm_block_vec<T>");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::layernorm
