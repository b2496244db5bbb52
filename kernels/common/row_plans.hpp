// Launch plans shared by the row-wise normalisation kernels (rmsnorm, layernorm): how many rows a
// warp-per-row block takes, how many threads a block-per-row kernel gives a row, and how a
// register-resident row is split into vectors per thread.
#pragma once

#include <algorithm>

namespace kverify::kernels {

inline constexpr long long kWarpRowsPerBlock = 8;

// A block per row: a warp per 32 columns, at most 16 warps (more columns a thread for wider rows:
// a later pass over the row then finds it in L1).
inline unsigned block_per_row_threads(long long cols) {
  return static_cast<unsigned>(32 * std::min((cols + 31) / 32, 16LL));
}

// A row held in registers: P = 1 vector of `lanes` elements per thread while the row's vectors fit
// 1024 threads, else P = 4; whole warps. A row past kRegisterRowMaxVectors vectors does not fit.
struct RegisterRowPlan {
  int vectors_per_thread;
  unsigned threads;
};
inline RegisterRowPlan register_row_plan(long long cols, int lanes) {
  const long long vectors = (cols + lanes - 1) / lanes;
  const int per_thread = vectors <= 1024 ? 1 : 4;
  const long long threads = ((vectors + per_thread - 1) / per_thread + 31) / 32 * 32;
  return {per_thread, static_cast<unsigned>(threads)};
}
inline constexpr long long kRegisterRowMaxVectors = 4096;

}  // namespace kverify::kernels
