// Launchers of the mutants, written once for both backends (see kernels/softmax/launchers.inl).
#include "kernels/common/backend_launch.hpp"
#include "kernels/mutants/mutant_kernels.cuh"
// The production ops' argument builders, without their launchers (which live in their own TUs).
#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/matmul_relu/launchers.inl"
#include "kernels/row_sum/launchers.inl"
#include "kernels/softmax/launchers.inl"
#pragma pop_macro("KV_BACKEND")

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

#define KV_SOFTMAX_MUTANT(name, grid_of, threads)                       \
  void name(const LaunchRequest& r) {                                     \
    with_storage_type(r.dtype, [&]<typename T>() {                        \
      const auto a = softmax::softmax_args<T>(r);                         \
      KV_LAUNCH(mutants::name<T>, grid_of(a.rows), dim3(threads), 0, r, a); \
    });                                                                   \
  }
inline dim3 block_per_row_grid(long long rows) { return dim3(static_cast<unsigned>(rows)); }
KV_SOFTMAX_MUTANT(softmax_store_only_mask, warp_per_row_grid, 256)
KV_SOFTMAX_MUTANT(softmax_unit_stride, warp_per_row_grid, 256)
KV_SOFTMAX_MUTANT(softmax_fixed_block, block_per_row_grid, 256)
KV_SOFTMAX_MUTANT(softmax_f16_denominator, block_per_row_grid, 256)
KV_SOFTMAX_MUTANT(softmax_missing_barrier, block_per_row_grid, 256)
#undef KV_SOFTMAX_MUTANT

void row_sum_nonzero_padding(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum::row_sum_args<T>(r);
    KV_LAUNCH(mutants::row_sum_nonzero_padding<T>, warp_per_row_grid(a.rows), dim3(256), 0, r, a);
  });
}
void gelu_wrong_constant(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    KV_LAUNCH((mutants::gelu_wrong_formula<T, 0>), dim3(64), dim3(256), 0, r, elementwise_args<T>(r));
  });
}
void gelu_erf(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    KV_LAUNCH((mutants::gelu_wrong_formula<T, 1>), dim3(64), dim3(256), 0, r, elementwise_args<T>(r));
  });
}
template <int kBug>
void matmul_buggy(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = matmul_relu::matmul_relu_args<T>(r);
    const dim3 grid(static_cast<unsigned>((a.n + 15) / 16), static_cast<unsigned>((a.m + 15) / 16));
    KV_LAUNCH((mutants::matmul_buggy<T, kBug>), grid, dim3(16, 16), 0, r, a);
  });
}
void matmul_relu_per_k_tile(const LaunchRequest& r) { matmul_buggy<0>(r); }
void matmul_unmasked_k_tail(const LaunchRequest& r) { matmul_buggy<1>(r); }
void matmul_unmasked_n_store(const LaunchRequest& r) { matmul_buggy<2>(r); }
void matmul_a_as_row_major(const LaunchRequest& r) { matmul_buggy<3>(r); }

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::mutants
