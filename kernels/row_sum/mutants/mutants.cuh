// row_sum's mutants: deliberately wrong variants, one documented bug class each, registered in this
// folder's CMakeLists.txt through kverify_add_variant (the extension point a user's own variant
// takes). The mutation self-test (`kverify mutants`, a process per mutant) must kill every one; the
// mutant_gpuv_* ones are meant for a GPU-side tool (kernels/registry.hpp: killed_by_gpu_tools):
//   mutant_gpuv_uninit_scratch     a row sum that starts from device scratch nobody wrote
//                                  -> compute-sanitizer initcheck (emu: the scratch is NaN, fails)
//   mutant_gpuv_divergent_barrier  a block reduction whose __syncthreads is reached from two call
//                                  sites (odd and even threads) -> synccheck (emu: divergent barrier)
// mutant_refuses_every_case's launcher throws: it tests that a check never passes what did not run.
// mutant_atomic_combine is order-dependent: emu kills it by running a Case's two guarded runs in
// two block orders (pipeline/run_case.hpp: second_run_of).
// The hazards of emu's race detector (runtime/emu/detectors/race_detector.hpp), one mutant each:
//   mutant_reused_partials         shared partials reused for the next row with no barrier (intra-block)
//   mutant_warp_without_syncwarp   a warp's tree reduction in shared memory without __syncwarp (intra-warp)
//   mutant_unfenced_last_block     the last block combines the others' partials, no __threadfence
//                                  before the ticket (cross-block; emu's serial blocks get the values right)
//   mutant_uninit_shared           a block sums partials that threads past the row never wrote
// and its out-of-bounds watch:
//   mutant_prefetch_past_row       a pipelined loop's last load lies past the row (values right)
//   mutant_smem_elements_for_bytes dynamic shared memory sized in elements, the launch takes bytes
// mutant_whole_rows_by_lanes gives rows_vec's unchecked kernel rows whose steps reach past the row.
// mutant_capped_grid stops its grid at 65535 blocks: the boundary Case of 65537 rows kills it.
// mutant_plan_cached_by_width keeps the first call's grid per row width: it passes alone, fails
// after a Case of the same width and fewer rows (state_between_cases, and check's "alone" rerun
// gives the sequence).
// mutant_static_scratch keeps its scratch in a static buffer: it passes one call at a time and
// fails when two calls run at once (launched_at_once).
// mutant_packed_rows_grid launches a grid for half the rows from 33 narrow rows on: no property
// draw reached that (at most 9 rows) before the long draws (up to 257 rows of at most 3 columns).
// mutant_int32_offsets computes element offsets in int: the far layouts (rows 2^31 elements apart on
// a tiny tensor, pipeline/guarded_image.hpp) kill it on emu, where only `kverify huge` did on a GPU.
// This header is compiled once per backend (KV_BACKEND = emu or cuda); the launchers live in
// namespace KV_BACKEND.
#include <cstddef>
#include <map>
#include <stdexcept>
#include <vector>

#include "kernels/common/backend_launch.hpp"
#include "kernels/common/block_reduce.cuh"
#include "kernels/row_sum/row_sum_kernels.cuh"
#include "runtime/kernel_api.hpp"
// The op's argument builders, without its launchers (those live in kernels/row_sum/row_sum_*.cpp|cu).
#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/row_sum/launchers.inl"
#pragma pop_macro("KV_BACKEND")
#if defined(KV_BACKEND)
#include "../rows_vec_launch.cuh"  // by a relative path: the emu build's rewritten copy
#endif

