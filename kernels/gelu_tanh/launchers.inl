// The gelu_tanh launchers, written once: gelu_tanh_emu.cpp compiles them for emu and
// gelu_tanh_cuda.cu for the GPU, each defining KV_BACKEND (the namespace, emu or cuda) first.
// Without KV_BACKEND (tests, variants.cpp) only the host helpers are defined.
//
// Both kernels use 256 threads and a grid-stride loop; the grid is one block per 1024 work items
// (elements, or 16-byte vectors), at most 132 SMs x 8 blocks (an H200 full at 2048 threads per SM).
#include <algorithm>
#include <cstdint>
#include <utility>

#include "kernels/common/backend_launch.hpp"
#include "kernels/gelu_tanh/gelu_tanh_contiguous_vec.cuh"
#include "kernels/gelu_tanh/gelu_tanh_strided.cuh"
#include "kernels/gelu_tanh/gelu_tanh_vec_ilp.cuh"
#include "kernels/gelu_tanh/vector_plan.hpp"

namespace kverify::kernels::gelu_tanh {

inline constexpr unsigned kThreads = 256;
inline constexpr long long kItemsPerThread = 4;
inline constexpr long long kMaxBlocks = 132 * 8;

inline unsigned blocks_for(long long items) {
  const long long per_block = kThreads * kItemsPerThread;
  return static_cast<unsigned>(std::clamp((items + per_block - 1) / per_block, 1LL, kMaxBlocks));
}

// The strided kernel's arguments, its loop ordered along y's memory: when y's column stride is
// the larger one (a column-major y), rows and columns swap so that neighbouring threads write
// neighbouring addresses.
template <typename T>
GeluStridedArgs<T> strided_args(const LaunchRequest& r) {
  const Layout2D& x = r.tensors[0].layout;
  const Layout2D& y = r.tensors[1].layout;
  GeluStridedArgs<T> a{static_cast<const T*>(r.tensors[0].data),
                       static_cast<T*>(r.tensors[1].data),
                       x.rows,
                       x.cols,
                       x.row_stride,
                       x.col_stride,
                       y.row_stride,
                       y.col_stride};
  if (a.rows > 1 && a.cols > 1 && a.y_col_stride > a.y_row_stride) {
    std::swap(a.rows, a.cols);
    std::swap(a.x_row_stride, a.x_col_stride);
    std::swap(a.y_row_stride, a.y_col_stride);
  }
  return a;
}

// Whether contiguous_vec runs its vector kernel on this request; when not (a strided layout, x and
// y in different element orders, or a pointer off a 16-byte boundary) it runs the strided kernel.
inline bool takes_vector_path(const LaunchRequest& r) {
  return vector_path_applies(r.tensors[0].layout, reinterpret_cast<std::uintptr_t>(r.tensors[0].data),
                             r.tensors[1].layout, reinterpret_cast<std::uintptr_t>(r.tensors[1].data));
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

// Any layout.
void strided(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = strided_args<T>(r);
    gelu_tanh_strided<T><<<dim3(blocks_for(args.rows * args.cols)), dim3(kThreads), 0, launch_stream(r)>>>(args);
    check_launch("gelu_tanh_strided<T>");
  });
}

// Dense, same-order, 16-byte aligned x and y: the vector kernel. Anything else, also when chosen
// explicitly with variant=contiguous_vec: the strided kernel (correct for every layout), never an
// unaligned vector access.
void contiguous_vec(const LaunchRequest& r) {
  if (!takes_vector_path(r)) {
    strided(r);
    return;
  }
  with_storage_type(r.dtype, [&]<typename T>() {
    const GeluContiguousArgs<T> args{static_cast<const T*>(r.tensors[0].data), static_cast<T*>(r.tensors[1].data),
                                     r.tensors[0].layout.rows * r.tensors[0].layout.cols};
    const long long vectors = args.n / GeluVector<T>::kLanes;
    gelu_tanh_contiguous_vec<T><<<dim3(blocks_for(vectors)), dim3(kThreads), 0, launch_stream(r)>>>(args);
    check_launch("gelu_tanh_contiguous_vec<T>");
  });
}

// vec_ilp: the same precondition and fallback as contiguous_vec; kGeluUnroll vectors in flight per
// thread, every tile of 256 x kGeluUnroll vectors in a block of its own (no grid-stride loop).
// Measured on the H200 at 2^28 elements (reports/h200/perf.md): f32 0.88 of the copy ceiling with
// 132 x 8 blocks, 0.91 with 132 x 32, 0.94 with a block per tile; bf16 at 32 registers (Version 8)
// 0.92 with 132 x 16, 0.94 with 132 x 32, 0.96 with 132 x 64 and 0.98 with a block per tile (2 or 8
// vectors per thread instead of 4: 0.96 at best).
void vec_ilp(const LaunchRequest& r) {
  if (!takes_vector_path(r)) {
    strided(r);
    return;
  }
  with_storage_type(r.dtype, [&]<typename T>() {
    const GeluContiguousArgs<T> args{static_cast<const T*>(r.tensors[0].data), static_cast<T*>(r.tensors[1].data),
                                     r.tensors[0].layout.rows * r.tensors[0].layout.cols};
    const long long vectors = args.n / GeluVector<T>::kLanes;
    const long long per_block = kThreads * kGeluUnroll;
    const long long tiles = std::max(1LL, (vectors + per_block - 1) / per_block);
    const auto blocks = static_cast<unsigned>(std::min(tiles, 0x7fffffffLL));
    gelu_tanh_vec_ilp<T><<<dim3(blocks), dim3(kThreads), 0, launch_stream(r)>>>(args);
    check_launch("gelu_tanh_vec_ilp<T>");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::gelu_tanh
