// Mutants that the property catalogue is not meant to kill, each a bug that only a GPU-side tool
// shows (README "GPU-side verification"); their names start with mutant_gpuv_ (kernels/registry.hpp:
// killed_by_gpu_tools) and the in-process mutation self-test leaves them to those tools:
//   mutant_gpuv_far_oob_write      a write 2^36 bytes past y: a device fault (cuda: illegal address;
//                                  emu: SIGSEGV) -> fault isolation; compute-sanitizer memcheck
//   mutant_gpuv_uninit_scratch     a row sum that starts from device scratch nobody wrote
//                                  -> compute-sanitizer initcheck (emu: the scratch is NaN, fails)
//   mutant_gpuv_divergent_barrier  a block reduction whose __syncthreads is reached from two call
//                                  sites (odd and even threads) -> synccheck (emu: divergent barrier)
//   mutant_gpuv_int32_index        gelu with 32-bit element offsets: right below 2^31 elements,
//                                  wrong (or faulting) above -> the huge Cases (kverify huge)
// The racecheck mutant is mutant_missing_barrier (kernels/mutants/mutant_kernels.cuh).
#include <cstdlib>
#include <vector>

#include "kernels/common/backend_launch.hpp"
#include "kernels/common/block_reduce.cuh"
#include "kernels/gelu_tanh/gelu_tanh_math.cuh"
#include "kernels/row_sum/row_sum_kernels.cuh"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels::gpuv_mutants {
namespace KV_BACKEND {

template <typename T>
struct GeluArgs {
  const T* x;
  T* y;
  long long rows, cols, x_row_stride, x_col_stride, y_row_stride, y_col_stride;
};

template <typename T>
GeluArgs<T> gelu_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.rows, x.layout.cols, x.layout.row_stride,
          x.layout.col_stride, y.layout.row_stride, y.layout.col_stride};
}

template <typename T>
__global__ void gelu_far_oob_write(GeluArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    a.y[r * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(gelu_tanh_f32(kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride])));
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    volatile unsigned char* wild = reinterpret_cast<unsigned char*>(a.y) + (1ll << 36);  // BUG: 64 GiB past y
    *wild = 1;
  }
}

template <typename T>
__global__ void gelu_int32_index(GeluArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    const int xi = static_cast<int>(r * a.x_row_stride + c * a.x_col_stride);  // BUG: 32-bit element offsets
    const int yi = static_cast<int>(r * a.y_row_stride + c * a.y_col_stride);
    a.y[yi] = kv::from_f32<T>(gelu_tanh_f32(kv::to_f32(a.x[xi])));
  }
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

void far_oob_write(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() { KV_LAUNCH(gelu_far_oob_write<T>, dim3(64), dim3(256), 0, r, gelu_args<T>(r)); });
}

void int32_index(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = gelu_args<T>(r);
    const long long blocks = (a.rows * a.cols + 255) / 256;
    KV_LAUNCH(gelu_int32_index<T>, dim3(static_cast<unsigned>(blocks < 65536 ? blocks : 65536)), dim3(256), 0, r, a);
  });
}


template <typename T>
RowSumArgs<T> row_sum_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.rows, x.layout.cols,
          x.layout.row_stride, x.layout.col_stride, y.layout.row_stride};
}

void uninit_scratch(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    const std::size_t bytes = static_cast<std::size_t>(a.rows) * sizeof(float);
    const dim3 grid(static_cast<unsigned>((a.rows + 7) / 8));
#if defined(__CUDACC__)
    float* scratch = nullptr;  // fresh device memory, never written: initcheck's case
    ::kverify::cuda::check(cudaMalloc(&scratch, bytes), "cudaMalloc of the mutant's scratch");
    KV_LAUNCH(row_sum_uninit_scratch<T>, grid, dim3(256), 0, r, a, scratch);
    ::kverify::cuda::check(cudaFree(scratch), "cudaFree of the mutant's scratch");  // waits for the kernel
#else
    std::vector<unsigned char> scratch(bytes, 0xff);  // emu: unwritten scratch reads as NaN, as the pipeline's
    KV_LAUNCH(row_sum_uninit_scratch<T>, grid, dim3(256), 0, r, a, reinterpret_cast<const float*>(scratch.data()));
#endif
  });
}

void divergent_barrier(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = row_sum_args<T>(r);
    KV_LAUNCH(row_sum_divergent_barrier<T>, dim3(static_cast<unsigned>(a.rows)), dim3(256), 0, r, a);
  });
}

}  // namespace KV_BACKEND
}  // namespace kverify::kernels::gpuv_mutants