namespace kverify::kernels::row_sum::mutants {

// row_sum, a warp per row, that drops the last partial tile of 32 columns.
template <typename T>
__global__ void row_sum_drop_tail(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  const long long full = a.cols / 32 * 32 > 0 ? a.cols / 32 * 32 : a.cols;  // BUG: the tail is lost
  float sum = 0.0f;
  for (long long c = lane; c < full; c += 32) sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// row_sum, a warp per row, right; its launcher default_stream launches it without the stream it
// was given.
// A warp's row (row_of_warp: -1 past the last row) and its sum in f32, every lane holding it.
__device__ inline long long row_of_warp(long long rows) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  return row < rows ? row : -1;
}
template <typename T>
__device__ float warp_row_sum(const RowSumArgs<T>& a, long long row) {
  float sum = 0.0f;
  for (long long c = threadIdx.x % 32; c < a.cols; c += 32)
    sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  return warp_reduce(sum, SumOp{});
}
template <typename T>
__global__ void row_sum_warp_rows(RowSumArgs<T> a) {
  const long long row = row_of_warp(a.rows);
  if (row < 0) return;
  const float sum = warp_row_sum(a, row);
  if (threadIdx.x % 32 == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// A row's sum into f32 scratch, a warp per row, and the scratch stored in the output's dtype: the
// two passes of the launcher static_scratch.
template <typename T>
__global__ void row_sum_rows_into(RowSumArgs<T> a, float* sums) {
  const long long row = row_of_warp(a.rows);
  if (row < 0) return;
  const float sum = warp_row_sum(a, row);
  if (threadIdx.x % 32 == 0) sums[row] = sum;
}
template <typename T>
__global__ void row_sum_store_sums(RowSumArgs<T> a, const float* sums) {
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row < a.rows) a.y[row * a.y_row_stride] = kv::from_f32<T>(sums[row]);
}

// row_sum that never writes its last row (an output tail never written).
template <typename T>
__global__ void row_sum_skip_last_row(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows - 1 && a.rows > 1) return;  // BUG
  const unsigned lane = threadIdx.x % 32;
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// row_sum, a warp per row, whose lanes past the row add 1 instead of 0 (a non-zero padding).
template <typename T>
__global__ void row_sum_nonzero_padding(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  const long long padded = (a.cols + 31) / 32 * 32;
  float sum = 0.0f;
  for (long long c = lane; c < padded; c += 32)
    sum += c < a.cols ? kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]) : 1.0f;  // BUG: pad 1
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

template <typename T>
__global__ void row_sum_uninit_scratch(RowSumArgs<T> a, const float* scratch) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  const T* x = a.x + row * a.x_row_stride;
  float sum = lane == 0 ? scratch[row] : 0.0f;  // BUG: starts from scratch that was never written, not 0
  for (long long c = lane; c < a.cols; c += 32) sum += kv::to_f32(x[c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

template <typename T>
__global__ void __launch_bounds__(256) row_sum_divergent_barrier(RowSumArgs<T> a) {
  __shared__ float partial[256];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) sum += kv::to_f32(x[c * a.x_col_stride]);
  if (threadIdx.x % 2 == 1) {  // BUG: odd and even threads wait at two different barriers
    partial[threadIdx.x] = sum;
    __syncthreads();
  } else {
    partial[threadIdx.x] = sum;
    __threadfence_block();
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (unsigned t = 0; t < blockDim.x; ++t) total += partial[t];
    a.y[row * a.y_row_stride] = kv::from_f32<T>(total);
  }
}

// row_sum whose blocks each sum 64 columns of a row and combine the partials with a float
// atomicAdd into device scratch (the workspace): the sum's rounding depends on the order in which
// the blocks run, which CUDA leaves open (emu's second guarded run takes another block order).
template <typename T>  // a template, as every kernel of this header: it is included in more than one TU
__global__ void row_sum_zero(RowSumArgs<T> a, float* acc) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < a.rows) acc[i] = 0.0f;
}
template <typename T>
__global__ void row_sum_atomic_partials(RowSumArgs<T> a, float* acc) {
  const long long row = blockIdx.y, c0 = static_cast<long long>(blockIdx.x) * 64;
  float sum = 0.0f;
  for (long long c = c0 + threadIdx.x; c < a.cols && c < c0 + 64; c += 32)
    sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (threadIdx.x == 0) atomicAdd(&acc[row], sum);  // BUG: the combine's order is the blocks'
}
template <typename T>
__global__ void row_sum_store(RowSumArgs<T> a, const float* acc) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < a.rows) a.y[i * a.y_row_stride] = kv::from_f32<T>(acc[i]);
}

