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

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

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

// --- the signatures derived from the op's declaration: tensors, tensors_strided ----------------
//
// The launcher's parameters are the op's own list: every tensor's pointer in the op's order, every
// dimension's size, (tensors_strided: every tensor's strides, one per dimension, tensor by tensor),
// every scalar parameter, then [void* workspace] [cudaStream_t]. FUNCTION names one function per
// dtype, or a template named with its T (`my_launcher<T>`): its address gives the parameter types,
// and each argument is converted to its parameter's type with a check, so a launcher written for
// another op, another order, or an element type the op does not give its tensor fails the Case
// with the argument named instead of reading the wrong bytes.

// One argument of the op's list, before it meets the parameter's type.
struct Argument {
  enum class Kind { tensor, size, stride, param } kind;
  void* pointer = nullptr;   // tensor
  DType dtype = DType::f32;  // tensor: its element type
  double value = 0;          // size, stride, param
  std::string what;          // for messages: "tensor x", "dimension N", "parameter eps"
};

// The op's list of arguments for a request: tensors, sizes, [strides], parameters.
inline std::vector<Argument> op_arguments(const LaunchRequest& r, bool with_strides) {
  std::vector<Argument> a;
  for (std::size_t t = 0; t < r.tensors.size(); ++t)
    a.push_back(
        {Argument::Kind::tensor, r.tensors[t].data, r.tensors[t].dtype, 0, "tensor " + std::string(r.tensors[t].name)});
  for (std::size_t d = 0; d < r.shape.size(); ++d)
    a.push_back({Argument::Kind::size, nullptr, DType::f32, static_cast<double>(r.shape[d]),
                 "dimension " + (d < r.dim_names.size() ? std::string(r.dim_names[d]) : std::to_string(d))});
  if (with_strides)
    for (const auto& t : r.tensors)
      for (int d = 0; d < t.full.rank; ++d)
        a.push_back({Argument::Kind::stride, nullptr, DType::f32,
                     static_cast<double>(t.full.strides[static_cast<std::size_t>(d)]),
                     "stride " + std::to_string(d) + " of tensor " + std::string(t.name)});
  for (std::size_t p = 0; p < r.params.size(); ++p)
    a.push_back({Argument::Kind::param, nullptr, DType::f32, r.params[p],
                 "parameter " + (p < r.param_names.size() ? std::string(r.param_names[p]) : std::to_string(p))});
  return a;
}

[[noreturn]] inline void argument_mismatch(std::size_t i, const Argument& a, const std::string& wanted) {
  throw std::invalid_argument("the launcher's parameter " + std::to_string(i + 1) + " is " + wanted +
                              ", the op gives " + a.what +
                              " there (SIGNATURE tensors: the op's tensors, sizes, "
                              "[strides], parameters, in the op's order; `kverify help signatures`)");
}

// Whether a pointer to U may point at elements of this dtype (void: any).
template <typename U>
constexpr bool points_at(DType d) {
  using E = std::remove_cv_t<U>;
  if constexpr (std::is_void_v<E>)
    return true;
  else if constexpr (std::is_same_v<E, float>)
    return d == DType::f32;
  else if constexpr (std::is_same_v<E, double>)
    return d == DType::f64;
  else if constexpr (std::is_same_v<E, __half>)
    return d == DType::f16;
  else if constexpr (std::is_same_v<E, __nv_bfloat16>)
    return d == DType::bf16;
  else if constexpr (std::is_integral_v<E>)
    return (d == DType::i32 && sizeof(E) == 4) || (d == DType::i64 && sizeof(E) == 8) ||
           (d == DType::u8 && sizeof(E) == 1);
  else
    return false;
}

template <typename P>
P convert_argument(const Argument& a, std::size_t i) {
  if constexpr (std::is_pointer_v<P>) {
    if (a.kind != Argument::Kind::tensor) argument_mismatch(i, a, "a pointer");
    if (!points_at<std::remove_pointer_t<P>>(a.dtype))
      argument_mismatch(i, a, "a pointer to another element type than " + std::string(name(a.dtype)));
    return static_cast<P>(a.pointer);
  } else if constexpr (std::is_same_v<P, bool>) {
    if (a.kind != Argument::Kind::param || (a.value != 0 && a.value != 1)) argument_mismatch(i, a, "a bool");
    return a.value != 0;
  } else if constexpr (std::is_integral_v<P>) {
    if (a.kind == Argument::Kind::tensor) argument_mismatch(i, a, "a whole number");
    if (a.value != static_cast<double>(static_cast<long long>(a.value)) ||
        a.value < static_cast<double>(std::numeric_limits<P>::lowest()) ||
        a.value > static_cast<double>(std::numeric_limits<P>::max()))
      argument_mismatch(i, a, "a whole number its type holds (" + std::to_string(a.value) + " does not fit)");
    return static_cast<P>(a.value);
  } else if constexpr (std::is_floating_point_v<P>) {
    if (a.kind != Argument::Kind::param) argument_mismatch(i, a, "a floating-point number (a parameter)");
    return static_cast<P>(a.value);
  } else {
    static_assert(std::is_pointer_v<P>,
                  "a launcher of SIGNATURE tensors takes pointers, whole numbers, bool and floating point");
  }
}

template <Tail kTail, typename R, typename... P>
void call_with_op_arguments(R (*fn)(P...), const LaunchRequest& r, bool with_strides) {
  constexpr std::size_t kTailCount = (kTail.workspace ? 1 : 0) + (kTail.stream ? 1 : 0);
  static_assert(sizeof...(P) >= kTailCount,
                "the launcher lacks the stream (or workspace) parameter its registration declares");
  const std::vector<Argument> args = op_arguments(r, with_strides);
  constexpr std::size_t kCount = sizeof...(P) - kTailCount;
  if (args.size() != kCount)
    throw std::invalid_argument("the launcher takes " + std::to_string(kCount) + " parameters before its " +
                                (kTailCount ? "workspace/stream" : "end") + ", the op gives " +
                                std::to_string(args.size()) +
                                " (its tensors, sizes, [strides], parameters; `kverify help signatures`)");
  using Params = std::tuple<P...>;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    if constexpr (kTail.workspace && kTail.stream)
      fn(convert_argument<std::tuple_element_t<I, Params>>(args[I], I)..., r.workspace, launch_stream(r));
    else if constexpr (kTail.workspace)
      fn(convert_argument<std::tuple_element_t<I, Params>>(args[I], I)..., r.workspace);
    else if constexpr (kTail.stream)
      fn(convert_argument<std::tuple_element_t<I, Params>>(args[I], I)..., launch_stream(r));
    else
      fn(convert_argument<std::tuple_element_t<I, Params>>(args[I], I)...);
  }
  (std::make_index_sequence<kCount>{});
}

// `address(tag)`: the launcher's address for the dtype's T (one name per dtype, or `name<T>`).
template <DTypes kDTypes, Tail kTail, typename Address>
void tensors(const LaunchRequest& r, Address address) {
  with_registered_type<kDTypes>(r.dtype, [&](auto tag) { call_with_op_arguments<kTail>(address(tag), r, false); });
}
template <DTypes kDTypes, Tail kTail, typename Address>
void tensors_strided(const LaunchRequest& r, Address address) {
  with_registered_type<kDTypes>(r.dtype, [&](auto tag) { call_with_op_arguments<kTail>(address(tag), r, true); });
}

}  // namespace on_cuda / on_emu
}  // namespace kverify::adapters
