// cub::ThreadReduce on emu: the reduction of a thread's own array, in CUB 3.0's order (what
// BlockReduce of several items per thread and BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY use).
//
// CUB 3.0 (CUDA 13.0, cub/thread/thread_reduce.cuh) picks the order from the operator's type:
// for libcu++'s functors (::cuda::std::plus, multiplies, bit_and, bit_or, bit_xor, with or
// without a type, ::cuda::maximum, ::cuda::minimum) on a value type of less than 8 bytes, a
// binary tree over adjacent pairs, ((a0 op a1) op (a2 op a3)) op ...; for any other operator
// (a lambda, cub::Sum) and for 8-byte types, left to right, ((a0 op a1) op a2) op .... Emu does
// the same, so a float sum matches the GPU bit for bit. Where CUB 3.0 uses other orders the
// results are exact anyway (int32 sums on sm_90: sequential; ternary trees for 32-bit integers),
// except 2-byte floating types (__half, __nv_bfloat16) with plus or multiplies on arrays of 4 or
// more, which CUB packs pairwise into half2 arithmetic: emu's tree can differ there in the last
// bits.
#pragma once

#include <type_traits>

#include "cub/thread/thread_operators.cuh"

namespace cub {

namespace emu_detail {

template <class Op, class T>
constexpr bool tree_order() {
  using O = std::remove_cvref_t<Op>;
  if constexpr (sizeof(T) >= 8) {
    return false;
  } else {
    return std::is_same_v<O, ::cuda::std::plus<>> || std::is_same_v<O, ::cuda::std::plus<T>> ||
           std::is_same_v<O, ::cuda::std::multiplies<>> || std::is_same_v<O, ::cuda::std::multiplies<T>> ||
           std::is_same_v<O, ::cuda::std::bit_and<>> || std::is_same_v<O, ::cuda::std::bit_and<T>> ||
           std::is_same_v<O, ::cuda::std::bit_or<>> || std::is_same_v<O, ::cuda::std::bit_or<T>> ||
           std::is_same_v<O, ::cuda::std::bit_xor<>> || std::is_same_v<O, ::cuda::std::bit_xor<T>> ||
           std::is_same_v<O, ::cuda::maximum<>> || std::is_same_v<O, ::cuda::maximum<T>> ||
           std::is_same_v<O, ::cuda::minimum<>> || std::is_same_v<O, ::cuda::minimum<T>>;
  }
}

// Reduces a[0..n) in place and returns the result.
template <class Op, class A>
A reduce_in_place(A* a, int n, Op& op) {
  if constexpr (tree_order<Op, A>()) {
    for (int stride = 1; stride < n; stride *= 2)
      for (int j = 0; j + stride < n; j += 2 * stride) a[j] = op(a[j], a[j + stride]);
    return a[0];
  } else {
    A acc = a[0];
    for (int i = 1; i < n; ++i) acc = op(acc, a[i]);
    return acc;
  }
}

}  // namespace emu_detail

template <class T, int N, class Op>
auto ThreadReduce(const T (&input)[N], Op op) -> std::decay_t<decltype(op(input[0], input[0]))> {
  using A = std::decay_t<decltype(op(input[0], input[0]))>;
  A a[N];
  for (int i = 0; i < N; ++i) a[i] = input[i];
  return emu_detail::reduce_in_place(a, N, op);
}

// The prefix goes first: [prefix, input[0], ..., input[N-1]] in the order above.
template <class T, int N, class Op, class Prefix>
auto ThreadReduce(const T (&input)[N], Op op, Prefix prefix) -> std::decay_t<decltype(op(prefix, input[0]))> {
  using A = std::decay_t<decltype(op(prefix, input[0]))>;
  A a[N + 1];
  a[0] = prefix;
  for (int i = 0; i < N; ++i) a[i + 1] = input[i];
  return emu_detail::reduce_in_place(a, N + 1, op);
}

}  // namespace cub
