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
//  - a thread reads shared memory (static or dynamic) that no thread of its block wrote before;
//  - out of bounds: a read of a registered region outside its ElementSlots (a canary, a row gap,
//    past the last element), and any access of shared memory outside what was declared (past a
//    static __shared__ array, into its redzone; past the dynamic bytes the launch asked for, up to
//    the hardware's 227 KiB). Reported before any race ("out-of-bounds read: ..."; races "race: ...").
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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kverify::emu::race {

// On unless KVERIFY_EMU_RACE_DETECTOR is "off" or "0" (read once); set_enabled overrides it.
bool enabled();
void set_enabled(bool on);
// The detector off for a scope, then as it was: for runs whose findings nobody reads.
class Disabled {
 public:
  Disabled() : was_on_(enabled()) { set_enabled(false); }
  ~Disabled() { set_enabled(was_on_); }
  Disabled(const Disabled&) = delete;
  Disabled& operator=(const Disabled&) = delete;

 private:
  bool was_on_;
};
// Whether the kernels of this program were compiled with the instrumentation (a kernel TU
// compiled without it records nothing, and the detector is blind to it).
bool instrumented();
// One line for a command's output: "on", or "off (why)".
std::string status_text();
// file:line of a code address of this program (its debug information, through addr2line).
std::string source_line(const void* pc);

// Which bytes of a registered region are a tensor's elements: slots of `slot_bytes` from
// `origin` (the element with the lowest address), slots [0, slots) of which those set in `bits`
// (all of them when `bits` is empty: a dense layout). A read of any other byte of the region (a
// canary, a gap between rows, past the last element) is an out-of-bounds read.
// A sparse layout (far strides) lists its element slots in `sorted` instead.
struct ElementSlots {
  std::uintptr_t origin = 0;
  std::size_t slot_bytes = 1;
  std::uint64_t slots = 0;
  std::vector<std::uint64_t> bits;
  std::vector<std::uint64_t> sorted;

  bool is_element(std::uintptr_t address) const {
    const std::uintptr_t offset = address - origin;  // wraps past `slots` below the origin
    if (offset / slot_bytes >= slots) return false;
    if (bits.empty() && sorted.empty()) return true;
    const std::uint64_t slot = offset / slot_bytes;
    if (!bits.empty()) return (bits[slot / 64] >> (slot % 64)) & 1u;
    return std::binary_search(sorted.begin(), sorted.end(), slot);
  }
  bool dense() const { return bits.empty() && sorted.empty(); }
  // Where a byte that is not an element lies, for a report ("past the last element", ...).
  std::string describe(std::uintptr_t address) const;
};

// Device memory the detector watches while it is registered (the name appears in reports); with
// `elements`, reads outside them are reported.
void add_global_region(const void* base, std::size_t bytes, std::string name,
                       std::shared_ptr<const ElementSlots> elements = nullptr);
void remove_global_region(const void* base);
class GlobalRegion {
 public:
  GlobalRegion(const void* base, std::size_t bytes, std::string name,
               std::shared_ptr<const ElementSlots> elements = nullptr)
      : base_(base) {
    add_global_region(base, bytes, std::move(name), std::move(elements));
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

// What the detector found in a block: its guard, "race", "out-of-bounds read" or "out-of-bounds
// write" (the Verdict's guard name), and what happened, with the threads and source lines.
struct Finding {
  std::string guard;
  std::string text;
  // Reported before a race: a bad address explains what follows it.
  bool out_of_bounds() const { return guard != "race"; }
  std::string line() const { return guard + ": " + text; }
};

// Where a launch's race report goes: while a Collector lives on this OS thread, into it (the launch
// then completes, so that the pipeline's other guards are still checked); without one, the launch
// throws LaunchError kind race once all its blocks ran.
class Collector {
 public:
  Collector();
  ~Collector();
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;
  const std::vector<Finding>& findings() const { return findings_; }
  void add(Finding finding) { findings_.push_back(std::move(finding)); }

 private:
  std::vector<Finding> findings_;
  Collector* outer_;
};
// The innermost Collector of this OS thread, or null.
Collector* collector();

// --- the scheduler's side ------------------------------------------------------------------------
struct LaunchShape {
  unsigned grid[3], block[3];
};
// The dynamic shared memory is `reserved_bytes` from `dynamic_shared`, of which the launch asked
// for `dynamic_bytes`: an access to the rest is out of bounds.
void begin_launch(const LaunchShape& shape, const unsigned char* dynamic_shared, std::size_t dynamic_bytes,
                  std::size_t reserved_bytes);
void end_launch();
void begin_block(std::uint64_t block_linear, int threads);
// The block's first finding, if it had one.
std::optional<Finding> end_block();
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