// Thread 0 adds the block's partials, one per thread, and stores the row's sum.
template <typename T>
__device__ void store_total_of_partials(RowSumArgs<T> a, long long row, const float* partial) {
  if (threadIdx.x != 0) return;
  float total = 0.0f;
  for (unsigned t = 0; t < blockDim.x; ++t) total += partial[t];
  a.y[row * a.y_row_stride] = kv::from_f32<T>(total);
}

// A block per two rows (its grid is half the rows): the partials of the first row are still being
// read by thread 0 when the other threads, past the one barrier, write the second row's.
template <typename T>
__global__ void __launch_bounds__(128) row_sum_reused_partials(RowSumArgs<T> a) {
  __shared__ float partial[128];
  for (long long row = blockIdx.x; row < a.rows; row += gridDim.x) {
    float sum = 0.0f;
    for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
      sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
    partial[threadIdx.x] = sum;
    __syncthreads();
    store_total_of_partials(a, row, partial);
    // BUG: no __syncthreads here before the next row overwrites partial[]
  }
}

// A warp per row whose lanes halve their sums through shared memory, warp-synchronously as pre-Volta
// code did: without __syncwarp, lanes of a warp may run apart.
template <typename T>
__global__ void __launch_bounds__(256) row_sum_warp_without_syncwarp(RowSumArgs<T> a) {
  __shared__ float partial[256];
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  volatile float* s = partial + threadIdx.x / 32 * 32;
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  s[lane] = sum;
  for (unsigned half = 16; half > 0; half /= 2)
    if (lane < half) s[lane] = s[lane] + s[lane + half];  // BUG: no __syncwarp between the steps
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(s[0]);
}

// Four blocks per row each sum a quarter of it into device scratch; the block that takes the last
// ticket adds the four partials in a fixed order. Without a __threadfence between the partial's store
// and the ticket, the last block may read a partial that is not visible yet.
template <typename T>
__global__ void row_sum_quarters(RowSumArgs<T> a, float* partial, unsigned* ticket) {
  const long long row = blockIdx.y, quarter = (a.cols + 3) / 4, c0 = blockIdx.x * quarter;
  float sum = 0.0f;
  for (long long c = c0 + threadIdx.x; c < a.cols && c < c0 + quarter; c += 32)
    sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (threadIdx.x != 0) return;
  partial[row * 4 + blockIdx.x] = sum;
  // BUG: no __threadfence() here
  if (atomicAdd(&ticket[row], 1u) != 3) return;
  a.y[row * a.y_row_stride] =
      kv::from_f32<T>(((partial[row * 4] + partial[row * 4 + 1]) + partial[row * 4 + 2]) + partial[row * 4 + 3]);
}
template <typename T>
__global__ void row_sum_clear_tickets(RowSumArgs<T> a, unsigned* ticket) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < a.rows) ticket[i] = 0;
}

// A block per row, a partial per thread; threads past the row's columns leave before they write
// theirs, and thread 0 sums all 256.
template <typename T>
__global__ void __launch_bounds__(256) row_sum_uninit_shared(RowSumArgs<T> a) {
  __shared__ float partial[256];
  const long long row = blockIdx.x;
  if (threadIdx.x >= a.cols) return;  // BUG: their partial stays unwritten
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  partial[threadIdx.x] = sum;
  __syncthreads();
  store_total_of_partials(a, row, partial);
}

// row_sum, a warp per row, software-pipelined: each step loads the next step's element before
// adding the current one, also on the last step, whose load lies past the row (in the next row, a
// row gap, or past the tensor's end). The values are right; the reads are not.
template <typename T>
__global__ void row_sum_prefetch_past_row(RowSumArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const long long lane = threadIdx.x % 32;
  const auto at = [&](long long c) { return kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]); };
  float sum = 0.0f;
  if (lane < a.cols) {
    float next = at(lane);
    for (long long c = lane; c < a.cols; c += 32) {
      const float current = next;
      next = at(c + 32);  // BUG: unguarded, past the row on the last step
      sum += current;
    }
  }
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// row_sum, a block per row, whose partials live in dynamic shared memory sized in elements where
// the launch takes bytes: a quarter of what the block writes.
template <typename T>
__global__ void __launch_bounds__(256) row_sum_smem_elements_for_bytes(RowSumArgs<T> a) {
  extern __shared__ float partials[];
  const long long row = blockIdx.x;
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  partials[threadIdx.x] = sum;
  __syncthreads();
  store_total_of_partials(a, row, partials);
}

