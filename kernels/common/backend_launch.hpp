// KV_LAUNCH(kernel, grid, block, shared_bytes, request, args...): a launcher's one line that
// differs between backends. Under nvcc it is kernel<<<...>>> on the request's stream followed by
// a launch check; under the host compiler it is the emu launch with the request's schedule seed.
// Also: with_storage_type(dtype, f) calls f.template operator()<T>() with T the kernel's storage
// type (float, kv::half, kv::bfloat16).
#pragma once

#include <stdexcept>

#include "kernels/launch_request.hpp"
#include "runtime/kernel_api.hpp"

#if defined(__CUDACC__)
#include "runtime/cuda/check.hpp"
#define KV_LAUNCH(kernel, grid, block, shared_bytes, request, ...)                                         \
  do {                                                                                                     \
    kernel<<<(grid), (block), (shared_bytes), static_cast<cudaStream_t>((request).stream)>>>(__VA_ARGS__); \
    ::kverify::cuda::check_launch(#kernel);                                                                \
  } while (0)
// Dynamic shared memory above 48 KiB must be allowed per kernel before the launch.
#define KV_ALLOW_DYNAMIC_SHARED(kernel, bytes)                                                            \
  ::kverify::cuda::check(                                                                                 \
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)), \
      "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) for " #kernel)
#else
#define KV_LAUNCH(kernel, grid, block, shared_bytes, request, ...)                                                \
  ::kverify::emu::launch((grid), (block), (shared_bytes), ::kverify::emu::LaunchOptions{(request).schedule_seed}, \
                         kernel, __VA_ARGS__)
#define KV_ALLOW_DYNAMIC_SHARED(kernel, bytes) static_cast<void>(bytes)
#endif

namespace kverify {

template <typename F>
void with_storage_type(DType dtype, F&& f) {
  switch (dtype) {
    case DType::f32:
      f.template operator()<float>();
      return;
    case DType::f16:
      f.template operator()<kv::half>();
      return;
    case DType::bf16:
      f.template operator()<kv::bfloat16>();
      return;
    case DType::f64:
      break;
  }
  throw std::invalid_argument("kernels take f32, f16 or bf16 storage");
}

}  // namespace kverify
