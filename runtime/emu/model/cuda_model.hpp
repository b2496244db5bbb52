// The CUDA programming model for the emu backend: what a kernel file sees when it is compiled
// by the host compiler instead of nvcc. Kernels include runtime/kernel_api.hpp (which picks this
// file or the real CUDA headers) or CUDA's own header names (runtime/emu/include/ maps
// cuda_runtime.h, cuda_fp16.h, ... onto this file for emu-compiled targets).
//
// Here: the qualifiers, the built-in index variables, __syncthreads, __syncwarp, the warp
// shuffles and votes, atomics, the memory spaces, and the launch. The types, intrinsics and
// runtime calls are in vector_types.hpp, fp16.hpp, device_functions.hpp and runtime_api.hpp.
//
// Memory spaces:
//  - __shared__ in a function is, after the emu source rewrite, a slot of the static shared arena
//    (static_shared below): one object per declaration for every thread of the running block
//    (blocks run one at a time), where the race detector sees it, with an ASan-poisoned redzone
//    after it. Where the rewrite does not reach (a macro, several declarators, namespace scope)
//    __shared__ is `static`: ASan sees overflows of static arrays, the race detector does not.
//  - __constant__ and __device__ are nothing: a namespace-scope `__device__ float g[16];` or
//    `__constant__ float c[4];` is an ordinary global, writable by cudaMemcpyToSymbol and
//    readable by kernels (emu does not refuse a kernel's write to __constant__; nvcc does).
//  - `extern __shared__ T name[];` (dynamic shared memory) and `static __shared__` cannot be
//    given their meaning by a macro: `extern static` and `static static` are ill-formed, and a
//    block-scope extern declaration needs a definition under the user's own name. The emu
//    source rewrite (rewrite/shared_declarations.hpp, applied with the `<<<>>>` rewrite) turns them into
//    kverify::emu::dynamic_shared_memory() / KV_EMU_EXTERN_SHARED; every `extern __shared__`
//    of a launch is the same 128-byte aligned block, poisoned with 0xff before each block, of
//    the launch's dynamic shared size. KV_DYNAMIC_SHARED(T, name) remains for kverify's kernels.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
// Before __noinline__ is defined: libstdc++'s shared_ptr_base.h spells __attribute__((__noinline__)),
// which the macro would break (nvcc treats __noinline__ as its own keyword instead).
#include <memory>
#include <source_location>
#include <tuple>
#include <type_traits>

#include "fp16.hpp"
#include "runtime/emu/detectors/race_detector.hpp"
#include "runtime/emu/model/builtins.hpp"
#include "runtime/emu/model/device_functions.hpp"
#include "runtime/emu/model/runtime_api.hpp"
#include "runtime/emu/model/scheduler.hpp"
#include "runtime/emu/model/vector_types.hpp"

#define __global__
#define __device__
#define __host__
#define __managed__
#define __constant__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
// A GNU attribute, not alignas: it may stand among the decl-specifiers, as nvcc accepts it after
// __shared__ (which is `static` here): `__shared__ __align__(16) float tile[64];`.
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ static
#define __grid_constant__
#define __CUDACC_EMU__ 1

namespace kverify::emu {
// The launch's dynamic shared memory (nullptr outside a launch).
inline void* dynamic_shared_memory() { return detail::dynamic_shared; }
inline std::size_t dynamic_shared_memory_bytes() { return detail::dynamic_shared_bytes; }

// `__shared__ T name[N];` in a function, rewritten: this declaration's slot of the static shared
// arena (one per declaration and template instance, as CUDA gives each kernel its own static shared
// memory; the detector knows the address is shared). Zeroed once; no thread may rely on that.
template <typename T, typename Declaration>
T& static_shared(std::size_t alignment, const char* name, Declaration) {
  static T* const slot = static_cast<T*>(race::carve_static_shared(sizeof(T), std::max(alignment, alignof(T)), name));
  return *slot;
}

// `extern __shared__ T name[];` at namespace scope, rewritten: an object that reads as the
// running launch's dynamic shared memory wherever `name` is used as an array or pointer.
template <typename T>
struct ExternShared {
  operator T*() const { return static_cast<T*>(dynamic_shared_memory()); }
  T& operator[](std::ptrdiff_t i) const { return static_cast<T*>(dynamic_shared_memory())[i]; }
};
}  // namespace kverify::emu

