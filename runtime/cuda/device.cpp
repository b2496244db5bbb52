#include "runtime/cuda/device.hpp"

#include <cstdlib>
#include <cstring>

#include "runtime/cuda/check.hpp"

namespace kverify::cuda {

const DeviceStatus& device_status() {
  static const DeviceStatus status = [] {
    DeviceStatus s;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      s.reason = std::string("no CUDA device: cudaGetDeviceCount returned error ") +
                 std::to_string(static_cast<int>(e)) + " " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
      return s;
    }
    if (count == 0) {
      s.reason = "no CUDA device: cudaGetDeviceCount found 0 devices";
      return s;
    }
    cudaDeviceProp prop{};
    if (const cudaError_t pe = cudaGetDeviceProperties(&prop, 0); pe != cudaSuccess) {
      s.reason = std::string("cudaGetDeviceProperties failed: ") + cudaGetErrorString(pe);
      return s;
    }
    s.available = true;
    s.name = prop.name;
    s.compute_capability = prop.major * 10 + prop.minor;
    s.total_memory = prop.totalGlobalMem;
    cudaDriverGetVersion(&s.driver_version);
    cudaRuntimeGetVersion(&s.runtime_version);
    return s;
  }();
  return status;
}

bool gpu_required() {
  const char* v = std::getenv("KVERIFY_REQUIRE_GPU");
  return v && std::strcmp(v, "1") == 0;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  check(cudaMalloc(&data_, bytes == 0 ? 1 : bytes), ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
}

DeviceBuffer::~DeviceBuffer() {
  if (data_) cudaFree(data_);  // no throw from a destructor; a sticky error shows at the next check
}

void DeviceBuffer::upload(const void* host) { KV_CUDA_CHECK(cudaMemcpy(data_, host, bytes_, cudaMemcpyHostToDevice)); }

void DeviceBuffer::download(void* host) const {
  KV_CUDA_CHECK(cudaMemcpy(host, data_, bytes_, cudaMemcpyDeviceToHost));
}

void DeviceBuffer::fill(unsigned char byte) { KV_CUDA_CHECK(cudaMemset(data_, byte, bytes_)); }

void synchronize(const char* after) {
  check(cudaDeviceSynchronize(), (std::string("synchronize after ") + after).c_str());
}

}  // namespace kverify::cuda
