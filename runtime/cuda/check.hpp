// Every CUDA runtime call and every launch is checked; a failure is a cuda::Error naming the call
// and CUDA's own error name and message.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace kverify::cuda {

class Error : public std::runtime_error {
 public:
  Error(const std::string& what, cudaError_t code)
      : std::runtime_error(what + ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

inline void check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) throw Error(what, code);
}

// After kernel<<<...>>>: the launch itself (configuration, resources) is checked here; faults
// during execution surface at the next synchronisation, which is checked too.
inline void check_launch(const char* kernel) {
  check(cudaGetLastError(), (std::string("launch of ") + kernel).c_str());
}

}  // namespace kverify::cuda

#define KV_CUDA_CHECK(call) ::kverify::cuda::check((call), #call)
