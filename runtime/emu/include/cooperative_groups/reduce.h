// cooperative_groups::reduce on emu, with the toolkit's functors (plus, less, greater, bit_and,
// bit_or, bit_xor).
//
// reduce(tile, value, op) returns the tile's reduction to every thread of the tile. The order of
// combination is a butterfly: for m = N/2, N/4, ..., 1, each thread combines its value with the
// value of the thread whose rank differs in bit m, `v = op(v, tile.shfl_xor(v, m))`; for a sum of
// 8 values, thread 0 computes ((x0 + x4) + (x2 + x6)) + ((x1 + x5) + (x3 + x7)). That is what
// CUDA 13.0's cooperative_groups/details/coalesced_reduce.h does for a tile on any type and
// operator; CUDA's documentation does not fix the order, so a float result may differ from
// another toolkit version's in the last bits. For integer types of 4 bytes or less with the
// toolkit's functors on tiles of 16 or 32 threads, sm_80+ GPUs use the warp's redux instruction
// instead, whose result is exact and so the same.
#pragma once

#include <type_traits>
#include <utility>

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {  // the smaller of the two: reduce(tile, v, less<T>()) is the minimum
  T operator()(T a, T b) const { return (b < a) ? b : a; }
};
template <class T>
struct greater {  // the larger of the two: the maximum
  T operator()(T a, T b) const { return (a < b) ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

template <unsigned Size, class Parent, class T, class Op>
auto reduce(const thread_block_tile<Size, Parent>& tile, T&& value, Op&& op,
            details::site_t site = details::site_t::current()) -> decltype(op(value, value)) {
  using Value = std::remove_cvref_t<T>;
  static_assert(std::is_same_v<Value, std::remove_cvref_t<decltype(op(value, value))>>,
                "Operator input and output types differ");
  Value out = value;
  for (unsigned m = Size / 2; m > 0; m /= 2) out = op(out, tile.shfl_xor(out, m, site));
  return out;
}

}  // namespace cooperative_groups