// row_sum, a warp per row, that computes element offsets in int, as a launcher with int sizes
// would: right until a row starts past 2^31 elements (a far layout reaches that on a 2x1 tensor).
template <typename T>
__global__ void row_sum_int32_offsets(RowSumArgs<T> a) {
  const int row = static_cast<int>(blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int row_stride = static_cast<int>(a.x_row_stride), col_stride = static_cast<int>(a.x_col_stride);
  // int arithmetic that wraps as the GPU's does (spelled in unsigned: a signed overflow is undefined
  // in C++, and the host compiler would be free to widen it).
  const auto offset = [](int r, int rs, int c, int cs) {
    return static_cast<int>(static_cast<unsigned>(r) * static_cast<unsigned>(rs) +
                            static_cast<unsigned>(c) * static_cast<unsigned>(cs));
  };
  float sum = 0.0f;
  for (int c = lane; c < a.cols; c += 32) sum += kv::to_f32(a.x[offset(row, row_stride, c, col_stride)]);  // BUG
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// row_sum, a warp-sized block per row, launched on a grid capped at 65535 blocks with no loop
// over the rows past it (grid.y's limit, taken for grid.x's).
template <typename T>
__global__ void row_sum_capped_grid(RowSumArgs<T> a) {
  const long long row = blockIdx.x;
  if (row >= a.rows) return;
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < a.cols; c += 32)
    sum += kv::to_f32(a.x[row * a.x_row_stride + c * a.x_col_stride]);
  sum = warp_reduce(sum, SumOp{});
  if (threadIdx.x == 0) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

// Narrow rows (2..8 columns), many of them: a warp sums four rows, eight lanes each, so a block of
// 256 threads takes 32 rows.
template <typename T>
__global__ void row_sum_packed_rows(RowSumArgs<T> a) {
  const unsigned lane = threadIdx.x % 32;
  const long long warp = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const long long row = warp * 4 + lane / 8, col = lane % 8;
  float sum = row < a.rows && col < a.cols ? kv::to_f32(a.x[row * a.x_row_stride + col * a.x_col_stride]) : 0.0f;
  for (int offset = 4; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (col == 0 && row < a.rows) a.y[row * a.y_row_stride] = kv::from_f32<T>(sum);
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

inline dim3 warp_per_row_grid(long long rows) { return dim3(static_cast<unsigned>((rows + 7) / 8)); }

#define KV_ROW_SUM_MUTANT(name)                                                                     \
  void name(const LaunchRequest& r) {                                                               \
    with_storage_type(r.dtype, [&]<typename T>() {                                                  \
      const auto a = row_sum_args<T>(r);                                                            \
      mutants::row_sum_##name<T><<<warp_per_row_grid(a.rows), dim3(256), 0, launch_stream(r)>>>(a); \
      check_launch("row_sum_" #name);                                                               \
    });                                                                                             \
  }
KV_ROW_SUM_MUTANT(drop_tail)
KV_ROW_SUM_MUTANT(skip_last_row)
KV_ROW_SUM_MUTANT(nonzero_padding)
KV_ROW_SUM_MUTANT(int32_offsets)
#undef KV_ROW_SUM_MUTANT

// Right values on the wrong stream: the caller's stream is ignored (the tutorial's `<<<grid,
// block>>>`), so in a program on its own stream the kernel may read x before it is written and
// the caller may read y before it is done.
void default_stream(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    mutants::row_sum_warp_rows<T><<<warp_per_row_grid(a.rows), dim3(256)>>>(a);  // BUG: not launch_stream(r)
    check_launch("row_sum_warp_rows");
  });
}

void uninit_scratch(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    const std::size_t bytes = static_cast<std::size_t>(a.rows) * sizeof(float);
    const dim3 grid = warp_per_row_grid(a.rows);
#if defined(__CUDACC__)
    float* scratch = nullptr;  // fresh device memory, never written: initcheck's case
    ::kverify::cuda::check(cudaMalloc(&scratch, bytes), "cudaMalloc of the mutant's scratch");
    mutants::row_sum_uninit_scratch<T><<<grid, dim3(256), 0, launch_stream(r)>>>(a, scratch);
    check_launch("mutants::row_sum_uninit_scratch<T>");
    ::kverify::cuda::check(cudaFree(scratch), "cudaFree of the mutant's scratch");  // waits for the kernel
#else
    std::vector<unsigned char> scratch(bytes, 0xff);  // emu: unwritten scratch reads as NaN, as the pipeline's
    const auto* unwritten = reinterpret_cast<const float*>(scratch.data());
    mutants::row_sum_uninit_scratch<T><<<grid, dim3(256), 0, launch_stream(r)>>>(a, unwritten);
    check_launch("mutants::row_sum_uninit_scratch<T>");
#endif
  });
}

void divergent_barrier(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    mutants::row_sum_divergent_barrier<T><<<dim3(static_cast<unsigned>(a.rows)), dim3(256), 0, launch_stream(r)>>>(a);
    check_launch("mutants::row_sum_divergent_barrier<T>");
  });
}

