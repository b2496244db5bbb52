#include "runtime/emu/model/runtime_api.hpp"

#include "runtime/emu/model/streams.hpp"

#include <atomic>

#include "runtime/emu/detectors/race_detector.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>

namespace {

using kverify::emu::DeviceLimits;

thread_local cudaError_t last_error = cudaSuccess;
thread_local int current_device = 0;

// What a kernel function carries on a device: its attributes (set by cudaFuncSetAttribute) and
// what emu assumes of its resources.
struct FuncState {
  int max_dynamic_shared = DeviceLimits::kDefaultDynamicShared;
  int preferred_carveout = -1;
  int registers = 32;
  size_t static_shared = 0;
};

std::mutex registry_mutex;
std::unordered_map<const void*, FuncState>& registry() {
  static std::unordered_map<const void*, FuncState> map;
  return map;
}
FuncState func_state(const void* func) {
  std::lock_guard lock(registry_mutex);
  const auto it = registry().find(func);
  return it == registry().end() ? FuncState{} : it->second;
}

bool valid_kind(cudaMemcpyKind kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

struct Event {
  std::chrono::steady_clock::time_point at{};
  bool recorded = false;
};
struct Stream {
  unsigned int flags = 0;
  cudaAccessPolicyWindow window{};
};

// An H200 SXM's values: the compute-capability 9.0 limits of the CUDA Programming Guide (threads,
// blocks, warps, registers, shared memory per SM and per block, grid and block extents); memory
// size, L2 (60 MiB), bus width, persisting-L2 and access-policy sizes and copy engines as the lent
// H200 reports them (driver 580, `emu_compat_table_cuda --device`, which prints every value next
// to `emu_compat_table --device` for a diff on a GPU run). Identifying values (UUID, PCI
// location) are zero.
cudaDeviceProp make_properties() {
  cudaDeviceProp p{};
  std::strncpy(p.name, "NVIDIA H200 (emu)", sizeof p.name - 1);
  p.totalGlobalMem = 150109880320ull;
  p.sharedMemPerBlock = DeviceLimits::kDefaultDynamicShared;
  p.regsPerBlock = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = DeviceLimits::kMaxThreadsPerBlock;
  p.maxThreadsDim[0] = 1024;
  p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = DeviceLimits::kMaxBlockDimZ;
  p.maxGridSize[0] = static_cast<int>(DeviceLimits::kMaxGridDimX);
  p.maxGridSize[1] = static_cast<int>(DeviceLimits::kMaxGridDimYZ);
  p.maxGridSize[2] = static_cast<int>(DeviceLimits::kMaxGridDimYZ);
  p.totalConstMem = 65536;
  p.major = 9;
  p.minor = 0;
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = DeviceLimits::kMultiprocessors;
  p.integrated = 0;
  p.canMapHostMemory = 1;
  p.maxTexture1D = 131072;
  p.maxTexture1DMipmap = 32768;
  p.maxTexture2D[0] = 131072;
  p.maxTexture2D[1] = 65536;
  p.maxTexture2DMipmap[0] = 32768;
  p.maxTexture2DMipmap[1] = 32768;
  p.maxTexture2DLinear[0] = 131072;
  p.maxTexture2DLinear[1] = 65000;
  p.maxTexture2DLinear[2] = 2097120;
  p.maxTexture2DGather[0] = 32768;
  p.maxTexture2DGather[1] = 32768;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 16384;
  p.maxTexture3DAlt[0] = p.maxTexture3DAlt[1] = 8192;
  p.maxTexture3DAlt[2] = 32768;
  p.maxTextureCubemap = 32768;
  p.maxTexture1DLayered[0] = 32768;
  p.maxTexture1DLayered[1] = 2048;
  p.maxTexture2DLayered[0] = p.maxTexture2DLayered[1] = 32768;
  p.maxTexture2DLayered[2] = 2048;
  p.maxTextureCubemapLayered[0] = 32768;
  p.maxTextureCubemapLayered[1] = 2046;
  p.maxSurface1D = 32768;
  p.maxSurface2D[0] = 131072;
  p.maxSurface2D[1] = 65536;
  p.maxSurface3D[0] = p.maxSurface3D[1] = p.maxSurface3D[2] = 16384;
  p.maxSurface1DLayered[0] = 32768;
  p.maxSurface1DLayered[1] = 2048;
  p.maxSurface2DLayered[0] = p.maxSurface2DLayered[1] = 32768;
  p.maxSurface2DLayered[2] = 2048;
  p.maxSurfaceCubemap = 32768;
  p.maxSurfaceCubemapLayered[0] = 32768;
  p.maxSurfaceCubemapLayered[1] = 2046;
  p.surfaceAlignment = 512;
  p.concurrentKernels = 1;
  p.ECCEnabled = 1;
  p.asyncEngineCount = 3;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = 6016;
  p.l2CacheSize = 62914560;
  p.persistingL2CacheMaxSize = 39321600;
  p.maxThreadsPerMultiProcessor = DeviceLimits::kMaxThreadsPerMultiprocessor;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = DeviceLimits::kSharedPerMultiprocessor;
  p.regsPerMultiprocessor = DeviceLimits::kRegistersPerMultiprocessor;
  p.managedMemory = 1;
  p.hostNativeAtomicSupported = 0;
  p.pageableMemoryAccess = 0;
  p.concurrentManagedAccess = 1;
  p.computePreemptionSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = DeviceLimits::kMaxSharedPerBlockOptin;
  p.pageableMemoryAccessUsesHostPageTables = 0;
  p.directManagedMemAccessFromHost = 0;
  p.maxBlocksPerMultiProcessor = DeviceLimits::kMaxBlocksPerMultiprocessor;
  p.accessPolicyMaxWindowSize = 134217728;
  p.reservedSharedMemPerBlock = DeviceLimits::kReservedSharedPerBlock;
  p.hostRegisterSupported = 1;
  p.sparseCudaArraySupported = 1;
  p.hostRegisterReadOnlySupported = 1;
  p.timelineSemaphoreInteropSupported = 1;
  p.memoryPoolsSupported = 1;
  p.gpuDirectRDMASupported = 1;
  p.gpuDirectRDMAFlushWritesOptions = 1;
  p.gpuDirectRDMAWritesOrdering = 100;
  p.memoryPoolSupportedHandleTypes = 9;
  p.deferredMappingCudaArraySupported = 1;
  p.ipcEventSupported = 1;
  p.clusterLaunch = 1;
  p.unifiedFunctionPointers = 1;
  p.deviceNumaConfig = 0;
  p.deviceNumaId = -1;
  p.mpsEnabled = 0;
  p.hostNumaId = -1;
  return p;
}

const cudaDeviceProp& properties() {
  static const cudaDeviceProp p = make_properties();
  return p;
}

bool valid_device(int device) { return device == 0; }

// Shared memory a block occupies on an SM: its static and dynamic bytes plus the per-block
// reservation, in the 128-byte allocation unit.
size_t shared_per_block(const FuncState& f, size_t dynamic) {
  const size_t bytes = f.static_shared + dynamic + DeviceLimits::kReservedSharedPerBlock;
  return (bytes + 127) / 128 * 128;
}

// The shared-memory carveout the driver picks: the smallest supported configuration that holds
// the requested percentage of 228 KiB (the largest when none is requested).
size_t carveout_bytes(int preferred_percent) {
  static constexpr int kConfigsKiB[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  if (preferred_percent < 0) return DeviceLimits::kSharedPerMultiprocessor;
  const double want = preferred_percent / 100.0 * 228.0;
  for (int kib : kConfigsKiB)
    if (kib >= want) return static_cast<size_t>(kib) * 1024;
  return DeviceLimits::kSharedPerMultiprocessor;
}

}  // namespace

namespace kverify::emu {

void set_kernel_resources(const void* func, int registers_per_thread, size_t static_shared_bytes) {
  std::lock_guard lock(registry_mutex);
  FuncState& f = registry()[func];
  f.registers = registers_per_thread;
  f.static_shared = static_shared_bytes;
}

namespace {
thread_local ScheduleScope* innermost_scope = nullptr;
thread_local const char* refusal = "";
}  // namespace

ScheduleScope::ScheduleScope(LaunchOptions options) : options_(options), outer_(innermost_scope) {
  innermost_scope = this;
}
ScheduleScope::~ScheduleScope() { innermost_scope = outer_; }

struct ScopeAccess {
  static void add(ScheduleScope& s, const LaunchStats& stats) {
    s.stats_.blocks += stats.blocks;
    s.stats_.threads += stats.threads;
    s.stats_.switches += stats.switches;
    ++s.launches_;
  }
  static void refuse(ScheduleScope& s) { ++s.refused_; }
  static LaunchOptions options(const ScheduleScope& s) { return s.options_; }
};

LaunchOptions current_launch_options() {
  return innermost_scope ? ScopeAccess::options(*innermost_scope) : LaunchOptions{};
}
const char* last_launch_refusal() { return refusal; }

namespace api {

bool admit_launch(const void* func, dim3 grid, dim3 block, size_t dynamic_shared_bytes) {
  if (detail::in_kernel())
    throw LaunchError(LaunchError::Kind::bad_launch,
                      "a kernel launch from device code (dynamic parallelism) is not modelled on emu");
  const char* why = "";
  const cudaError_t e = check_launch(func, grid, block, dynamic_shared_bytes, &why);
  if (e == cudaSuccess) return true;
  record(e);
  refusal = why;
  if (innermost_scope) ScopeAccess::refuse(*innermost_scope);
  return false;
}

void note_launch(const LaunchStats& stats) {
  if (innermost_scope) ScopeAccess::add(*innermost_scope, stats);
}

cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) last_error = e;
  return e;
}

cudaError_t copy_to_symbol(void* symbol, size_t symbol_size, const void* src, size_t count, size_t offset,
                           cudaMemcpyKind kind) {
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return record(cudaErrorInvalidMemcpyDirection);
  if (symbol_size != kUnknownSize && (offset > symbol_size || count > symbol_size - offset))
    return record(cudaErrorInvalidValue);
  if (count > 0 && !src) return record(cudaErrorInvalidValue);
  if (count > 0) std::memmove(static_cast<unsigned char*>(symbol) + offset, src, count);
  return cudaSuccess;
}

cudaError_t copy_from_symbol(void* dst, const void* symbol, size_t symbol_size, size_t count, size_t offset,
                             cudaMemcpyKind kind) {
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return record(cudaErrorInvalidMemcpyDirection);
  if (symbol_size != kUnknownSize && (offset > symbol_size || count > symbol_size - offset))
    return record(cudaErrorInvalidValue);
  if (count > 0 && !dst) return record(cudaErrorInvalidValue);
  if (count > 0) std::memmove(dst, static_cast<const unsigned char*>(symbol) + offset, count);
  return cudaSuccess;
}

cudaError_t check_launch(const void* func, dim3 grid, dim3 block, size_t dynamic_shared_bytes, const char** why) {
  const auto fail = [&](cudaError_t e, const char* reason) {
    if (why) *why = reason;
    return e;
  };
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (threads == 0 || threads > DeviceLimits::kMaxThreadsPerBlock || block.x > 1024 || block.y > 1024 ||
      block.z > DeviceLimits::kMaxBlockDimZ)
    return fail(cudaErrorInvalidValue, "block: x*y*z from 1 to 1024 threads, x and y <= 1024, z <= 64");
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > DeviceLimits::kMaxGridDimX ||
      grid.y > DeviceLimits::kMaxGridDimYZ || grid.z > DeviceLimits::kMaxGridDimYZ)
    return fail(cudaErrorInvalidValue, "grid: x from 1 to 2^31-1, y and z from 1 to 65535");
  const FuncState f = func_state(func);
  if (f.static_shared + dynamic_shared_bytes > static_cast<size_t>(DeviceLimits::kMaxSharedPerBlockOptin))
    return fail(cudaErrorInvalidValue, "shared memory: at most 227 KiB (232448 bytes) per block");
  if (dynamic_shared_bytes > static_cast<size_t>(f.max_dynamic_shared))
    return fail(cudaErrorInvalidValue,
                "dynamic shared memory: above the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize (48 KiB "
                "unless raised with cudaFuncSetAttribute)");
  return cudaSuccess;
}

}  // namespace api
}  // namespace kverify::emu

