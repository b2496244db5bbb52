// The row_sum launchers, written once: row_sum_emu.cpp and row_sum_cuda.cu compile them, each
// defining KV_BACKEND (emu or cuda) first.
#include "kernels/common/backend_launch.hpp"
#include "kernels/row_sum/row_sum_kernels.cuh"

namespace kverify::kernels::row_sum {

template <typename T>
RowSumArgs<T> row_sum_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.rows, x.layout.cols,
          x.layout.row_stride, x.layout.col_stride, y.layout.row_stride};
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

#if defined(KV_BACKEND)
namespace KV_BACKEND {

void warp_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = row_sum_args<T>(r);
    const unsigned rows_per_block = 8;
    KV_LAUNCH(row_sum_warp_per_row<T>, dim3(static_cast<unsigned>((args.rows + rows_per_block - 1) / rows_per_block)),
              dim3(32 * rows_per_block), 0, r, args);
  });
}

void block_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = row_sum_args<T>(r);
    const long long warps = (args.cols + 31) / 32;
    const unsigned threads = static_cast<unsigned>(32 * (warps < 8 ? warps : 8));
    KV_LAUNCH(row_sum_block_per_row<T>, dim3(static_cast<unsigned>(args.rows)), dim3(threads), 0, r, args);
  });
}

void split_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = row_sum_args<T>(r);
    const SplitPlan plan = split_plan(args.cols);
    auto* partials = static_cast<float*>(r.workspace);
    KV_LAUNCH(row_sum_split_partials<T>, dim3(static_cast<unsigned>(plan.splits), static_cast<unsigned>(args.rows)),
              dim3(256), 0, r, args, plan.chunk, partials);
    KV_LAUNCH(row_sum_split_combine<T>, dim3(static_cast<unsigned>((args.rows + 7) / 8)), dim3(256), 0, r, args,
              plan.splits, static_cast<const float*>(partials));
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::row_sum