// `extern __shared__ T name[];` in a function, rewritten (T without alignment attributes).
#define KV_EMU_EXTERN_SHARED(T, name) T* const name = static_cast<T*>(::kverify::emu::dynamic_shared_memory())

namespace kverify::emu::model {
template <typename T>
std::uint64_t to_bits(T v) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "warp shuffles move values of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <typename T>
T from_bits(std::uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}
}  // namespace kverify::emu::model

// --- synchronisation ---------------------------------------------------------------------------

inline void __syncthreads(std::source_location site = std::source_location::current()) {
  ::kverify::emu::detail::syncthreads(site);
}
// The counting barriers: over the threads that take part (returned threads do not).
inline int __syncthreads_count(int predicate, std::source_location site = std::source_location::current()) {
  return static_cast<int>(::kverify::emu::detail::syncthreads_count(predicate, site) >> 32);
}
inline int __syncthreads_and(int predicate, std::source_location site = std::source_location::current()) {
  const std::uint64_t r = ::kverify::emu::detail::syncthreads_count(predicate, site);
  return (r >> 32) == (r & 0xffffffffu);
}
inline int __syncthreads_or(int predicate, std::source_location site = std::source_location::current()) {
  return (::kverify::emu::detail::syncthreads_count(predicate, site) >> 32) != 0;
}
inline void __syncwarp(unsigned mask = 0xffffffffu, std::source_location site = std::source_location::current()) {
  ::kverify::emu::detail::warp_collective(::kverify::emu::detail::Collective::syncwarp, mask, 0, 0, 32, site);
}
inline void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  ::kverify::emu::race::fence();  // what this block wrote before may be read by other blocks
}
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
[[noreturn]] inline void __trap(std::source_location site = std::source_location::current()) {
  ::kverify::emu::detail::trap(site);
}

// --- warp shuffles and votes (CUDA's width and out-of-range rules, see scheduler.cpp) ----------

#define KV_EMU_SHUFFLE(fn, kind, ParamType)                                                                 \
  template <typename T>                                                                                     \
  T fn(unsigned mask, T var, ParamType param, int width = warpSize,                                         \
       std::source_location site = std::source_location::current()) {                                       \
    using namespace ::kverify::emu;                                                                         \
    return model::from_bits<T>(detail::warp_collective(detail::Collective::kind, mask, model::to_bits(var), \
                                                       static_cast<int>(param), width, site));              \
  }
KV_EMU_SHUFFLE(__shfl_sync, shfl_idx, int)
KV_EMU_SHUFFLE(__shfl_up_sync, shfl_up, unsigned)
KV_EMU_SHUFFLE(__shfl_down_sync, shfl_down, unsigned)
KV_EMU_SHUFFLE(__shfl_xor_sync, shfl_xor, int)
#undef KV_EMU_SHUFFLE

inline unsigned __ballot_sync(unsigned mask, int predicate,
                              std::source_location site = std::source_location::current()) {
  using namespace ::kverify::emu;
  return static_cast<unsigned>(detail::warp_collective(detail::Collective::ballot, mask, predicate != 0, 0, 32, site));
}
inline int __any_sync(unsigned mask, int predicate, std::source_location site = std::source_location::current()) {
  using namespace ::kverify::emu;
  return static_cast<int>(detail::warp_collective(detail::Collective::any, mask, predicate != 0, 0, 32, site));
}
inline int __all_sync(unsigned mask, int predicate, std::source_location site = std::source_location::current()) {
  using namespace ::kverify::emu;
  return static_cast<int>(detail::warp_collective(detail::Collective::all, mask, predicate != 0, 0, 32, site));
}

