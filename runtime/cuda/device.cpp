#include "runtime/cuda/device.hpp"

#include <cuda.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "core/gpu_slots.hpp"
#include "runtime/cuda/check.hpp"

namespace kverify::cuda {

namespace {
// A test that ctest gave a GPU (RESOURCE_GROUPS "gpus:1" under --resource-spec-file, as
// `./kverify test --gpus` runs the suite) sees that GPU alone: CUDA reads CUDA_VISIBLE_DEVICES when
// it starts, which is after static initialisation.
const bool kPinnedToCtestGpu = [] {
  if (const auto gpu = ctest_assigned_gpu()) return setenv("CUDA_VISIBLE_DEVICES", gpu->c_str(), 1) == 0;
  return false;
}();
}  // namespace

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
    s.device_count = count;
    s.name = prop.name;
    s.compute_capability = prop.major * 10 + prop.minor;
    s.multiprocessors = prop.multiProcessorCount;
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

namespace {

// The driver API's virtual memory functions, through the runtime (no link against libcuda).
struct Vmm {
  decltype(&cuMemAddressReserve) reserve = nullptr;
  decltype(&cuMemAddressFree) free = nullptr;
  decltype(&cuMemCreate) create = nullptr;
  decltype(&cuMemRelease) release = nullptr;
  decltype(&cuMemMap) map = nullptr;
  decltype(&cuMemUnmap) unmap = nullptr;
  decltype(&cuMemSetAccess) set_access = nullptr;
  decltype(&cuMemGetAllocationGranularity) granularity = nullptr;
};

const Vmm& vmm() {
  static const Vmm v = [] {
    Vmm f;
    const auto get = [](const char* symbol, auto& fn) {
      void* p = nullptr;
      cudaDriverEntryPointQueryResult found{};
      check(cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &found),
            (std::string("cudaGetDriverEntryPointByVersion ") + symbol).c_str());
      if (found != cudaDriverEntryPointSuccess || !p)
        throw std::runtime_error(std::string("the CUDA driver has no ") + symbol + " (far layouts need it)");
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    get("cuMemAddressReserve", f.reserve);
    get("cuMemAddressFree", f.free);
    get("cuMemCreate", f.create);
    get("cuMemRelease", f.release);
    get("cuMemMap", f.map);
    get("cuMemUnmap", f.unmap);
    get("cuMemSetAccess", f.set_access);
    get("cuMemGetAllocationGranularity", f.granularity);
    return f;
  }();
  return v;
}

void driver_check(CUresult r, const std::string& what) {
  if (r != CUDA_SUCCESS) throw std::runtime_error(what + " failed: CUresult " + std::to_string(static_cast<int>(r)));
}

}  // namespace

SparseDeviceBuffer::SparseDeviceBuffer(std::size_t bytes, const std::vector<Range>& mapped) : ranges_(mapped) {
  const Vmm& f = vmm();
  int device = 0;
  KV_CUDA_CHECK(cudaGetDevice(&device));
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  std::size_t g = 0;
  driver_check(f.granularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), "cuMemGetAllocationGranularity");
  const auto round_up = [g](std::size_t v) { return (v + g - 1) / g * g; };
  guard_ = round_up(std::size_t{16} << 30);
  reserved_ = guard_ + round_up(bytes) + guard_;
  CUdeviceptr base = 0;
  driver_check(f.reserve(&base, reserved_, g, 0, 0),
               "cuMemAddressReserve of " + std::to_string(reserved_ >> 30) + " GiB");
  base_ = base;
  try {
    for (const Range& r : mapped) {
      Range chunk{r.begin / g * g, round_up(r.end)};
      if (!mappings_.empty() && chunk.begin < mappings_.back().first.end) chunk.begin = mappings_.back().first.end;
      if (chunk.begin >= chunk.end) continue;
      CUmemGenericAllocationHandle handle = 0;
      driver_check(f.create(&handle, chunk.end - chunk.begin, &prop, 0), "cuMemCreate");
      mappings_.push_back({chunk, handle});
      const CUdeviceptr at = base_ + guard_ + chunk.begin;
      driver_check(f.map(at, chunk.end - chunk.begin, 0, handle, 0), "cuMemMap");
      CUmemAccessDesc access{};
      access.location = prop.location;
      access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      driver_check(f.set_access(at, chunk.end - chunk.begin, &access, 1), "cuMemSetAccess");
    }
  } catch (...) {
    release();
    throw;
  }
}

SparseDeviceBuffer::~SparseDeviceBuffer() { release(); }

void SparseDeviceBuffer::release() {
  const Vmm& f = vmm();
  for (auto& [chunk, handle] : mappings_) {
    f.unmap(base_ + guard_ + chunk.begin, chunk.end - chunk.begin);
    f.release(handle);
  }
  mappings_.clear();
  if (base_) f.free(base_, reserved_);
  base_ = 0;
}

void SparseDeviceBuffer::upload(const unsigned char* host) {
  for (const Range& r : ranges_)
    KV_CUDA_CHECK(cudaMemcpy(static_cast<unsigned char*>(data()) + r.begin, host + r.begin, r.end - r.begin,
                             cudaMemcpyHostToDevice));
}

void SparseDeviceBuffer::download(unsigned char* host) const {
  for (const Range& r : ranges_)
    KV_CUDA_CHECK(cudaMemcpy(host + r.begin, static_cast<const unsigned char*>(data()) + r.begin, r.end - r.begin,
                             cudaMemcpyDeviceToHost));
}

void synchronize(const char* after) {
  check(cudaDeviceSynchronize(), (std::string("synchronize after ") + after).c_str());
}

}  // namespace kverify::cuda
