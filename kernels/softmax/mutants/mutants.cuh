// softmax's mutants: deliberately wrong variants, one documented bug class each, registered in this
// folder's CMakeLists.txt through kverify_add_variant (the extension point a user's own variant
// takes). The mutation self-test (`kverify mutants`) must kill every one.
// This header is compiled once per backend (KV_BACKEND = emu or cuda); the launchers live in
// namespace KV_BACKEND.
#include <cmath>

#include "kernels/common/backend_launch.hpp"
#include "kernels/common/block_reduce.cuh"
#include "runtime/kernel_api.hpp"
// The op's argument builders, without its launchers (those live in kernels/softmax/softmax_*.cpp|cu).
#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/softmax/launchers.inl"
#pragma pop_macro("KV_BACKEND")

namespace kverify::kernels::softmax::mutants {

// softmax, a warp per row: lanes past the row pad the max with 0 instead of -inf. A row of only
// negative values then reports a max of 0 and, far enough below it, every exp underflows.
template <typename T>
__global__ void softmax_zero_padding(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  float max = 0.0f;  // BUG: the padding must lose every max (-inf)
  for (long long c = lane; c < a.cols; c += 32) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = warp_reduce(sum, SumOp{});
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

// softmax, a warp per row, without subtracting the max: exp overflows for logits above ~88.
template <typename T>
__global__ void softmax_no_max_subtraction(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += expf(kv::to_f32(x[c * a.x_col_stride]));  // BUG
  sum = warp_reduce(sum, SumOp{});
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride])) / sum);
}

// softmax, a warp per row, masking only the store: lanes read past the row's end (into the next
// row, the padding, or the canary) and those values enter the max and the sum.
template <typename T>
__global__ void softmax_store_only_mask(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  const long long padded = (a.cols + 31) / 32 * 32;  // BUG: loads are not masked
  float max = -INFINITY;
  for (long long c = lane; c < padded; c += 32) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (long long c = lane; c < padded; c += 32) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = warp_reduce(sum, SumOp{});
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

// softmax, a warp per row, assuming unit column strides.
template <typename T>
__global__ void softmax_unit_stride(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  float max = -INFINITY;
  for (long long c = lane; c < a.cols; c += 32) max = fmaxf(max, kv::to_f32(x[c]));  // BUG: x_col_stride ignored
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (long long c = lane; c < a.cols; c += 32) sum += expf(kv::to_f32(x[c]) - max);
  sum = warp_reduce(sum, SumOp{});
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(expf(kv::to_f32(x[c]) - max) / sum);
}

// softmax with a fixed block of 256 threads, each taking 4 columns: rows past 1024 are truncated.
template <typename T>
__global__ void softmax_fixed_block(SoftmaxArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  const long long cols = a.cols < 1024 ? a.cols : 1024;  // BUG: the rest of a wide row is ignored
  float max = MaxOp::identity();
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = block_reduce(max, MaxOp{}, scratch);
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = block_reduce(sum, SumOp{}, scratch);
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    a.y[row * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

// softmax whose denominator is accumulated in f16 (11 significant bits).
template <typename T>
__global__ void softmax_f16_denominator(SoftmaxArgs<T> a) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  float max = MaxOp::identity();
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = block_reduce(max, MaxOp{}, scratch);
  __half sum = kv::from_f32<__half>(0.0f);  // BUG: the running sum rounds to f16 at every step
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    sum = kv::from_f32<__half>(kv::to_f32(sum) + expf(kv::to_f32(x[c * a.x_col_stride]) - max));
  const float total = block_reduce(kv::to_f32(sum), SumOp{}, scratch);
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    a.y[row * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / total);
}

// softmax, one block per row, with the barrier between the two phases of its block reduction
// missing: a warp may read a partial that another warp has not written yet, or overwrite one.
template <typename T>
__global__ void softmax_missing_barrier(SoftmaxArgs<T> a) {
  __shared__ float partial[32];
  const long long row = blockIdx.x;
  const T* x = a.x + row * a.x_row_stride;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  float max = -INFINITY;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  max = warp_reduce(max, MaxOp{});
  if (lane == 0) partial[warp] = max;
  // BUG: no __syncthreads() here
  max = lane < warps ? partial[lane] : -INFINITY;
  max = warp_reduce(max, MaxOp{});
  __syncthreads();
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);
  sum = warp_reduce(sum, SumOp{});
  if (lane == 0) partial[warp] = sum;
  __syncthreads();
  sum = lane < warps ? partial[lane] : 0.0f;
  sum = warp_reduce(sum, SumOp{});
  for (long long c = threadIdx.x; c < a.cols; c += blockDim.x)
    a.y[row * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - max) / sum);
}

