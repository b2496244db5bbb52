// The row_sum launchers, written once: row_sum_emu.cpp and row_sum_cuda.cu compile them, each
// defining KV_BACKEND (emu or cuda) first.
#include <algorithm>

#include "kernels/common/backend_launch.hpp"
#include "kernels/row_sum/row_sum_kernels.cuh"
#include "kernels/row_sum/row_sum_vec.cuh"
#if defined(KV_BACKEND)
#include "rows_vec_launch.cuh"  // by a relative path: the emu build's rewritten copy
#endif

namespace kverify::kernels::row_sum {

template <typename T>
RowSumArgs<T> row_sum_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.rows,      x.layout.cols,
          x.layout.row_stride,           x.layout.col_stride,     y.layout.row_stride};
}

// split_row's shape: blocks of 256 threads, each taking a chunk of at least 16 elements per
// thread, at most 1024 splits per row; partials live in the workspace.
struct SplitPlan {
  long long splits, chunk;
};
inline SplitPlan split_plan(long long cols) {
  const long long per_block = 256 * 16;
  long long splits = (cols + per_block - 1) / per_block;
  if (splits > 1024) splits = 1024;
  const long long chunk = (cols + splits - 1) / splits;
  return {(cols + chunk - 1) / chunk, chunk};
}

inline std::size_t split_row_workspace(const LaunchRequest& r) {
  const Layout2D& x = r.tensors[0].layout;
  return static_cast<std::size_t>(x.rows * split_plan(x.cols).splits) * sizeof(float);
}

// split_vec's shape (row_sum_vec.cuh): enough blocks of 256 threads for 132 SMs x 8, but chunks
// of at least 2048 elements (the addition-depth bound) and at most 1024 splits (the combine).
// The chunk is a multiple of 8 elements so that it keeps 16-byte alignment for every dtype; the
// plan depends on the shape alone (the workspace is sized before pointers exist).
inline constexpr long long kSplitVecTargetBlocks = 132 * 8;
inline constexpr long long kSplitVecMinChunk = 2048;
inline SplitPlan split_vec_plan(long long rows, long long cols) {
  long long splits = (kSplitVecTargetBlocks + rows - 1) / rows;
  splits = std::min({splits, 1024LL, std::max(1LL, cols / kSplitVecMinChunk)});
  const long long chunk = ((cols + splits - 1) / splits + 7) / 8 * 8;
  return {(cols + chunk - 1) / chunk, chunk};
}
inline std::size_t split_vec_workspace(const LaunchRequest& r) {
  const Layout2D& x = r.tensors[0].layout;
  const SplitPlan plan = split_vec_plan(x.rows, x.cols);
  return plan.splits > 1 ? static_cast<std::size_t>(x.rows * plan.splits) * sizeof(float) : 0;
}

inline constexpr long long kRowSumRowsVecMaxColumns = 1024;

inline bool row_sum_vector_path(const LaunchRequest& r) {
  return vector_rows_ok(r.tensors[0].layout, reinterpret_cast<std::uintptr_t>(r.tensors[0].data), size_of(r.dtype));
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

void warp_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = row_sum_args<T>(r);
    const unsigned rows_per_block = 8;
    row_sum_warp_per_row<T><<<dim3(static_cast<unsigned>((args.rows + rows_per_block - 1) / rows_per_block)),
                              dim3(32 * rows_per_block), 0, launch_stream(r)>>>(args);
    check_launch("row_sum_warp_per_row<T>");
  });
}

void block_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = row_sum_args<T>(r);
    const long long warps = (args.cols + 31) / 32;
    const unsigned threads = static_cast<unsigned>(32 * (warps < 8 ? warps : 8));
    row_sum_block_per_row<T><<<dim3(static_cast<unsigned>(args.rows)), dim3(threads), 0, launch_stream(r)>>>(args);
    check_launch("row_sum_block_per_row<T>");
  });
}

void split_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = row_sum_args<T>(r);
    const SplitPlan plan = split_plan(args.cols);
    auto* partials = static_cast<float*>(r.workspace);
    row_sum_split_partials<T><<<dim3(static_cast<unsigned>(plan.splits), static_cast<unsigned>(args.rows)), dim3(256),
                                0, launch_stream(r)>>>(args, plan.chunk, partials);
    check_launch("row_sum_split_partials<T>");
    row_sum_split_combine<T><<<dim3(static_cast<unsigned>((args.rows + 7) / 8)), dim3(256), 0, launch_stream(r)>>>(
        args, plan.splits, static_cast<const float*>(partials));
    check_launch("row_sum_split_combine<T>");
  });
}

void rows_vec(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = row_sum_args<T>(r);
    if (args.cols > kRowSumRowsVecMaxColumns)
      throw std::invalid_argument("row_sum/rows_vec takes rows of at most 1024 columns");
    if (row_sum_vector_path(r))
      rows_vec_launch<T, kLanesPerVector<T>>(r, args);
    else
      rows_vec_launch<T, 1>(r, args);
  });
}

// split_vec's threads per block: 256, or a vector each, in whole warps, for a chunk of fewer (a
// narrow row's block keeps no idle warps waiting at its reduction's barriers).
inline unsigned split_vec_threads(long long chunk, int lanes_per_vector) {
  const long long warps = ((chunk + lanes_per_vector - 1) / lanes_per_vector + 31) / 32;
  return static_cast<unsigned>(32 * std::min(warps, 8LL));
}

void split_vec(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = row_sum_args<T>(r);
    const SplitPlan plan = split_vec_plan(args.rows, args.cols);
    auto* partials = static_cast<float*>(r.workspace);
    const dim3 grid(static_cast<unsigned>(plan.splits), static_cast<unsigned>(std::min(args.rows, 65535LL)));
    if (row_sum_vector_path(r))
      row_sum_split_vec<T, kLanesPerVector<T>>
          <<<grid, dim3(split_vec_threads(plan.chunk, kLanesPerVector<T>)), 0, launch_stream(r)>>>(args, plan.chunk,
                                                                                                   partials);
    else
      row_sum_split_vec<T, 1>
          <<<grid, dim3(split_vec_threads(plan.chunk, 1)), 0, launch_stream(r)>>>(args, plan.chunk, partials);
    check_launch("row_sum_split_vec");
    if (plan.splits > 1)
      row_sum_split_combine<T><<<dim3(static_cast<unsigned>((args.rows + 7) / 8)), dim3(256), 0, launch_stream(r)>>>(
          args, plan.splits, static_cast<const float*>(partials));
    check_launch("row_sum_split_combine");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::row_sum
