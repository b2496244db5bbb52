// row_sum/rows_vec's launch (the kernel: row_sum_vec.cuh): the lanes per row G and vectors per
// lane per step P for a row width, and one kernel instance per choice. The launch template lives in
// namespace KV_BACKEND (the including file defines it: emu or cuda) and is included by a relative
// path from launchers.inl and the mutants, so that the emu build compiles the copy with its <<<>>>
// launches rewritten.
#pragma once

#include "kernels/common/backend_launch.hpp"
#include "kernels/row_sum/row_sum_vec.cuh"

namespace kverify::kernels::row_sum {

inline long long row_sum_next_pow2(long long n) {
  long long p = 1;
  while (p < n) p *= 2;
  return p;
}

// rows_vec, rows of >= 32 vectors: G = 32 lanes, P = 4 vectors per lane per step (one step covers
// 32 x 4 vectors). Narrower rows: the fewest lanes G (so each lane keeps P = its vectors, up to 4,
// in flight: ncu, reports/h200/perf.md) whose addition depth ceil(n / (V G)) + log2 V + log2 G stays within
// the policy's ceil(n/32) + 5 (ops/row_sum/reference.cpp). The any-layout path (V = 1) keeps G = the
// row's vectors and P = 1 (fewer instantiations).
inline int row_sum_log2(long long p) {
  int l = 0;
  while ((1LL << l) < p) ++l;
  return l;
}
inline int rows_vec_lanes(long long cols, int v) {
  const long long vectors = (cols + v - 1) / v;
  if (vectors >= 32) return 32;
  const long long widest = row_sum_next_pow2(vectors);
  if (v == 1) return static_cast<int>(widest);
  for (long long g = 1; g < widest; g *= 2)
    if ((vectors + g - 1) / g <= 4 &&
        (cols + v * g - 1) / (v * g) + row_sum_log2(v) + row_sum_log2(g) <= (cols + 31) / 32 + 5)
      return static_cast<int>(g);
  return static_cast<int>(widest);
}

// Which rows take the Whole kernel (no bounds tests): those whose every step of G P vectors lies
// inside the row. mutant_whole_rows_by_lanes tests a multiple of V G only, so that a step reaches
// past the row (kernels/row_sum/mutants).
enum class RowsVecWholeRows { multiple_of_step, multiple_of_lanes };

namespace KV_BACKEND {

template <typename T, int V, RowsVecWholeRows kWholeRows = RowsVecWholeRows::multiple_of_step>
void rows_vec_launch(const LaunchRequest& r, const RowSumArgs<T>& args) {
  const long long vectors = (args.cols + V - 1) / V;
  const int g = rows_vec_lanes(args.cols, V);
  const long long rows_per_block = 256 / g;
  const dim3 grid(static_cast<unsigned>((args.rows + rows_per_block - 1) / rows_per_block)), block(256);
  // G lanes, P vectors per lane per step; the Whole kernel (no bounds tests) when every step is
  // whole, i.e. the row is a multiple of V G P elements.
  const auto launch = [&]<int G, int P>() {
    if constexpr (V > 1) {
      const long long whole_multiple = kWholeRows == RowsVecWholeRows::multiple_of_step ? V * G * P : V * G;
      if (args.cols % whole_multiple == 0) {
        row_sum_rows_vec<T, V, G, P, true><<<grid, block, 0, launch_stream(r)>>>(args);
        check_launch("row_sum_rows_vec<T, V, G, P, true>");
        return;
      }
    }
    row_sum_rows_vec<T, V, G, P, false><<<grid, block, 0, launch_stream(r)>>>(args);
    check_launch("row_sum_rows_vec<T, V, G, P, false>");
  };
  if (g == 32) {
    launch.template operator()<32, 4>();
    return;
  }
  const int p = static_cast<int>(row_sum_next_pow2((vectors + g - 1) / g));
  const auto with_p = [&]<int G>() {
    if constexpr (V == 1) {
      launch.template operator()<G, 1>();
    } else {
      switch (p) {
        case 1:
          launch.template operator()<G, 1>();
          break;
        case 2:
          launch.template operator()<G, 2>();
          break;
        default:
          launch.template operator()<G, 4>();
          break;
      }
    }
  };
  switch (g) {
    case 1:
      with_p.template operator()<1>();
      break;
    case 2:
      with_p.template operator()<2>();
      break;
    case 4:
      with_p.template operator()<4>();
      break;
    case 8:
      with_p.template operator()<8>();
      break;
    default:
      with_p.template operator()<16>();
      break;
  }
}

}  // namespace KV_BACKEND
}  // namespace kverify::kernels::row_sum