// softmax, a warp per row split in two: each half-warp takes one half of the row's columns and its
// own (max, sum); the halves combine as S = s0 exp(m0 - M) + s1 exp(m1 - M), as a cluster or a
// split-row kernel does. A half of only -inf (a masked row) has m = -inf and s = sum exp(-inf -
// -inf) = NaN, which turns the whole row NaN where the contract wants 0 for the -inf columns.
template <typename T>
__global__ void softmax_split_unguarded(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32), half = lane / 16;
  const T* x = a.x + row * a.x_row_stride;
  const long long mid = (a.cols + 1) / 2, begin = half == 0 ? 0 : mid, end = half == 0 ? mid : a.cols;
  float max = -INFINITY;
  for (long long c = begin + lane % 16; c < end; c += 16) max = fmaxf(max, kv::to_f32(x[c * a.x_col_stride]));
  for (int offset = 8; offset > 0; offset /= 2) max = fmaxf(max, __shfl_xor_sync(0xffffffffu, max, offset));
  float sum = 0.0f;
  for (long long c = begin + lane % 16; c < end; c += 16) sum += expf(kv::to_f32(x[c * a.x_col_stride]) - max);  // BUG
  for (int offset = 8; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  const float other_max = __shfl_xor_sync(0xffffffffu, max, 16), other_sum = __shfl_xor_sync(0xffffffffu, sum, 16);
  const float row_max = fmaxf(max, other_max);
  const float row_sum = sum * expf(max - row_max) + other_sum * expf(other_max - row_max);
  for (long long c = lane; c < a.cols; c += 32)
    a.y[row * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(expf(kv::to_f32(x[c * a.x_col_stride]) - row_max) / row_sum);
}

// softmax/warp_per_row with the tail lanes' max padded with 0 instead of -inf, the classic masked-row
// bug: invisible when the row fills every lane's registers (cols = 32 * 2^k) or holds a value above
// 0; it shows on a tail width of values far enough below 0 that exp(x - 0) underflows (const:-200,
// negative:1e4). The fuzz demo (target softmax_planted) must find it from an empty corpus.
template <typename T, int kPerLane>
__global__ void __launch_bounds__(256) tail_zero_padding(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  T* y = a.y + row * a.y_row_stride;

  float v[kPerLane];
  float max = MaxOp::identity();
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    v[i] = c < a.cols ? kv::to_f32(x[c * a.x_col_stride]) : 0.0f;  // BUG: the padding must lose every max (-inf)
    max = fmaxf(max, v[i]);
  }
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    v[i] = c < a.cols ? expf(v[i] - max) : 0.0f;
    sum += v[i];
  }
  sum = warp_reduce(sum, SumOp{});
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    if (c < a.cols) y[c * a.y_col_stride] = kv::from_f32<T>(v[i] / sum);
  }
}

// Bugs each guard of the pipeline must name: one thread per row writes the whole row, then one
// extra write (a row gap, before the buffer, into the input), a skipped column, state that changes
// between two runs, or a trap.
enum class GuardBug { gap_write, before_buffer, skip_last_column, write_input, differs_per_run, trap };