using kverify::emu::api::record;

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
#define X(name, value, text) \
  case name:                 \
    return text;
#include "runtime/emu/model/cuda_errors.def"
#undef X
  }
  return "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define X(name, value, text) \
  case name:                 \
    return #name;
#include "runtime/emu/model/cuda_errors.def"
#undef X
  }
  return "unrecognized error code";
}

cudaError_t cudaGetLastError() {
  const cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return last_error; }

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return record(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (!device) return record(cudaErrorInvalidValue);
  *device = current_device;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  if (!valid_device(device)) return record(cudaErrorInvalidDevice);
  current_device = device;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return record(cudaErrorInvalidValue);
  if (!valid_device(device)) return record(cudaErrorInvalidDevice);
  const cudaDeviceProp& p = properties();
  int v;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
      v = p.maxThreadsPerBlock;
      break;
    case cudaDevAttrMaxBlockDimX:
      v = p.maxThreadsDim[0];
      break;
    case cudaDevAttrMaxBlockDimY:
      v = p.maxThreadsDim[1];
      break;
    case cudaDevAttrMaxBlockDimZ:
      v = p.maxThreadsDim[2];
      break;
    case cudaDevAttrMaxGridDimX:
      v = p.maxGridSize[0];
      break;
    case cudaDevAttrMaxGridDimY:
      v = p.maxGridSize[1];
      break;
    case cudaDevAttrMaxGridDimZ:
      v = p.maxGridSize[2];
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      v = static_cast<int>(p.sharedMemPerBlock);
      break;
    case cudaDevAttrTotalConstantMemory:
      v = static_cast<int>(p.totalConstMem);
      break;
    case cudaDevAttrWarpSize:
      v = p.warpSize;
      break;
    case cudaDevAttrMaxPitch:
      v = static_cast<int>(p.memPitch);
      break;
    case cudaDevAttrMaxRegistersPerBlock:
      v = p.regsPerBlock;
      break;
    case cudaDevAttrClockRate:
      v = 1980000;
      break;
    case cudaDevAttrTextureAlignment:
      v = static_cast<int>(p.textureAlignment);
      break;
    case cudaDevAttrGpuOverlap:
      v = 1;
      break;
    case cudaDevAttrMultiProcessorCount:
      v = p.multiProcessorCount;
      break;
    case cudaDevAttrKernelExecTimeout:
      v = 0;
      break;
    case cudaDevAttrIntegrated:
      v = p.integrated;
      break;
    case cudaDevAttrCanMapHostMemory:
      v = p.canMapHostMemory;
      break;
    case cudaDevAttrComputeMode:
      v = 0;
      break;
    case cudaDevAttrConcurrentKernels:
      v = p.concurrentKernels;
      break;
    case cudaDevAttrEccEnabled:
      v = p.ECCEnabled;
      break;
    case cudaDevAttrMemoryClockRate:
      v = 3201000;
      break;
    case cudaDevAttrGlobalMemoryBusWidth:
      v = p.memoryBusWidth;
      break;
    case cudaDevAttrL2CacheSize:
      v = p.l2CacheSize;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      v = p.maxThreadsPerMultiProcessor;
      break;
    case cudaDevAttrAsyncEngineCount:
      v = p.asyncEngineCount;
      break;
    case cudaDevAttrUnifiedAddressing:
      v = p.unifiedAddressing;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      v = p.major;
      break;
    case cudaDevAttrComputeCapabilityMinor:
      v = p.minor;
      break;
    case cudaDevAttrStreamPrioritiesSupported:
      v = p.streamPrioritiesSupported;
      break;
    case cudaDevAttrGlobalL1CacheSupported:
      v = p.globalL1CacheSupported;
      break;
    case cudaDevAttrLocalL1CacheSupported:
      v = p.localL1CacheSupported;
      break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      v = static_cast<int>(p.sharedMemPerMultiprocessor);
      break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      v = p.regsPerMultiprocessor;
      break;
    case cudaDevAttrManagedMemory:
      v = p.managedMemory;
      break;
    case cudaDevAttrIsMultiGpuBoard:
      v = p.isMultiGpuBoard;
      break;
    case cudaDevAttrConcurrentManagedAccess:
      v = p.concurrentManagedAccess;
      break;
    case cudaDevAttrComputePreemptionSupported:
      v = p.computePreemptionSupported;
      break;
    case cudaDevAttrCooperativeLaunch:
      v = p.cooperativeLaunch;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      v = static_cast<int>(p.sharedMemPerBlockOptin);
      break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      v = p.maxBlocksPerMultiProcessor;
      break;
    case cudaDevAttrMaxPersistingL2CacheSize:
      v = p.persistingL2CacheMaxSize;
      break;
    case cudaDevAttrMaxAccessPolicyWindowSize:
      v = p.accessPolicyMaxWindowSize;
      break;
    case cudaDevAttrReservedSharedMemoryPerBlock:
      v = static_cast<int>(p.reservedSharedMemPerBlock);
      break;
    case cudaDevAttrMemoryPoolsSupported:
      v = p.memoryPoolsSupported;
      break;
    case cudaDevAttrClusterLaunch:
      v = p.clusterLaunch;
      break;
    case cudaDevAttrPciBusId:
      v = p.pciBusID;
      break;
    case cudaDevAttrPciDeviceId:
      v = p.pciDeviceID;
      break;
    case cudaDevAttrPciDomainId:
      v = p.pciDomainID;
      break;
    case cudaDevAttrTccDriver:
      v = p.tccDriver;
      break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio:
      v = 2;
      break;
    case cudaDevAttrHostNativeAtomicSupported:
      v = p.hostNativeAtomicSupported;
      break;
    case cudaDevAttrPageableMemoryAccess:
      v = p.pageableMemoryAccess;
      break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
      v = p.canUseHostPointerForRegisteredMem;
      break;
    case cudaDevAttrHostRegisterSupported:
      v = p.hostRegisterSupported;
      break;
    default:
      return record(cudaErrorInvalidValue);
  }
  *value = v;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return record(cudaErrorInvalidValue);
  if (!valid_device(device)) return record(cudaErrorInvalidDevice);
  *prop = properties();
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
cudaError_t cudaDeviceReset() {
  last_error = cudaSuccess;
  std::lock_guard lock(registry_mutex);
  registry().clear();
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return record(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return record(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
namespace {
std::atomic<std::uint64_t> g_side_stream_launches{0};
constinit thread_local kverify::emu::CallerStream* t_caller_stream = nullptr;

bool default_stream(cudaStream_t s) { return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread; }

// Work on the default stream while the launcher was given a stream of its own.
void note_work_on(cudaStream_t stream, const char* what) {
  if (t_caller_stream && default_stream(stream)) t_caller_stream->note_default_stream_work(what);
}
}  // namespace
std::uint64_t kverify::emu::side_stream_launches() { return g_side_stream_launches.load(std::memory_order_relaxed); }
void kverify::emu::api::note_stream_of_launch(cudaStream_t stream) {
  const bool callers = t_caller_stream && stream == t_caller_stream->stream();
  if (!default_stream(stream) && !callers) g_side_stream_launches.fetch_add(1, std::memory_order_relaxed);
  note_work_on(stream, "a kernel launched without the stream (<<<grid, block>>>, or stream 0)");
}

void* kverify::emu::caller_stream() { return t_caller_stream ? t_caller_stream->stream() : nullptr; }
kverify::emu::CallerStream::CallerStream() : outer_(t_caller_stream) {
  cudaStream_t s = nullptr;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  stream_ = s;
  t_caller_stream = this;
}
kverify::emu::CallerStream::~CallerStream() {
  t_caller_stream = outer_;
  cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}
void kverify::emu::CallerStream::note_default_stream_work(const char* what) {
  if (default_stream_work_++ == 0) first_ = what;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (!stream) return record(cudaErrorInvalidValue);
  *stream = reinterpret_cast<cudaStream_t>(new Stream{flags});
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
    return record(cudaErrorInvalidResourceHandle);
  delete reinterpret_cast<Stream*>(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  if (!event) return record(cudaErrorInvalidValue);
  *event = reinterpret_cast<cudaEvent_t>(new Event);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (!event) return record(cudaErrorInvalidResourceHandle);
  delete reinterpret_cast<Event*>(event);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return record(cudaErrorInvalidResourceHandle);
  auto* e = reinterpret_cast<Event*>(event);
  e->at = std::chrono::steady_clock::now();
  e->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventQuery(cudaEvent_t event) { return event ? cudaSuccess : record(cudaErrorInvalidResourceHandle); }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t event, unsigned int flags) {
  if (!event) return record(cudaErrorInvalidResourceHandle);
  return flags == 0 || flags == 1 ? cudaSuccess : record(cudaErrorInvalidValue);  // cudaEventWaitDefault/External
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return record(cudaErrorInvalidValue);
  if (!start || !end) return record(cudaErrorInvalidResourceHandle);
  const auto* a = reinterpret_cast<Event*>(start);
  const auto* b = reinterpret_cast<Event*>(end);
  if (!a->recorded || !b->recorded) return record(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
  return cudaSuccess;
}

// The limits a program sets, as the runtime reports them back (its defaults on an H200: 1 KiB of
// stack, 1 MiB printf FIFO, 8 MiB heap, sync depth 2, 2048 pending launches, 64 B L2 fetch
// granularity, no persisting L2).
namespace {
std::mutex limits_mutex;
size_t limits[] = {1024, 1u << 20, 8u << 20, 2, 2048, 64, 0};
cudaAccessPolicyWindow default_streams_window{};

int device_attribute(cudaDeviceAttr attr) {
  int v = 0;
  cudaDeviceGetAttribute(&v, attr, 0);
  return v;
}
}  // namespace

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) return record(cudaErrorUnsupportedLimit);
  if (limit == cudaLimitPersistingL2CacheSize)  // the runtime caps the set-aside at the device's maximum
    value = std::min(value, static_cast<size_t>(device_attribute(cudaDevAttrMaxPersistingL2CacheSize)));
  std::lock_guard lock(limits_mutex);
  limits[limit] = value;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (!value) return record(cudaErrorInvalidValue);
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) return record(cudaErrorUnsupportedLimit);
  std::lock_guard lock(limits_mutex);
  *value = limits[limit];
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }

namespace {
cudaAccessPolicyWindow* window_of(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return &default_streams_window;
  return &reinterpret_cast<Stream*>(stream)->window;
}
}  // namespace
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue* value) {
  if (!value || attr != cudaStreamAttributeAccessPolicyWindow) return record(cudaErrorInvalidValue);
  const cudaAccessPolicyWindow& w = value->accessPolicyWindow;
  if (w.num_bytes > static_cast<size_t>(device_attribute(cudaDevAttrMaxAccessPolicyWindowSize)) ||
      !(w.hitRatio >= 0.0f && w.hitRatio <= 1.0f))
    return record(cudaErrorInvalidValue);
  std::lock_guard lock(limits_mutex);
  *window_of(stream) = w;
  return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue* value) {
  if (!value || attr != cudaStreamAttributeAccessPolicyWindow) return record(cudaErrorInvalidValue);
  std::lock_guard lock(limits_mutex);
  value->accessPolicyWindow = *window_of(stream);
  return cudaSuccess;
}

// cudaMalloc's documented alignment: at least 256 bytes.
cudaError_t cudaMalloc(void** ptr, size_t size) {
  if (!ptr) return record(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (size == 0) return cudaSuccess;
  void* p = ::operator new(size, std::align_val_t(256), std::nothrow);
  if (!p) return record(cudaErrorMemoryAllocation);
  *ptr = p;
  kverify::emu::race::add_global_region(p, size, "a cudaMalloc'd buffer of " + std::to_string(size) + " bytes");
  return cudaSuccess;
}
cudaError_t cudaMallocHost(void** ptr, size_t size) { return cudaMalloc(ptr, size); }
cudaError_t cudaFree(void* ptr) {
  if (ptr) {
    kverify::emu::race::remove_global_region(ptr);
    ::operator delete(ptr, std::align_val_t(256));
  }
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* ptr) { return cudaFree(ptr); }

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  const kverify::emu::api::StreamWork work;
  if (!valid_kind(kind)) return record(cudaErrorInvalidMemcpyDirection);
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return record(cudaErrorInvalidValue);
  std::memmove(dst, src, count);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  note_work_on(stream, "cudaMemcpyAsync on stream 0");
  return cudaMemcpy(dst, src, count, kind);
}
namespace {
cudaError_t memset_bytes(void* ptr, int value, size_t count) {
  if (count == 0) return cudaSuccess;
  if (!ptr) return record(cudaErrorInvalidValue);
  std::memset(ptr, value, count);
  return cudaSuccess;
}
}  // namespace
cudaError_t cudaMemset(void* ptr, int value, size_t count) {
  const kverify::emu::api::StreamWork work;
  note_work_on(nullptr, "cudaMemset (the legacy default stream)");
  return memset_bytes(ptr, value, count);
}
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream) {
  const kverify::emu::api::StreamWork work;
  note_work_on(stream, "cudaMemsetAsync on stream 0");
  return memset_bytes(ptr, value, count);
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (!func) return record(cudaErrorInvalidDeviceFunction);
  std::lock_guard lock(registry_mutex);
  FuncState& f = registry()[func];
  switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
      if (value < 0 || static_cast<size_t>(value) + f.static_shared > DeviceLimits::kMaxSharedPerBlockOptin)
        return record(cudaErrorInvalidValue);
      f.max_dynamic_shared = value;
      return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) return record(cudaErrorInvalidValue);
      f.preferred_carveout = value;
      return cudaSuccess;
    case cudaFuncAttributeClusterDimMustBeSet:
    case cudaFuncAttributeRequiredClusterWidth:
    case cudaFuncAttributeRequiredClusterHeight:
    case cudaFuncAttributeRequiredClusterDepth:
    case cudaFuncAttributeNonPortableClusterSizeAllowed:
    case cudaFuncAttributeClusterSchedulingPolicyPreference:
      return record(cudaErrorNotSupported);  // clusters are CUDA-only (not modelled on emu)
    default:
      return record(cudaErrorInvalidValue);
  }
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (!attr) return record(cudaErrorInvalidValue);
  if (!func) return record(cudaErrorInvalidDeviceFunction);
  const FuncState f = func_state(func);
  *attr = cudaFuncAttributes{};
  attr->sharedSizeBytes = f.static_shared;
  attr->maxThreadsPerBlock = DeviceLimits::kMaxThreadsPerBlock;
  attr->numRegs = f.registers;
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  attr->maxDynamicSharedSizeBytes = f.max_dynamic_shared;
  attr->preferredShmemCarveout = f.preferred_carveout;
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache) {
  return func ? cudaSuccess : record(cudaErrorInvalidDeviceFunction);
}

