// CUB's reduction functors on emu. cub::Sum, cub::Max and cub::Min are CUB 2.x's (CUB 3.0, in
// CUDA 13, removed them for ::cuda::std::plus<>, ::cuda::maximum<> and ::cuda::minimum<>,
// which <cuda/std/functional> and <cuda/functional> provide, and which this header includes).
#pragma once

#include <type_traits>

#include "cub/util_type.cuh"
#include "cuda/functional"
#include "cuda/std/functional"

namespace cub {

struct Sum {
  template <class T, class U>
  constexpr auto operator()(const T& a, const U& b) const -> decltype(a + b) {
    return a + b;
  }
};
struct Max {  // the right operand only if it is larger
  template <class T, class U>
  constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return (b > a) ? b : a;
  }
};
struct Min {  // the right operand only if it is smaller
  template <class T, class U>
  constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return (b < a) ? b : a;
  }
};

}  // namespace cub
