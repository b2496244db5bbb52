// What kverify's launchers share between backends. They launch with CUDA's own `<<<>>>`
// (compiled for emu through kverify_emu_rewrite, for the GPU by nvcc), then call
// check_launch(name): a configuration the device refuses is an error naming the kernel on both
// backends (emu records it for cudaGetLastError as CUDA does, with its reason).
// Also: with_storage_type(dtype, f) calls f.template operator()<T>() with T the kernel's storage
// type (float, __half, __nv_bfloat16); launch_stream(r) is the request's stream (nullptr on emu).
#pragma once

#include <stdexcept>
#include <string>

#include "kernels/launch_request.hpp"
#include "runtime/kernel_api.hpp"

#if defined(__CUDACC__)
#include "runtime/cuda/check.hpp"
#endif

namespace kverify {
// One binary holds both backends' launchers: these helpers differ per backend but would have the
// same names and signatures (emu's __half and cudaStream_t are spelled as CUDA's), so an inline
// namespace per backend keeps the linker from merging the two into one.
#if defined(__CUDACC__)
inline namespace on_cuda {
#else
inline namespace on_emu {
#endif

inline cudaStream_t launch_stream(const LaunchRequest& r) { return static_cast<cudaStream_t>(r.stream); }

inline void check_launch(const char* kernel) {
#if defined(__CUDACC__)
  cuda::check_launch(kernel);
#else
  if (cudaGetLastError() != cudaSuccess)
    throw emu::LaunchError(emu::LaunchError::Kind::bad_launch,
                           std::string("launch of ") + kernel + " refused: " + emu::last_launch_refusal());
#endif
}

// Dynamic shared memory above 48 KiB must be allowed per kernel before the launch (emu keeps the
// same per-kernel limit).
template <typename Kernel>
void allow_dynamic_shared(Kernel kernel, std::size_t bytes, const char* name) {
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, ") + std::to_string(bytes) +
                             ") for " + name + ": " + cudaGetErrorString(e));
}

}  // namespace on_cuda / on_emu

template <typename F>
void with_storage_type(DType dtype, F&& f) {
  switch (dtype) {
    case DType::f32:
      f.template operator()<float>();
      return;
    case DType::f16:
      f.template operator()<__half>();
      return;
    case DType::bf16:
      f.template operator()<__nv_bfloat16>();
      return;
    default:  // f64 and the fixed element types (i32, i64, u8) are no storage dtype
      break;
  }
  throw std::invalid_argument("kernels take f32, f16 or bf16 storage, not " + std::string(name(dtype)));
}

}  // namespace kverify
