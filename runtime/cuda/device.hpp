// The cuda backend's device: whether there is one (and if not, why), device memory, copies and
// synchronisation. Without a GPU, cudaGetDeviceCount fails (error 35 on a machine with no driver,
// 100 with a driver but no device): suites skip with that reason, and KVERIFY_REQUIRE_GPU=1 turns
// the skip into a failure on machines that must have a GPU.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace kverify::cuda {

struct DeviceStatus {
  bool available = false;
  std::string reason;  // why not, when not available
  std::string name;    // e.g. "NVIDIA H200"
  int driver_version = 0;
  int runtime_version = 0;
  int compute_capability = 0;  // e.g. 90
  int multiprocessors = 0;     // e.g. 132 (persistent grids size themselves by it)
  std::size_t total_memory = 0;
  int device_count = 0;  // the devices visible to this process
};

const DeviceStatus& device_status();  // probed once per process
bool gpu_required();                  // KVERIFY_REQUIRE_GPU=1

// Device memory owned by this object.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  void upload(const void* host);
  void download(void* host) const;
  void fill(unsigned char byte);

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Device memory for a far layout (pipeline/guarded_image.hpp): the whole range reserved in the
// device's address space (the virtual memory API: cuMemAddressReserve) with 16 GiB more on either
// side, and physical memory mapped only under the given byte ranges (cuMemMap, rounded to the
// allocation granularity); an access anywhere else faults the kernel.
class SparseDeviceBuffer {
 public:
  struct Range {
    std::size_t begin, end;
  };
  SparseDeviceBuffer(std::size_t bytes, const std::vector<Range>& mapped);
  ~SparseDeviceBuffer();
  SparseDeviceBuffer(const SparseDeviceBuffer&) = delete;
  SparseDeviceBuffer& operator=(const SparseDeviceBuffer&) = delete;
  void* data() const { return reinterpret_cast<void*>(base_ + guard_); }
  void upload(const unsigned char* host);  // the mapped ranges only
  void download(unsigned char* host) const;

 private:
  void release();
  unsigned long long base_ = 0;  // CUdeviceptr of the reservation
  std::size_t reserved_ = 0, guard_ = 0;
  std::vector<Range> ranges_;                                   // as given
  std::vector<std::pair<Range, unsigned long long>> mappings_;  // granule-rounded ranges and their handles
};

// Waits for all work on the device and throws cuda::Error if a kernel faulted.
void synchronize(const char* after);

}  // namespace kverify::cuda
