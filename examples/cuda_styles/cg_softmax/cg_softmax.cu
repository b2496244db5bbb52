// Row softmax on cooperative groups: the block split into 32-thread tiles, a tile per row (8 rows
// per block), cg::reduce for the max and the sum, any width (lanes stride the row). kEarlyExit
// plants the bug of its mutant: lanes past the end of a narrow row return before the reductions,
// which then read lanes that have exited.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace cg_softmax {

namespace cg = cooperative_groups;
constexpr int kRowsPerBlock = 8;

// A NaN or +inf in the row, or a row of only -inf, makes the max or the sum NaN, and with it
// every output of the row, as the contract says.
template <typename T, bool kEarlyExit>
__global__ void __launch_bounds__(32 * kRowsPerBlock)
    softmax_rows(const T* x, T* y, long long rows, long long cols, long long xrs, long long xcs, long long yrs,
                 long long ycs) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + tile.meta_group_rank();
  if (row >= rows) return;  // the whole tile: all 32 lanes share the row
  if (kEarlyExit && tile.thread_rank() >= cols) return;
  const T* xr = x + row * xrs;
  T* yr = y + row * yrs;
  float max = -INFINITY;
  for (long long c = tile.thread_rank(); c < cols; c += 32) max = fmaxf(max, static_cast<float>(xr[c * xcs]));
  max = cg::reduce(tile, max, cg::greater<float>());
  float sum = 0.0f;
  for (long long c = tile.thread_rank(); c < cols; c += 32) sum += expf(static_cast<float>(xr[c * xcs]) - max);
  sum = cg::reduce(tile, sum, cg::plus<float>());
  for (long long c = tile.thread_rank(); c < cols; c += 32)
    yr[c * ycs] = static_cast<T>(expf(static_cast<float>(xr[c * xcs]) - max) / sum);
}

// The launcher in the kernel's own terms: any row and column strides.
template <typename T, bool kEarlyExit = false>
void softmax(const T* x, T* y, long long rows, long long cols, long long xrs, long long xcs, long long yrs,
             long long ycs, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  softmax_rows<T, kEarlyExit><<<blocks, 32 * kRowsPerBlock, 0, stream>>>(x, y, rows, cols, xrs, xcs, yrs, ycs);
}

}  // namespace cg_softmax
