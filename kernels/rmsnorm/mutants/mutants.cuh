// rmsnorm's mutants: deliberately wrong variants, one documented bug class each, registered in this
// folder's CMakeLists.txt through kverify_add_variant (the extension point a user's own variant
// takes). The mutation self-test (`kverify mutants`) must kill every one:
//   mutant_storage_accumulator  the squares summed in the storage dtype (f16/bf16 lose the sum; f32
//                               is the production kernel: only the 16-bit Cases kill it)
//   mutant_padded_mean          the mean over the width rounded up to 32 lanes (tail widths)
//   mutant_eps_outside_sqrt     1 / (sqrt(mean) + eps): right while eps is negligible
//   mutant_unsynced_rstd        thread 0 puts rstd in shared memory, the others read it with no
//                               __syncthreads (a race between threads of a block)
//   mutant_w_with_x_strides     w read with x's column stride (one tensor's layout for another)
// This header is compiled once per backend (KV_BACKEND = emu or cuda); the launchers live in
// namespace KV_BACKEND.
#include "kernels/common/backend_launch.hpp"
#include "kernels/common/block_reduce.cuh"
#include "kernels/rmsnorm/rmsnorm_kernels.cuh"
#include "runtime/kernel_api.hpp"
// The op's argument builder, without its launchers (those live in kernels/rmsnorm/rmsnorm_*.cpp|cu).
#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/rmsnorm/launchers.inl"
#pragma pop_macro("KV_BACKEND")

namespace kverify::kernels::rmsnorm::mutants {

// Which bug a mutant kernel plants (one kernel body, so each mutant differs from warp_per_row by
// its bug alone).
enum class Bug { storage_accumulator, padded_mean, eps_outside_sqrt, w_with_x_strides };

template <typename T, Bug bug>
__global__ void rmsnorm_warp_mutant(RmsnormArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  if constexpr (bug == Bug::storage_accumulator) {
    T acc = kv::from_f32<T>(0.0f);  // BUG: rounded to the storage dtype after every square
    for (long long c = lane; c < a.cols; c += 32) {
      const float v = kv::to_f32(x[c * a.x_col_stride]);
      acc = kv::from_f32<T>(kv::to_f32(acc) + v * v);
    }
    sum = kv::to_f32(acc);
  } else {
    sum = rmsnorm_squares(a, row, lane, 32);
  }
  sum = warp_reduce(sum, SumOp{});
  float mean = sum / static_cast<float>(a.cols);
  if constexpr (bug == Bug::padded_mean) mean = sum / static_cast<float>((a.cols + 31) / 32 * 32);  // BUG
  float rstd = rsqrtf(mean + a.eps);
  if constexpr (bug == Bug::eps_outside_sqrt) rstd = 1.0f / (sqrtf(mean) + a.eps);  // BUG
  if (lane == 0) a.rstd[row * a.rstd_stride] = rstd;
  const long long w_stride = bug == Bug::w_with_x_strides ? a.x_col_stride : a.w_stride;  // BUG when they differ
  T* y = a.y + row * a.y_row_stride;
  for (long long c = lane; c < a.cols; c += 32)
    y[c * a.y_col_stride] = kv::from_f32<T>(kv::to_f32(x[c * a.x_col_stride]) * rstd * kv::to_f32(a.w[c * w_stride]));
}

// block_per_row with rstd computed by thread 0 alone and handed over through shared memory, with no
// barrier between the write and the other threads' reads.
template <typename T>
__global__ void rmsnorm_unsynced_rstd(RmsnormArgs<T> a) {
  __shared__ float scratch[32];
  __shared__ float shared_rstd;
  const long long row = blockIdx.x;
  const float sum = block_reduce(rmsnorm_squares(a, row, threadIdx.x, blockDim.x), SumOp{}, scratch);
  if (threadIdx.x == 0) {
    shared_rstd = rmsnorm_rstd(a, sum);
    a.rstd[row * a.rstd_stride] = shared_rstd;
  }
  // BUG: no __syncthreads() here
  rmsnorm_write(a, row, shared_rstd, threadIdx.x, blockDim.x);
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

template <Bug bug>
void warp_mutant(const LaunchRequest& r, const char* name) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = rmsnorm_args<T>(r);
    rmsnorm_warp_mutant<T, bug><<<dim3(static_cast<unsigned>((a.rows + kWarpRowsPerBlock - 1) / kWarpRowsPerBlock)),
                                  dim3(32 * kWarpRowsPerBlock), 0, launch_stream(r)>>>(a);
    check_launch(name);
  });
}

void storage_accumulator(const LaunchRequest& r) { warp_mutant<Bug::storage_accumulator>(r, "storage_accumulator"); }
void padded_mean(const LaunchRequest& r) { warp_mutant<Bug::padded_mean>(r, "padded_mean"); }
void eps_outside_sqrt(const LaunchRequest& r) { warp_mutant<Bug::eps_outside_sqrt>(r, "eps_outside_sqrt"); }
void w_with_x_strides(const LaunchRequest& r) { warp_mutant<Bug::w_with_x_strides>(r, "w_with_x_strides"); }

void unsynced_rstd(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = rmsnorm_args<T>(r);
    rmsnorm_unsynced_rstd<T>
        <<<dim3(static_cast<unsigned>(a.rows)), dim3(block_per_row_threads(a.cols)), 0, launch_stream(r)>>>(a);
    check_launch("rmsnorm_unsynced_rstd<T>");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::rmsnorm::mutants
