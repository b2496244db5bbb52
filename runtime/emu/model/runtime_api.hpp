// The CUDA runtime calls a host launcher makes, answered by the emu backend (cuda_runtime_api.h's
// names): errors, device queries with an H200's values, function attributes, occupancy, memory
// copies and symbols, streams and events. emu's device memory is host memory, and a launch runs
// to completion before the launch call returns, so every stream operation is synchronous.
//
// Types and enumerators have CUDA's names and values and live in the global namespace, as the
// toolkit's do. The functions have C++ linkage (mangled names), so a program that also links the
// real cudart (the cuda backend, whose symbols are extern "C") keeps both apart.
//
// Errors: every call returns its cudaError_t and records a failure as the calling thread's last
// error (cudaGetLastError returns and clears it, cudaPeekAtLastError only returns it), as the
// runtime does per host thread. A launch configuration the H200 refuses is such a recorded,
// non-sticky error. An error a kernel raises while it runs (deadlock, divergent __syncthreads,
// __trap, a bad warp collective, an exception) is NOT turned into a sticky error: the launch
// throws kverify::emu::LaunchError with the scheduler's full message, out of the launcher's host
// code, so the pipeline reports it for that Case and nothing of the failed kernel's state leaks
// into the next Case on the same thread. cudaDeviceSynchronize therefore always succeeds.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "runtime/emu/model/scheduler.hpp"
#include "runtime/emu/model/vector_types.hpp"

enum cudaError {
#define X(name, value, text) name = value,
#include "cuda_errors.def"
#undef X
};
using cudaError_t = cudaError;

enum cudaDeviceAttr {
#define X(name, value) name = value,
#include "cuda_device_attrs.def"
#undef X
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1,
  cudaSharedmemCarveoutMaxShared = 100,
  cudaSharedmemCarveoutMaxL1 = 0
};

struct CUstream_st;
using cudaStream_t = CUstream_st*;
struct CUevent_st;
using cudaEvent_t = CUevent_st*;

inline constexpr unsigned int cudaStreamDefault = 0x00;
inline constexpr unsigned int cudaStreamNonBlocking = 0x01;
inline constexpr unsigned int cudaEventDefault = 0x00;
inline constexpr unsigned int cudaEventBlockingSync = 0x01;
inline constexpr unsigned int cudaEventDisableTiming = 0x02;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

struct CUuuid_st {
  char bytes[16];
};
using cudaUUID_t = CUuuid_st;

// The fields of CUDA 13's cudaDeviceProp, by name (user code reads them by name; the layout is
// not CUDA's binary layout, which nothing on emu depends on).
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

// --- errors --------------------------------------------------------------------------------------
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();

// --- device --------------------------------------------------------------------------------------
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);

// --- streams and events (synchronous on emu) ----------------------------------------------------
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
// Work on `stream` after this waits for `event`: on emu every call has finished when it returns, so
// there is nothing to wait for (a kernel whose side-stream work lacks this join is wrong on the GPU
// and cannot show it here: docs/emu-cuda-surface.md).
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);

// --- device limits and L2 residency (emu has no cache: the values are kept and read back as the
// GPU's runtime keeps them, and change nothing else) --------------------------------------------
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06
};
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2
};
struct cudaAccessPolicyWindow {
  void* base_ptr;
  size_t num_bytes;
  float hitRatio;
  cudaAccessProperty hitProp;
  cudaAccessProperty missProp;
};
enum cudaStreamAttrID { cudaStreamAttributeAccessPolicyWindow = 1 };
union cudaStreamAttrValue {
  char pad[64];
  cudaAccessPolicyWindow accessPolicyWindow;
};
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaCtxResetPersistingL2Cache();
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue* value);

// --- memory (host memory) -----------------------------------------------------------------------
cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream = nullptr);
template <typename T>
cudaError_t cudaMalloc(T** ptr, size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), size);
}
template <typename T>
cudaError_t cudaMallocHost(T** ptr, size_t size) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}

namespace kverify::emu::api {
// Records a failure as the thread's last error; returns e.
cudaError_t record(cudaError_t e);
// Symbol copies: `symbol` is the variable itself (its size bounds the copy) or, for the const
// void* forms, the address of one (not checked: emu cannot know its size).
cudaError_t copy_to_symbol(void* symbol, size_t symbol_size, const void* src, size_t count, size_t offset,
                           cudaMemcpyKind kind);
cudaError_t copy_from_symbol(void* dst, const void* symbol, size_t symbol_size, size_t count, size_t offset,
                             cudaMemcpyKind kind);
inline constexpr size_t kUnknownSize = static_cast<size_t>(-1);
}  // namespace kverify::emu::api

template <typename T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return kverify::emu::api::copy_to_symbol(const_cast<void*>(static_cast<const void*>(&symbol)), sizeof(T), src, count,
                                           offset, kind);
}
inline cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return kverify::emu::api::copy_to_symbol(const_cast<void*>(symbol), kverify::emu::api::kUnknownSize, src, count,
                                           offset, kind);
}
// A temporary is never a symbol (e.g. `&symbol`, which CUDA also refuses at run time).
template <typename T>
cudaError_t cudaMemcpyToSymbol(const T&&, const void*, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyHostToDevice) {
  return kverify::emu::api::record(cudaErrorInvalidSymbol);
}
template <typename T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count, size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
template <typename T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return kverify::emu::api::copy_from_symbol(dst, &symbol, sizeof(T), count, offset, kind);
}
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return kverify::emu::api::copy_from_symbol(dst, symbol, kverify::emu::api::kUnknownSize, count, offset, kind);
}
template <typename T>
cudaError_t cudaMemcpyFromSymbol(void*, const T&&, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  return kverify::emu::api::record(cudaErrorInvalidSymbol);
}
template <typename T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
template <typename T>
cudaError_t cudaGetSymbolAddress(void** dev_ptr, const T& symbol) {
  if (!dev_ptr) return kverify::emu::api::record(cudaErrorInvalidValue);
  *dev_ptr = const_cast<void*>(static_cast<const void*>(&symbol));
  return cudaSuccess;
}
template <typename T>
cudaError_t cudaGetSymbolSize(size_t* size, const T&) {
  if (!size) return kverify::emu::api::record(cudaErrorInvalidValue);
  *size = sizeof(T);
  return cudaSuccess;
}

