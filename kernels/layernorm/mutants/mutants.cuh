// layernorm's mutants: deliberately wrong variants, one documented bug class each, registered in
// this folder's CMakeLists.txt through kverify_add_variant (the extension point a user's own
// variant takes). The mutation self-test (`kverify mutants`) must kill every one:
//   mutant_one_pass_moments     var = E[x^2] - E[x]^2 in f32: cancels for a mean large against the
//                               spread
//   mutant_padded_variance      lanes past the row load 0 and keep their (0 - mean)^2 in the
//                               variance (the triton layernorm tutorial's bug, triton #9838)
//   mutant_unbiased_variance    the variance divided by C - 1 (torch.var's default), not C
//   mutant_storage_accumulator  the row's sum kept in the storage dtype (f16/bf16 round the sum
//                               after every term; f32 is the production kernel)
//   mutant_unsynced_mean        thread 0 hands the mean over in shared memory with no __syncthreads
//                               (a race between threads of a block)
// This header is compiled once per backend (KV_BACKEND = emu or cuda); the launchers live in
// namespace KV_BACKEND.
#include "kernels/common/backend_launch.hpp"
#include "kernels/common/block_reduce.cuh"
#include "kernels/common/row_plans.hpp"
#include "kernels/layernorm/layernorm_kernels.cuh"
#include "runtime/kernel_api.hpp"
// The op's argument builder, without its launchers (those live in kernels/layernorm/layernorm_*.cpp|cu).
#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/layernorm/launchers.inl"
#pragma pop_macro("KV_BACKEND")

namespace kverify::kernels::layernorm::mutants {

// Which bug a mutant kernel plants (one kernel body, so each mutant differs from warp_per_row by
// its bug alone).
enum class Bug { one_pass_moments, padded_variance, unbiased_variance, storage_accumulator };

template <typename T, Bug bug>
__global__ void layernorm_warp_mutant(LayernormArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  const T* x = a.x + row * a.x_row_stride;
  float sum = 0.0f;
  if constexpr (bug == Bug::storage_accumulator) {
    T acc = kv::from_f32<T>(0.0f);  // BUG: rounded to the storage dtype after every term
    for (long long c = lane; c < a.cols; c += 32)
      acc = kv::from_f32<T>(kv::to_f32(acc) + kv::to_f32(x[c * a.x_col_stride]));
    sum = kv::to_f32(acc);
  } else {
    sum = layernorm_sum(a, row, lane, 32);
  }
  const float width = static_cast<float>(a.cols);
  const float mean = warp_reduce(sum, SumOp{}) / width;
  float squares = 0.0f;
  if constexpr (bug == Bug::one_pass_moments) {
    for (long long c = lane; c < a.cols; c += 32) {
      const float v = kv::to_f32(x[c * a.x_col_stride]);
      squares += v * v;
    }
    squares = (warp_reduce(squares, SumOp{}) / width - mean * mean) * width;  // BUG: E[x^2] - E[x]^2
  } else if constexpr (bug == Bug::padded_variance) {
    for (long long c = lane; c < (a.cols + 31) / 32 * 32; c += 32) {
      const float d = (c < a.cols ? kv::to_f32(x[c * a.x_col_stride]) : 0.0f) - mean;  // BUG: the padding's 0
      squares += d * d;
    }
    squares = warp_reduce(squares, SumOp{});
  } else {
    squares = warp_reduce(layernorm_squared_deviations(a, row, mean, lane, 32), SumOp{});
  }
  float rstd = rsqrtf(squares / width + a.eps);
  if constexpr (bug == Bug::unbiased_variance) rstd = rsqrtf(squares / (width - 1.0f) + a.eps);  // BUG
  if (lane == 0) layernorm_store_statistics(a, row, mean, rstd);
  layernorm_write(a, row, mean, rstd, lane, 32);
}

// block_per_row with the mean computed by thread 0 alone and handed over through shared memory,
// with no barrier between the write and the other threads' reads.
template <typename T>
__global__ void layernorm_unsynced_mean(LayernormArgs<T> a) {
  __shared__ float scratch[32];
  __shared__ float shared_mean;
  const long long row = blockIdx.x;
  const float sum = block_reduce(layernorm_sum(a, row, threadIdx.x, blockDim.x), SumOp{}, scratch);
  if (threadIdx.x == 0) shared_mean = sum / static_cast<float>(a.cols);
  // BUG: no __syncthreads() here
  const float mean = shared_mean;
  const float rstd = layernorm_rstd(
      a, block_reduce(layernorm_squared_deviations(a, row, mean, threadIdx.x, blockDim.x), SumOp{}, scratch));
  if (threadIdx.x == 0) layernorm_store_statistics(a, row, mean, rstd);
  layernorm_write(a, row, mean, rstd, threadIdx.x, blockDim.x);
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

template <Bug bug>
void warp_mutant(const LaunchRequest& r, const char* name) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = layernorm_args<T>(r);
    layernorm_warp_mutant<T, bug><<<dim3(static_cast<unsigned>((a.rows + kWarpRowsPerBlock - 1) / kWarpRowsPerBlock)),
                                    dim3(32 * kWarpRowsPerBlock), 0, launch_stream(r)>>>(a);
    check_launch(name);
  });
}

void one_pass_moments(const LaunchRequest& r) { warp_mutant<Bug::one_pass_moments>(r, "one_pass_moments"); }
void padded_variance(const LaunchRequest& r) { warp_mutant<Bug::padded_variance>(r, "padded_variance"); }
void unbiased_variance(const LaunchRequest& r) { warp_mutant<Bug::unbiased_variance>(r, "unbiased_variance"); }
void storage_accumulator(const LaunchRequest& r) { warp_mutant<Bug::storage_accumulator>(r, "storage_accumulator"); }

void unsynced_mean(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = layernorm_args<T>(r);
    layernorm_unsynced_mean<T>
        <<<dim3(static_cast<unsigned>(a.rows)), dim3(block_per_row_threads(a.cols)), 0, launch_stream(r)>>>(a);
    check_launch("layernorm_unsynced_mean<T>");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::layernorm::mutants
