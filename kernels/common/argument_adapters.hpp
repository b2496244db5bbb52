// The argument adapters of kverify_add_kernel: a user's own host launcher, called in its own terms
// (one of the signatures of kernels/signatures.def) from kverify's LaunchRequest. Each adapter
// reads the request's tensors and sizes, picks T from the Case's dtype among the dtypes the
// registration names (only those are instantiated, so a launcher that exists for float alone
// compiles), and calls
//
//     call(std::type_identity<T>{}, <the signature's arguments>..., [workspace,] [stream])
//
// The registration's generated code turns that call into the user's function (one name, a
// template or overload set, or one name per dtype). A size that the signature's int cannot hold
// never reaches the launcher: the signature implies int32_indexing, so such a Case is SKIPPED.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/common/backend_launch.hpp"

namespace kverify::adapters {
// Compiled once per backend into one binary: an inline namespace per backend keeps the linker from
// merging the two (emu spells __half as CUDA does), as in backend_launch.hpp.
#if defined(__CUDACC__)
inline namespace on_cuda {
#else
inline namespace on_emu {
#endif

// Which dtypes the registration names: only those are instantiated.
struct DTypes {
  bool f32, f16, bf16;
};

// The tail every signature shares: the workspace pointer (WORKSPACE) and the stream (not NO_STREAM).
struct Tail {
  bool workspace, stream;
};

template <DTypes kDTypes, typename F>
void with_registered_type(DType dtype, F&& f) {
  if constexpr (kDTypes.f32)
    if (dtype == DType::f32) return f(std::type_identity<float>{});
  if constexpr (kDTypes.f16)
    if (dtype == DType::f16) return f(std::type_identity<__half>{});
  if constexpr (kDTypes.bf16)
    if (dtype == DType::bf16) return f(std::type_identity<__nv_bfloat16>{});
  throw std::invalid_argument(std::string("the launcher is not registered for dtype ") + std::string(name(dtype)));
}

template <Tail kTail, typename Call, typename Tag, typename... A>
void call_with_tail(const LaunchRequest& r, Call& call, Tag tag, A... a) {
  if constexpr (kTail.workspace && kTail.stream)
    call(tag, a..., r.workspace, launch_stream(r));
  else if constexpr (kTail.workspace)
    call(tag, a..., r.workspace);
  else if constexpr (kTail.stream)
    call(tag, a..., launch_stream(r));
  else
    call(tag, a...);
}

template <typename T>
const T* input(const LaunchRequest& r, int t) {
  return static_cast<const T*>(r.tensors.at(static_cast<std::size_t>(t)).data);
}
template <typename T>
T* output(const LaunchRequest& r, int t) {
  return static_cast<T*>(r.tensors.at(static_cast<std::size_t>(t)).data);
}
inline const Layout2D& layout(const LaunchRequest& r, int t) {
  return r.tensors.at(static_cast<std::size_t>(t)).layout;
}

// (const T* x, T* y, int rows, int cols, ...)
template <DTypes kDTypes, Tail kTail, typename Call>
void rows(const LaunchRequest& r, Call call) {
  with_registered_type<kDTypes>(r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Layout2D& x = layout(r, 0);
    call_with_tail<kTail>(r, call, tag, input<T>(r, 0), output<T>(r, 1), static_cast<int>(x.rows),
                          static_cast<int>(x.cols));
  });
}

// (const T* x, T* y, int rows, int cols, long long x_row_stride, long long y_row_stride, ...)
template <DTypes kDTypes, Tail kTail, typename Call>
void rows_strided(const LaunchRequest& r, Call call) {
  with_registered_type<kDTypes>(r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Layout2D& x = layout(r, 0);
    call_with_tail<kTail>(r, call, tag, input<T>(r, 0), output<T>(r, 1), static_cast<int>(x.rows),
                          static_cast<int>(x.cols), static_cast<long long>(x.row_stride),
                          static_cast<long long>(layout(r, 1).row_stride));
  });
}

// (const T* x, T* y, long long rows, long long cols, long long x_row_stride, long long x_col_stride,
//  long long y_row_stride, long long y_col_stride, ...)
template <DTypes kDTypes, Tail kTail, typename Call>
void strided_2d(const LaunchRequest& r, Call call) {
  with_registered_type<kDTypes>(r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Layout2D &x = layout(r, 0), &y = layout(r, 1);
    call_with_tail<kTail>(r, call, tag, input<T>(r, 0), output<T>(r, 1), static_cast<long long>(x.rows),
                          static_cast<long long>(x.cols), static_cast<long long>(x.row_stride),
                          static_cast<long long>(x.col_stride), static_cast<long long>(y.row_stride),
                          static_cast<long long>(y.col_stride));
  });
}

// (const T* x, T* y, long long rows, long long cols, long long x_row_stride, long long x_col_stride,
//  long long y_stride, ...): y holds one value per row.
template <DTypes kDTypes, Tail kTail, typename Call>
void row_reduce_strided(const LaunchRequest& r, Call call) {
  with_registered_type<kDTypes>(r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Layout2D& x = layout(r, 0);
    call_with_tail<kTail>(r, call, tag, input<T>(r, 0), output<T>(r, 1), static_cast<long long>(x.rows),
                          static_cast<long long>(x.cols), static_cast<long long>(x.row_stride),
                          static_cast<long long>(x.col_stride), static_cast<long long>(layout(r, 1).row_stride));
  });
}

// (const T* x, T* y, long long n, ...)
template <DTypes kDTypes, Tail kTail, typename Call>
void flat(const LaunchRequest& r, Call call) {
  with_registered_type<kDTypes>(r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    call_with_tail<kTail>(r, call, tag, input<T>(r, 0), output<T>(r, 1),
                          static_cast<long long>(layout(r, 0).elements()));
  });
}

// (int M, int N, int K, const T* A, int lda, const T* B, int ldb, T* C, int ldc, ...): `ld` is the
// stride between rows (row-major) or between columns (column-major).
template <DTypes kDTypes, Tail kTail, bool kColumnMajor, typename Call>
void blas(const LaunchRequest& r, Call call) {
  with_registered_type<kDTypes>(r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto ld = [&](int t) {
      const Layout2D& l = layout(r, t);
      return static_cast<int>(kColumnMajor ? l.col_stride : l.row_stride);
    };
    const Layout2D& c = layout(r, 2);
    call_with_tail<kTail>(r, call, tag, static_cast<int>(c.rows), static_cast<int>(c.cols),
                          static_cast<int>(layout(r, 0).cols), input<T>(r, 0), ld(0), input<T>(r, 1), ld(1),
                          output<T>(r, 2), ld(2));
  });
}
template <DTypes kDTypes, Tail kTail, typename Call>
void blas_row_major(const LaunchRequest& r, Call call) {
  blas<kDTypes, kTail, false>(r, call);
}
template <DTypes kDTypes, Tail kTail, typename Call>
void blas_col_major(const LaunchRequest& r, Call call) {
  blas<kDTypes, kTail, true>(r, call);
}

}  // namespace on_cuda / on_emu
}  // namespace kverify::adapters
