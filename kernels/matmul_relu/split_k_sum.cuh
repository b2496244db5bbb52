// The second pass of a GEMM whose K was split into ranges: C = output(sum of the ranges' partial
// sums), added in split order (so the result does not depend on which block finished first) and
// rounded once to C's storage type. Shared by the variants that split K (simt, wgmma).
#pragma once

#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

// `splits` dense row-major m x n f32 matrices, one after the other.
struct SplitPartials {
  const float* partials;
  long long m, n;
  int splits;
};

// Blocks of kSplitSumThreads: x over columns, y over rows (split_sum_grid), looping past the grid.
inline constexpr int kSplitSumThreads = 256;
inline dim3 split_sum_grid(long long m, long long n) {
  const long long x = (n + kSplitSumThreads - 1) / kSplitSumThreads;
  return dim3(static_cast<unsigned>(x < 1024 ? x : 1024), static_cast<unsigned>(m < 65535 ? m : 65535));
}

// output(f32 sum) gives the stored value (ReLU and rounding).
template <typename T, typename Output>
__device__ __forceinline__ void sum_split_partials(const SplitPartials& s, T* c, long long c_row_stride,
                                                   long long c_col_stride, Output output) {
  const long long elements = s.m * s.n;
  for (long long row = blockIdx.y; row < s.m; row += gridDim.y)
    for (long long col = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; col < s.n;
         col += static_cast<long long>(gridDim.x) * blockDim.x) {
      const float* partial = s.partials + row * s.n + col;
      float sum = partial[0];
      for (int split = 1; split < s.splits; ++split) sum += partial[split * elements];
      c[row * c_row_stride + col * c_col_stride] = output(sum);
    }
}

}  // namespace kverify::kernels