// Resident blocks per SM on an H200, the minimum of four limits:
//  - blocks: 32 per SM;
//  - warps: 64 per SM (2048 threads), a block counting ceil(threads / 32) warps;
//  - registers: 65536 per SM, allocated per warp in units of 256 (registers per thread times 32,
//    rounded up to 256), with the kernel's assumed registers per thread (32 unless
//    set_kernel_resources says otherwise: the host compiler cannot know nvcc's figure);
//  - shared memory: the carveout (228 KiB unless a preferred carveout is set) over the block's
//    static + dynamic + 1 KiB reserved bytes, in 128-byte units.
// A block size above 1024, or shared memory above the kernel's limits, gives 0.
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func, int block_size,
                                                                   size_t dynamic_shared_bytes, unsigned int) {
  if (!blocks || block_size <= 0) return record(cudaErrorInvalidValue);
  if (!func) return record(cudaErrorInvalidDeviceFunction);
  const FuncState f = func_state(func);
  *blocks = 0;
  if (block_size > DeviceLimits::kMaxThreadsPerBlock) return cudaSuccess;
  if (dynamic_shared_bytes > static_cast<size_t>(f.max_dynamic_shared) ||
      f.static_shared + dynamic_shared_bytes > static_cast<size_t>(DeviceLimits::kMaxSharedPerBlockOptin))
    return cudaSuccess;
  const int warps = (block_size + 31) / 32;
  int limit =
      std::min(DeviceLimits::kMaxBlocksPerMultiprocessor, DeviceLimits::kMaxThreadsPerMultiprocessor / 32 / warps);
  const int regs_per_warp = (std::max(f.registers, 1) * 32 + 255) / 256 * 256;
  limit = std::min(limit, DeviceLimits::kRegistersPerMultiprocessor / regs_per_warp / warps);
  const size_t available = carveout_bytes(f.preferred_carveout);
  limit = std::min<size_t>(limit, available / shared_per_block(f, dynamic_shared_bytes));
  *blocks = limit;
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                          size_t dynamic_shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, func, block_size, dynamic_shared_bytes, 0);
}

cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, const void* func,
                                               size_t dynamic_shared_bytes, int block_size_limit) {
  if (!min_grid_size || !block_size) return record(cudaErrorInvalidValue);
  if (!func) return record(cudaErrorInvalidDeviceFunction);
  const int top = block_size_limit > 0 ? std::min(block_size_limit, DeviceLimits::kMaxThreadsPerBlock)
                                       : DeviceLimits::kMaxThreadsPerBlock;
  int best_size = 0, best_threads = 0, best_blocks = 0;
  for (int size = top / 32 * 32; size >= 32; size -= 32) {
    int n = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, func, size, dynamic_shared_bytes);
    if (n * size > best_threads) {
      best_threads = n * size;
      best_size = size;
      best_blocks = n;
    }
  }
  *block_size = best_size;
  *min_grid_size = best_blocks * DeviceLimits::kMultiprocessors;
  return cudaSuccess;
}