void atomic_combine(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    auto* acc = static_cast<float*>(r.workspace);
    const auto row_blocks = static_cast<unsigned>((a.rows + 255) / 256);
    mutants::row_sum_zero<T><<<row_blocks, 256, 0, launch_stream(r)>>>(a, acc);
    const dim3 grid(static_cast<unsigned>((a.cols + 63) / 64), static_cast<unsigned>(a.rows));
    mutants::row_sum_atomic_partials<T><<<grid, 32, 0, launch_stream(r)>>>(a, acc);
    mutants::row_sum_store<T><<<row_blocks, 256, 0, launch_stream(r)>>>(a, acc);
    check_launch("mutants::row_sum_atomic_partials<T>");
  });
}

void reused_partials(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    const dim3 grid(static_cast<unsigned>((a.rows + 1) / 2));
    mutants::row_sum_reused_partials<T><<<grid, dim3(128), 0, launch_stream(r)>>>(a);
    check_launch("mutants::row_sum_reused_partials<T>");
  });
}

void warp_without_syncwarp(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    mutants::row_sum_warp_without_syncwarp<T><<<warp_per_row_grid(a.rows), dim3(256), 0, launch_stream(r)>>>(a);
    check_launch("mutants::row_sum_warp_without_syncwarp<T>");
  });
}

void unfenced_last_block(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    auto* partial = static_cast<float*>(r.workspace);
    auto* ticket = reinterpret_cast<unsigned*>(partial + a.rows * 4);
    mutants::row_sum_clear_tickets<T>
        <<<static_cast<unsigned>((a.rows + 255) / 256), 256, 0, launch_stream(r)>>>(a, ticket);
    mutants::row_sum_quarters<T>
        <<<dim3(4, static_cast<unsigned>(a.rows)), 32, 0, launch_stream(r)>>>(a, partial, ticket);
    check_launch("mutants::row_sum_quarters<T>");
  });
}

void capped_grid(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    const auto blocks = static_cast<unsigned>(a.rows < 65535 ? a.rows : 65535);  // BUG: rows past it are lost
    mutants::row_sum_capped_grid<T><<<dim3(blocks), dim3(32), 0, launch_stream(r)>>>(a);
    check_launch("mutants::row_sum_capped_grid<T>");
  });
}

// Rows of 2..8 columns, from 32 of them on, go to the packed kernel (32 rows per block) on a grid
// sized for 64 rows per block, as for an earlier kernel of eight rows per warp: rows past the first
// 32 of every 64 are never written. Fewer or wider rows take a warp each, right.
void packed_rows_grid(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    if (a.cols >= 2 && a.cols <= 8 && a.rows >= 32) {
      const auto blocks = static_cast<unsigned>((a.rows + 63) / 64);  // BUG: the kernel takes 32 rows a block
      mutants::row_sum_packed_rows<T><<<dim3(blocks), dim3(256), 0, launch_stream(r)>>>(a);
    } else {
      mutants::row_sum_warp_rows<T><<<warp_per_row_grid(a.rows), dim3(256), 0, launch_stream(r)>>>(a);
    }
    check_launch("mutants::row_sum_packed_rows<T>");
  });
}