template <GuardBug kBug>
__global__ void guard_bug(SoftmaxArgs<float> a) {
  const long long row = blockIdx.x;
  const float* x = a.x + row * a.x_row_stride;
  float* y = a.y + row * a.y_row_stride;
  if (threadIdx.x != 0) return;
  float max = -INFINITY;
  for (long long c = 0; c < a.cols; ++c) max = fmaxf(max, x[c * a.x_col_stride]);
  float sum = 0;
  for (long long c = 0; c < a.cols; ++c) sum += expf(x[c * a.x_col_stride] - max);
  const long long cols = kBug == GuardBug::skip_last_column ? a.cols - 1 : a.cols;  // BUG (skip_last_column)
  for (long long c = 0; c < cols; ++c) y[c * a.y_col_stride] = expf(x[c * a.x_col_stride] - max) / sum;
  if (kBug == GuardBug::gap_write) y[a.cols * a.y_col_stride] = 0.5f;  // BUG: one past the row, the padding gap
  if (kBug == GuardBug::before_buffer && row == 0) y[-1] = 0.5f;       // BUG: before the buffer
  if (kBug == GuardBug::write_input) const_cast<float*>(x)[0] = 0.0f;  // BUG: into the input
  if (kBug == GuardBug::differs_per_run) {
    static int launches = 0;  // BUG: state that survives between the two runs of one Case
    if (row == 0) ++launches;
    y[0] += static_cast<float>(launches) * 1e-3f;
  }
  if (kBug == GuardBug::trap) __trap();  // BUG
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

inline dim3 warp_per_row_grid(long long rows) { return dim3(static_cast<unsigned>((rows + 7) / 8)); }
inline dim3 block_per_row_grid(long long rows) { return dim3(static_cast<unsigned>(rows)); }

#define KV_SOFTMAX_MUTANT(name, grid_of)                                                  \
  void name(const LaunchRequest& r) {                                                     \
    with_storage_type(r.dtype, [&]<typename T>() {                                        \
      const auto a = softmax_args<T>(r);                                                  \
      mutants::softmax_##name<T><<<grid_of(a.rows), dim3(256), 0, launch_stream(r)>>>(a); \
      check_launch("softmax_" #name);                                                     \
    });                                                                                   \
  }
KV_SOFTMAX_MUTANT(zero_padding, warp_per_row_grid)
KV_SOFTMAX_MUTANT(no_max_subtraction, warp_per_row_grid)
KV_SOFTMAX_MUTANT(store_only_mask, warp_per_row_grid)
KV_SOFTMAX_MUTANT(unit_stride, warp_per_row_grid)
KV_SOFTMAX_MUTANT(fixed_block, block_per_row_grid)
KV_SOFTMAX_MUTANT(f16_denominator, block_per_row_grid)
KV_SOFTMAX_MUTANT(missing_barrier, block_per_row_grid)
KV_SOFTMAX_MUTANT(split_unguarded, warp_per_row_grid)
#undef KV_SOFTMAX_MUTANT

void tail_zero_padding(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    const dim3 grid = warp_per_row_grid(args.rows), block(256);
    const long long per_lane = (args.cols + 31) / 32;
    if (per_lane <= 1)
      mutants::tail_zero_padding<T, 1><<<grid, block, 0, launch_stream(r)>>>(args);
    else if (per_lane <= 2)
      mutants::tail_zero_padding<T, 2><<<grid, block, 0, launch_stream(r)>>>(args);
    else if (per_lane <= 4)
      mutants::tail_zero_padding<T, 4><<<grid, block, 0, launch_stream(r)>>>(args);
    else if (per_lane <= 8)
      mutants::tail_zero_padding<T, 8><<<grid, block, 0, launch_stream(r)>>>(args);
    else if (per_lane <= 16)
      mutants::tail_zero_padding<T, 16><<<grid, block, 0, launch_stream(r)>>>(args);
    else
      mutants::tail_zero_padding<T, 32><<<grid, block, 0, launch_stream(r)>>>(args);
    check_launch("mutants::tail_zero_padding");
  });
}

template <GuardBug kBug>
void guard_bug(const LaunchRequest& r) {
  const auto args = softmax_args<float>(r);  // registered for f32 only
  mutants::guard_bug<kBug><<<dim3(static_cast<unsigned>(args.rows)), dim3(32), 0, launch_stream(r)>>>(args);
  check_launch("mutants::guard_bug<kBug>");
}
void gap_write(const LaunchRequest& r) { guard_bug<GuardBug::gap_write>(r); }
void write_before_buffer(const LaunchRequest& r) { guard_bug<GuardBug::before_buffer>(r); }
void skip_last_column(const LaunchRequest& r) { guard_bug<GuardBug::skip_last_column>(r); }
void writes_x0(const LaunchRequest& r) { guard_bug<GuardBug::write_input>(r); }
void differs_per_run(const LaunchRequest& r) { guard_bug<GuardBug::differs_per_run>(r); }
void trap(const LaunchRequest& r) { guard_bug<GuardBug::trap>(r); }

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::softmax::mutants