// --- atomics (std::atomic_ref: real atomics, so TSan sees them as such) ------------------------
// Each is one atomic access for the race detector (KV_EMU_ATOMIC_ACCESS), whatever loads and stores
// std::atomic_ref makes of it.
#define KV_EMU_ATOMIC_ACCESS(address) \
  const ::kverify::emu::race::AtomicScope kv_atomic_scope(address, sizeof(*(address)))

template <typename T>
T atomicAdd(T* address, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  return std::atomic_ref<T>(*address).fetch_add(value);
}
template <typename T>
T atomicSub(T* address, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  return std::atomic_ref<T>(*address).fetch_sub(value);
}
template <typename T>
T atomicExch(T* address, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  return std::atomic_ref<T>(*address).exchange(value);
}
template <typename T>
T atomicCAS(T* address, T compare, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, value);
  return compare;  // the old value, whether or not the swap happened
}
template <typename T>
T atomicMax(T* address, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  std::atomic_ref<T> ref(*address);
  T old = ref.load();
  while (old < value && !ref.compare_exchange_weak(old, value)) {
  }
  return old;
}
template <typename T>
T atomicMin(T* address, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  std::atomic_ref<T> ref(*address);
  T old = ref.load();
  while (value < old && !ref.compare_exchange_weak(old, value)) {
  }
  return old;
}
template <typename T>
T atomicAnd(T* address, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  return std::atomic_ref<T>(*address).fetch_and(value);
}
template <typename T>
T atomicOr(T* address, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  return std::atomic_ref<T>(*address).fetch_or(value);
}
template <typename T>
T atomicXor(T* address, T value) {
  KV_EMU_ATOMIC_ACCESS(address);
  return std::atomic_ref<T>(*address).fetch_xor(value);
}
// ((old >= limit) ? 0 : old + 1) and (((old == 0) || (old > limit)) ? limit : old - 1).
inline unsigned int atomicInc(unsigned int* address, unsigned int limit) {
  KV_EMU_ATOMIC_ACCESS(address);
  std::atomic_ref<unsigned int> ref(*address);
  unsigned int old = ref.load();
  while (!ref.compare_exchange_weak(old, old >= limit ? 0u : old + 1u)) {
  }
  return old;
}
inline unsigned int atomicDec(unsigned int* address, unsigned int limit) {
  KV_EMU_ATOMIC_ACCESS(address);
  std::atomic_ref<unsigned int> ref(*address);
  unsigned int old = ref.load();
  while (!ref.compare_exchange_weak(old, (old == 0u || old > limit) ? limit : old - 1u)) {
  }
  return old;
}

namespace kverify::emu::detail {
// Read-modify-write of a value the hardware adds with one instruction and std::atomic_ref has no
// fetch_add for (16-bit floats and their pairs): a compare-exchange loop on the whole value.
template <typename T, typename F>
T atomic_update(T* address, F f) {
  KV_EMU_ATOMIC_ACCESS(address);
  std::atomic_ref<T> ref(*address);
  T old = ref.load();
  while (!ref.compare_exchange_weak(old, f(old))) {
  }
  return old;
}
}  // namespace kverify::emu::detail
inline __half atomicAdd(__half* address, __half v) {
  return kverify::emu::detail::atomic_update(address, [v](__half o) { return __hadd(o, v); });
}
inline __nv_bfloat16 atomicAdd(__nv_bfloat16* address, __nv_bfloat16 v) {
  return kverify::emu::detail::atomic_update(address, [v](__nv_bfloat16 o) { return __hadd(o, v); });
}
// The pair forms are atomic per 16-bit half on the device, not as a 32-bit whole; one
// compare-exchange over both is a stronger guarantee that no correct kernel can tell apart.
inline __half2 atomicAdd(__half2* address, __half2 v) {
  return kverify::emu::detail::atomic_update(address, [v](__half2 o) { return __hadd2(o, v); });
}
inline __nv_bfloat162 atomicAdd(__nv_bfloat162* address, __nv_bfloat162 v) {
  return kverify::emu::detail::atomic_update(address, [v](__nv_bfloat162 o) { return __hadd2(o, v); });
}
// sm_90's vector atomicAdd: each element is one atomic addition.
inline float2 atomicAdd(float2* address, float2 v) {
  KV_EMU_ATOMIC_ACCESS(address);
  return float2{atomicAdd(&address->x, v.x), atomicAdd(&address->y, v.y)};
}
inline float4 atomicAdd(float4* address, float4 v) {
  KV_EMU_ATOMIC_ACCESS(address);
  return float4{atomicAdd(&address->x, v.x), atomicAdd(&address->y, v.y), atomicAdd(&address->z, v.z),
                atomicAdd(&address->w, v.w)};
}
// The scoped forms: one memory and one block at a time on emu, so the scope changes nothing.
#define KV_EMU_SCOPED_ATOMIC(op)       \
  template <typename T, typename... V> \
  T op##_block(T* address, V... v) {   \
    return op(address, v...);          \
  }                                    \
  template <typename T, typename... V> \
  T op##_system(T* address, V... v) {  \
    return op(address, v...);          \
  }