// The grid planned once per row width and kept: a later call with that width and more rows
// reuses the first call's grid, whose blocks stop short of its last rows. Right for a Case alone.
void plan_cached_by_width(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    static std::map<long long, dim3> grids;  // BUG: keyed by the width alone; the grid follows the rows
    const dim3 grid = grids.try_emplace(a.cols, warp_per_row_grid(a.rows)).first->second;
    mutants::row_sum_warp_rows<T><<<grid, dim3(256), 0, launch_stream(r)>>>(a);
    check_launch("mutants::row_sum_warp_rows<T>");
  });
}

// The sums go through scratch the launcher allocates once and keeps (grown when a Case needs more):
// right for one call at a time; two calls at once on two streams share it, and one call's second
// pass stores the other's sums.
void static_scratch(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    static float* sums = nullptr;  // BUG: one buffer for every caller, whatever its stream
    static long long capacity = 0;
    if (capacity < a.rows) {
      if (sums) cudaFree(sums);
      if (cudaMalloc(&sums, static_cast<std::size_t>(a.rows) * sizeof(float)) != cudaSuccess)
        throw std::runtime_error("static_scratch: cudaMalloc of the scratch failed");
      capacity = a.rows;
    }
    mutants::row_sum_rows_into<T><<<warp_per_row_grid(a.rows), dim3(256), 0, launch_stream(r)>>>(a, sums);
    check_launch("mutants::row_sum_rows_into<T>");
    mutants::row_sum_store_sums<T>
        <<<dim3(static_cast<unsigned>((a.rows + 255) / 256)), dim3(256), 0, launch_stream(r)>>>(a, sums);
    check_launch("mutants::row_sum_store_sums<T>");
  });
}

void prefetch_past_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    const unsigned blocks = static_cast<unsigned>((a.rows + 7) / 8);
    mutants::row_sum_prefetch_past_row<T><<<dim3(blocks), dim3(256), 0, launch_stream(r)>>>(a);
    check_launch("mutants::row_sum_prefetch_past_row<T>");
  });
}

void smem_elements_for_bytes(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    // BUG: 256 partials of 4 bytes need 1024 bytes
    mutants::row_sum_smem_elements_for_bytes<T>
        <<<dim3(static_cast<unsigned>(a.rows)), dim3(256), 256, launch_stream(r)>>>(a);
    check_launch("mutants::row_sum_smem_elements_for_bytes<T>");
  });
}

void uninit_shared(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    mutants::row_sum_uninit_shared<T><<<dim3(static_cast<unsigned>(a.rows)), dim3(256), 0, launch_stream(r)>>>(a);
    check_launch("mutants::row_sum_uninit_shared<T>");
  });
}

// rows_vec whose unchecked kernel takes rows of a multiple of V G elements: where a row is not also
// a multiple of V G P, each lane's step loads vectors past the row's end (the next row's elements,
// or past the last row, the guard).
void whole_rows_by_lanes(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    if (a.cols > kRowSumRowsVecMaxColumns) throw std::invalid_argument("rows_vec takes rows of at most 1024 columns");
    if (row_sum_vector_path(r))
      ::kverify::kernels::row_sum::KV_BACKEND::rows_vec_launch<T, kLanesPerVector<T>,
                                                               RowsVecWholeRows::multiple_of_lanes>(r, a);
    else
      ::kverify::kernels::row_sum::KV_BACKEND::rows_vec_launch<T, 1>(r, a);
  });
}

// A launcher that refuses every Case (as a user's launcher with a host-side check too strict would):
// no kernel runs, so no guard can have held; every property must fail it, none may count it a pass.
void refuses_every_case(const LaunchRequest&) {
  throw std::invalid_argument("row_sum mutant_refuses_every_case: this launcher refuses every Case");
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::row_sum::mutants
