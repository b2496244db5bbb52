// The CUDA programming model for the emu backend: what a kernel header sees when it is compiled
// by the host compiler instead of nvcc. Kernels never include this directly; they include
// runtime/kernel_api.hpp, which picks this file or the real CUDA headers.
//
// Thread and block indices, __syncthreads, __syncwarp, the warp shuffles and votes, atomics,
// __shared__ (as `static`: ASan sees overflows of static arrays, and blocks run one at a time),
// dynamic shared memory (KV_DYNAMIC_SHARED), and the CUDA math functions kernels use.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <tuple>
#include <type_traits>

#include "runtime/emu/scheduler.hpp"

#if defined(KVERIFY_EMU_TSAN)
// The indices are bookkeeping written by the scheduler, not kernel memory.
#define KV_EMU_BOOKKEEPING __attribute__((no_sanitize("thread")))
#else
#define KV_EMU_BOOKKEEPING
#endif

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __shared__ static
#define __constant__ static const
#define KV_DYNAMIC_SHARED(T, name) T* name = reinterpret_cast<T*>(::kverify::emu::detail::dynamic_shared)

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr operator ::kverify::emu::Dim3() const { return {x, y, z}; }
};
using uint3 = ::kverify::emu::Dim3;

namespace kverify::emu::model {
KV_EMU_BOOKKEEPING inline const Dim3& thread_idx() { return detail::current->thread_idx; }
KV_EMU_BOOKKEEPING inline const Dim3& block_idx() { return detail::current->block_idx; }
KV_EMU_BOOKKEEPING inline const Dim3& block_dim() { return detail::current->block_dim; }
KV_EMU_BOOKKEEPING inline const Dim3& grid_dim() { return detail::current->grid_dim; }

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

#define threadIdx (::kverify::emu::model::thread_idx())
#define blockIdx (::kverify::emu::model::block_idx())
#define blockDim (::kverify::emu::model::block_dim())
#define gridDim (::kverify::emu::model::grid_dim())
constexpr int warpSize = 32;

// --- synchronisation ---------------------------------------------------------------------------

inline void __syncthreads(std::source_location site = std::source_location::current()) {
  ::kverify::emu::detail::syncthreads(site);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, std::source_location site = std::source_location::current()) {
  ::kverify::emu::detail::warp_collective(::kverify::emu::detail::Collective::syncwarp, mask, 0, 0, 32, site);
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
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

template <typename T>
T atomicAdd(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_add(value);
}
template <typename T>
T atomicSub(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_sub(value);
}
template <typename T>
T atomicExch(T* address, T value) {
  return std::atomic_ref<T>(*address).exchange(value);
}
template <typename T>
T atomicCAS(T* address, T compare, T value) {
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, value);
  return compare;  // the old value, whether or not the swap happened
}
template <typename T>
T atomicMax(T* address, T value) {
  std::atomic_ref<T> ref(*address);
  T old = ref.load();
  while (old < value && !ref.compare_exchange_weak(old, value)) {
  }
  return old;
}
template <typename T>
T atomicMin(T* address, T value) {
  std::atomic_ref<T> ref(*address);
  T old = ref.load();
  while (value < old && !ref.compare_exchange_weak(old, value)) {
  }
  return old;
}

// --- math ----------------------------------------------------------------------------------------
// The accurate functions come from the host libm (CUDA documents expf and tanhf within 2 ulp; the
// results differ from the GPU's in the last bits, which is why emu and GPU are each compared with
// the reference, never with each other). __expf is modelled as the GPU computes it: ex2.approx of
// x*log2(e), with x*log2(e) rounded to f32 first, the dominant part of its error.
inline float __expf(float x) { return std::exp2(x * 1.44269504088896341f); }
inline float __logf(float x) { return std::log2(x) * 0.693147180559945309f; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
template <typename T>
T __ldg(const T* p) {
  return *p;
}
// expf, tanhf, erff, fmaxf, ... are the C library's, declared by <cmath> in the global namespace.
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }

// --- launching -----------------------------------------------------------------------------------

namespace kverify::emu {

// Runs kernel(args...) over the grid: the emu counterpart of kernel<<<grid, block, shmem>>>(args...).
template <typename... Params, typename... Args>
LaunchStats launch(Dim3 grid, Dim3 block, std::size_t dynamic_shared_bytes, const LaunchOptions& options,
                   void (*kernel)(Params...), Args&&... args) {
  struct Bound {
    void (*kernel)(Params...);
    std::tuple<std::decay_t<Params>...> args;
  } bound{kernel, std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)};
  return launch_erased(
      grid, block, dynamic_shared_bytes, options,
      [](void* p) {
        auto* b = static_cast<Bound*>(p);
        std::apply(b->kernel, b->args);  // each thread gets the same argument values
      },
      &bound);
}

}  // namespace kverify::emu