KV_EMU_SCOPED_ATOMIC(atomicAdd)
KV_EMU_SCOPED_ATOMIC(atomicSub)
KV_EMU_SCOPED_ATOMIC(atomicExch)
KV_EMU_SCOPED_ATOMIC(atomicCAS)
KV_EMU_SCOPED_ATOMIC(atomicMax)
KV_EMU_SCOPED_ATOMIC(atomicMin)
KV_EMU_SCOPED_ATOMIC(atomicAnd)
KV_EMU_SCOPED_ATOMIC(atomicOr)
KV_EMU_SCOPED_ATOMIC(atomicXor)
#undef KV_EMU_SCOPED_ATOMIC

// --- launching -----------------------------------------------------------------------------------

namespace kverify::emu {

// Runs kernel(args...) over the grid: the emu counterpart of kernel<<<grid, block, shmem>>>(args...).
// Throws LaunchError, for a refused configuration too (kverify's tests call it directly;
// `<<<>>>` in kernel sources becomes launch_kernel below).
template <typename... Params, typename... Args>
LaunchStats launch(dim3 grid, dim3 block, std::size_t dynamic_shared_bytes, const LaunchOptions& options,
                   void (*kernel)(Params...), Args&&... args) {
  struct Bound {
    void (*kernel)(Params...);
    std::tuple<std::decay_t<Params>...> args;
  } bound{kernel, std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)};
  return launch_erased(
      Dim3{grid.x, grid.y, grid.z}, Dim3{block.x, block.y, block.z}, dynamic_shared_bytes, options,
      [](void* p) {
        auto* b = static_cast<Bound*>(p);
        std::apply(b->kernel, b->args);  // each thread gets the same argument values
      },
      &bound);
}

// What `kernel<<<grid, block, shmem, stream>>>(args...)` becomes on emu (the build-time rewrite
// of the launch syntax calls it). As on the device: a configuration the H200 refuses runs
// nothing and records CUDA's error for cudaGetLastError (not sticky), with the reason in
// last_launch_refusal(); the arguments convert to the kernel's parameter types as in a call; the
// schedule seed is the one of the innermost ScheduleScope on this thread (0 without one). An
// error the kernel raises while it runs throws LaunchError (runtime_api.hpp says why).
template <typename... Params, typename... Args>
void launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                   cudaStream_t stream, Args&&... args) {
  api::note_stream_of_launch(stream);  // every launch is synchronous on emu, and a Case says so
  const api::StreamWork work;          // where host threads take turns, this thread's turn first
  if (!api::admit_launch(reinterpret_cast<const void*>(kernel), grid, block, dynamic_shared_bytes)) return;
  api::note_launch(
      launch(grid, block, dynamic_shared_bytes, current_launch_options(), kernel, std::forward<Args>(args)...));
}

}  // namespace kverify::emu
