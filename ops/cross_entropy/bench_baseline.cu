// cross_entropy's bench baseline: the eager composition a framework runs without fusion, log_softmax
// as five kernels (row max, subtract, exp, row sum, subtract the log) with each intermediate in the
// storage dtype, then nll_loss's gather (-logp[t], 0 for ignore_index) and a one-block mean or sum.
#include "bench/device.hpp"
#include "bench/eager_kernels.cuh"
#include "kernels/common/backend_launch.hpp"  // with_storage_type, kv::to_f32 / from_f32
#include "runtime/cuda/check.hpp"

namespace kverify::ops::cross_entropy {
namespace {

using namespace kverify::bench;

struct LogSub {
  __device__ float operator()(float v, float w) const { return v - logf(w); }
};

template <typename T>
__global__ void nll_gather(const T* logp, const long long* target, float* loss, long long rows, long long cols,
                           long long ignore_index) {
  const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (r < rows) loss[r] = target[r] == ignore_index ? 0.0f : -kv::to_f32(logp[r * cols + target[r]]);
}

__global__ void nll_reduce(const float* loss, const long long* target, float* total, long long rows,
                           long long ignore_index, bool mean) {
  __shared__ float sums[eager::kThreads];
  __shared__ float counts[eager::kThreads];
  float sum = 0.0f, kept = 0.0f;
  for (long long r = threadIdx.x; r < rows; r += blockDim.x)
    if (target[r] != ignore_index) sum += loss[r], kept += 1.0f;
  sums[threadIdx.x] = sum;
  counts[threadIdx.x] = kept;
  __syncthreads();
  for (int half = eager::kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      sums[threadIdx.x] += sums[threadIdx.x + half], counts[threadIdx.x] += counts[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total = mean ? sums[0] / counts[0] : sums[0];
}

struct State {
  DeviceMemory tmp1, tmp2, logp, row_max, row_sum, loss, total;
  State(std::size_t elems, std::size_t es, std::size_t rows)
      : tmp1(elems * es),
        tmp2(elems * es),
        logp(elems * es),
        row_max(rows * 4),
        row_sum(rows * 4),
        loss(rows * 4),
        total(4) {}
};

}  // namespace

Baseline device_baseline(const BaselineInputs& in) {
  using namespace kverify::bench::eager;
  const long long rows = in.shape[0], cols = in.shape[1], n = rows * cols;
  auto st = std::make_shared<State>(n, size_of(in.dtype), rows);
  Baseline b{"eager cross_entropy",
             "7 kernels: log_softmax as max, x-max, exp, sum, x-max-log(sum) (intermediates in the storage dtype); "
             "nll_loss's gather and a one-block reduction",
             {},
             st};
  auto s = static_cast<cudaStream_t>(in.stream);
  const auto ignore_index = static_cast<long long>(in.params[0]);
  const bool mean = in.params[1] == 0;
  with_storage_type(in.dtype, [&]<typename T>() {
    const T* x = static_cast<const T*>(in.inputs[0]);
    const auto* target = static_cast<const long long*>(in.inputs[1]);
    T* t1 = static_cast<T*>(st->tmp1.data);
    T* t2 = static_cast<T*>(st->tmp2.data);
    T* logp = static_cast<T*>(st->logp.data);
    float* mx = static_cast<float*>(st->row_max.data);
    float* sm = static_cast<float*>(st->row_sum.data);
    float* loss = static_cast<float*>(st->loss.data);
    float* total = static_cast<float*>(st->total.data);
    b.run = [=] {
      softmax_parts(x, t1, t2, mx, sm, rows, cols, s);
      map_row<<<grid_for(n), kThreads, 0, s>>>(t1, sm, logp, n, cols, LogSub{});
      nll_gather<<<static_cast<unsigned>((rows + kThreads - 1) / kThreads), kThreads, 0, s>>>(logp, target, loss, rows,
                                                                                              cols, ignore_index);
      nll_reduce<<<1, kThreads, 0, s>>>(loss, target, total, rows, ignore_index, mean);
      kverify::cuda::check_launch("eager cross_entropy");
    };
  });
  return b;
}

}  // namespace kverify::ops::cross_entropy