// --- kernels: attributes and occupancy, per kernel function -------------------------------------
// A kernel is named by its function pointer (the C forms take it as const void*, as CUDA's do).
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                          size_t dynamic_shared_bytes);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func, int block_size,
                                                                   size_t dynamic_shared_bytes, unsigned int flags);
template <typename... P>
cudaError_t cudaFuncSetAttribute(void (*func)(P...), cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(func), attr, value);
}
template <typename... P>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, void (*func)(P...)) {
  return cudaFuncGetAttributes(attr, reinterpret_cast<const void*>(func));
}
template <typename... P>
cudaError_t cudaFuncSetCacheConfig(void (*func)(P...), cudaFuncCache config) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(func), config);
}
template <typename... P>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, void (*func)(P...), int block_size,
                                                          size_t dynamic_shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(func), block_size,
                                                       dynamic_shared_bytes);
}
// The block size with the most resident threads per SM (ties: the larger block), as the
// runtime's helper of the same name searches it, for a fixed dynamic shared size.
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, const void* func,
                                               size_t dynamic_shared_bytes = 0, int block_size_limit = 0);
template <typename... P>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, void (*func)(P...),
                                               size_t dynamic_shared_bytes = 0, int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSize(min_grid_size, block_size, reinterpret_cast<const void*>(func),
                                            dynamic_shared_bytes, block_size_limit);
}

namespace kverify::emu {

// What emu assumes of a kernel for occupancy and cudaFuncGetAttributes, where the host compiler
// cannot know it: registers per thread (default 32) and static shared memory (default 0).
// A test that needs the figures nvcc reports for its kernel sets them here.
void set_kernel_resources(const void* func, int registers_per_thread, size_t static_shared_bytes);

// The H200's limits, used by the launch checks and the device queries.
struct DeviceLimits {
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr int kMaxBlockDimZ = 64;
  static constexpr unsigned kMaxGridDimX = 0x7fffffffu;
  static constexpr unsigned kMaxGridDimYZ = 65535;
  static constexpr int kDefaultDynamicShared = 48 * 1024;
  static constexpr int kMaxSharedPerBlockOptin = 232448;   // 227 KiB
  static constexpr int kSharedPerMultiprocessor = 233472;  // 228 KiB
  static constexpr int kReservedSharedPerBlock = 1024;
  static constexpr int kRegistersPerMultiprocessor = 65536;
  static constexpr int kMaxThreadsPerMultiprocessor = 2048;
  static constexpr int kMaxBlocksPerMultiprocessor = 32;
  static constexpr int kMultiprocessors = 132;
};

// The launch options that launch_kernel uses, for as long as the scope lives on this thread
// (scopes nest; the innermost wins), and the statistics of the launches made under it.
class ScheduleScope {
 public:
  explicit ScheduleScope(LaunchOptions options);
  explicit ScheduleScope(std::uint64_t schedule_seed) : ScheduleScope(LaunchOptions{schedule_seed}) {}
  ~ScheduleScope();
  ScheduleScope(const ScheduleScope&) = delete;
  ScheduleScope& operator=(const ScheduleScope&) = delete;
  // Launches run and launches refused while this scope was the innermost one.
  const LaunchStats& stats() const { return stats_; }
  int launches() const { return launches_; }
  int refused() const { return refused_; }

 private:
  friend struct ScopeAccess;
  LaunchOptions options_;
  ScheduleScope* outer_;
  LaunchStats stats_;
  int launches_ = 0;
  int refused_ = 0;
};
LaunchOptions current_launch_options();
// Why the last refused launch_kernel on this thread was refused ("" if none was).
const char* last_launch_refusal();

namespace api {
// launch_kernel's bookkeeping: admit_launch checks the configuration (recording CUDA's error and
// returning false when the H200 would refuse it, throwing LaunchError for a launch from device
// code); note_launch adds a finished launch to the innermost ScheduleScope.
bool admit_launch(const void* func, dim3 grid, dim3 block, size_t dynamic_shared_bytes);
void note_launch(const LaunchStats& stats);
// Counts a launch on a stream other than the default one, and one on the default stream while a
// CallerStream lives (streams.hpp).
void note_stream_of_launch(cudaStream_t stream);
// A piece of stream work on this thread (a launch, a copy, a memset): where host threads take turns
// at theirs (taking_turns.hpp), it waits for this thread's turn first.
void before_stream_work();
void after_stream_work();
struct StreamWork {
  StreamWork() { before_stream_work(); }
  ~StreamWork() { after_stream_work(); }
  StreamWork(const StreamWork&) = delete;
  StreamWork& operator=(const StreamWork&) = delete;
};

// The check a real launch makes before it runs: cudaSuccess, or the error CUDA returns for this
// configuration of `func` (with the reason in *why).
cudaError_t check_launch(const void* func, dim3 grid, dim3 block, size_t dynamic_shared_bytes, const char** why);
}  // namespace api

}  // namespace kverify::emu
