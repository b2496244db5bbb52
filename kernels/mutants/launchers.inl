// Launchers of the mutants, written once for both backends (see kernels/softmax/launchers.inl).
#include "kernels/common/backend_launch.hpp"
#include "kernels/mutants/mutant_kernels.cuh"
#include "kernels/row_sum/launchers.inl"
#include "kernels/softmax/launchers.inl"

namespace kverify::kernels::mutants {

template <typename T>
ElementwiseArgs<T> elementwise_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<T*>(x.data), static_cast<T*>(y.data), x.layout.rows, x.layout.cols, x.layout.row_stride,
          x.layout.col_stride, y.layout.row_stride, y.layout.col_stride};
}

inline dim3 warp_per_row_grid(long long rows) { return dim3(static_cast<unsigned>((rows + 7) / 8)); }

#if defined(KV_BACKEND)
namespace KV_BACKEND {

void softmax_zero_padding(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = softmax::softmax_args<T>(r);
    KV_LAUNCH(mutants::softmax_zero_padding<T>, warp_per_row_grid(a.rows), dim3(256), 0, r, a);
  });
}
void softmax_no_max_subtraction(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = softmax::softmax_args<T>(r);
    KV_LAUNCH(mutants::softmax_no_max_subtraction<T>, warp_per_row_grid(a.rows), dim3(256), 0, r, a);
  });
}
void row_sum_drop_tail(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum::row_sum_args<T>(r);
    KV_LAUNCH(mutants::row_sum_drop_tail<T>, warp_per_row_grid(a.rows), dim3(256), 0, r, a);
  });
}
void row_sum_skip_last_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum::row_sum_args<T>(r);
    KV_LAUNCH(mutants::row_sum_skip_last_row<T>, warp_per_row_grid(a.rows), dim3(256), 0, r, a);
  });
}
void gelu_exp_tanh(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = elementwise_args<T>(r);
    KV_LAUNCH(mutants::gelu_exp_tanh<T>, dim3(64), dim3(256), 0, r, a);
  });
}
void gelu_writes_input(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = elementwise_args<T>(r);
    KV_LAUNCH(mutants::gelu_writes_input<T>, dim3(64), dim3(256), 0, r, a);
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::mutants
