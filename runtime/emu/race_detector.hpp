// The emu race detector: every access a kernel makes to shared memory and to the launch's device
// memory is recorded per barrier interval, and conflicting accesses are reported with both sides.
//
// What it reports (a launch's first finding, after all its blocks ran: Collector says where to):
//  - two threads of a block touch the same byte in one barrier interval (no __syncthreads between)
//    and one of them writes; lanes of one warp are also ordered by a warp collective or __syncwarp
//    that both took part in (independent thread scheduling: without one, lanes run apart);
//  - two blocks of one launch touch the same byte of device memory and one writes, or a block reads
//    what another block wrote without a __threadfence after the write (blocks run in any order, and
//    at once);
//  - a thread reads shared memory (static or dynamic) that no thread of its block wrote before.
// Atomic accesses never conflict with each other, and an access with an atomic on either side is not
// reported (an atomic flag read by a spin-wait is synchronisation, not a race); what atomics leave
// order-dependent shows as [nondeterministic] (the two runs use other block and thread orders).
//
// How accesses arrive: the kernel TUs of the plain build are compiled with the compiler's
// thread-sanitizer instrumentation and no runtime (-fsanitize=thread): every load and every store
// calls in with its kind and size (__tsan_read4(addr), __tsan_write4(addr), ranges for aggregate
// copies), and every atomic is a call that does the operation (__tsan_atomic32_fetch_add); a
// read-modify-write is a read and a write. The fuzz tree's kernel TUs use SanitizerCoverage's
// load/store tracing (__sanitizer_cov_load4(addr), which composes with ASan). cmake/
// KverifyRaceDetector.cmake sets the flags. Watched, and kept: the launch's device memory
// (registered regions: the Case's tensors and workspace, cudaMalloc'd buffers) and its shared memory
// (the dynamic block, and the static __shared__ arrays, which the emu rewrite carves from one arena).
// Not seen: a memcpy/memset call in kernel code (the compilers leave those calls to a sanitizer
// runtime's interceptors; clang also turns aggregate copies into memcpy calls).
//
// KVERIFY_EMU_RACE_DETECTOR=off turns recording off (every call returns at once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kverify::emu::race {

// On unless KVERIFY_EMU_RACE_DETECTOR is "off" or "0" (read once); set_enabled overrides it.
bool enabled();
void set_enabled(bool on);
// Whether the kernels of this program were compiled with the instrumentation (a kernel TU
// compiled without it records nothing, and the detector is blind to it).
bool instrumented();
// One line for a command's output: "on", or "off (why)".
std::string status_text();

// Device memory the detector watches while it is registered (the name appears in reports).
void add_global_region(const void* base, std::size_t bytes, std::string name);
void remove_global_region(const void* base);
class GlobalRegion {
 public:
  GlobalRegion(const void* base, std::size_t bytes, std::string name) : base_(base) {
    add_global_region(base, bytes, std::move(name));
  }
  ~GlobalRegion() { remove_global_region(base_); }
  GlobalRegion(const GlobalRegion&) = delete;
  GlobalRegion& operator=(const GlobalRegion&) = delete;

 private:
  const void* base_;
};

// Storage for one static __shared__ declaration, carved once from the static shared arena (zeroed;
// with ASan, a poisoned redzone after each), so that the detector knows the address is shared.
void* carve_static_shared(std::size_t bytes, std::size_t alignment, const char* name);

// Where a launch's race report goes: while a Collector lives on this OS thread, into it (the launch
// then completes, so that the pipeline's other guards are still checked); without one, the launch
// throws LaunchError kind race once all its blocks ran.
class Collector {
 public:
  Collector();
  ~Collector();
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;
  const std::vector<std::string>& reports() const { return reports_; }
  void add(std::string report) { reports_.push_back(std::move(report)); }

 private:
  std::vector<std::string> reports_;
  Collector* outer_;
};
// The innermost Collector of this OS thread, or null.
Collector* collector();

// --- the scheduler's side ------------------------------------------------------------------------
struct LaunchShape {
  unsigned grid[3], block[3];
};
void begin_launch(const LaunchShape& shape, const unsigned char* dynamic_shared, std::size_t dynamic_bytes);
void end_launch();
void begin_block(std::uint64_t block_linear, int threads);
// The report of the block's first race, if it had one.
std::optional<std::string> end_block();
void run_thread(int linear);  // the fiber the scheduler resumes (-1: none)
void barrier_released();
void warp_synchronised(int warp, unsigned lanes);

// --- the kernel's side ---------------------------------------------------------------------------
enum class Access : std::uint8_t { read, write };
void record(const void* address, std::size_t bytes, Access kind, const void* pc);
void fence();
// Marks the accesses inside it as one atomic read-modify-write of [address, address + bytes).
class AtomicScope {
 public:
  AtomicScope(const void* address, std::size_t bytes);
  ~AtomicScope();
  AtomicScope(const AtomicScope&) = delete;
  AtomicScope& operator=(const AtomicScope&) = delete;
};

}  // namespace kverify::emu::race
