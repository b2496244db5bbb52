#include "runtime/emu/model/scheduler.hpp"

#include "runtime/emu/detectors/block_watch.hpp"
#include "runtime/emu/detectors/race_detector.hpp"
#include "runtime/emu/model/builtins.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <boost/context/detail/fcontext.hpp>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <sstream>
#include <vector>

// GCC defines __SANITIZE_ADDRESS__ under -fsanitize=address; clang 14 does not (it answers
// __has_feature(address_sanitizer)): without this the clang build (fuzz/) switched fibers
// without telling ASan.
// KVERIFY_EMU_ASAN_RUNTIME: this file is compiled without ASan instrumentation in a program that
// has ASan (the fuzz tree: ASan is for the kernels' memory, and instrumenting the scheduler's own
// bookkeeping cost more than the kernels): the fiber annotations are still needed.
#if defined(__SANITIZE_ADDRESS__) || defined(KVERIFY_EMU_ASAN_RUNTIME)
#define KV_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KV_EMU_ASAN 1
#endif
#endif
#if defined(KV_EMU_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(KVERIFY_EMU_TSAN)
// This file is compiled without TSan instrumentation (its bookkeeping is not the kernel's memory);
// it only tells TSan which fiber runs and where kernel threads synchronise.
#include <sanitizer/tsan_interface.h>
#endif

// CUDA's built-in index variables. The scheduler rewrites threadIdx on every switch into a
// fiber, and the others once per block or launch: kernel code reads plain variables (no call per
// access, and host code may declare its own gridDim), one set per OS thread, since different OS
// threads may run different launches.
constinit thread_local uint3 threadIdx{0, 0, 0};
constinit thread_local uint3 blockIdx{0, 0, 0};
constinit thread_local dim3 blockDim{1, 1, 1};
constinit thread_local dim3 gridDim{1, 1, 1};

namespace kverify::emu {

namespace ctx = boost::context::detail;

std::string_view name(LaunchError::Kind kind) {
  switch (kind) {
    case LaunchError::Kind::bad_launch:
      return "bad launch configuration";
    case LaunchError::Kind::divergent_barrier:
      return "divergent __syncthreads";
    case LaunchError::Kind::bad_warp_collective:
      return "bad warp collective";
    case LaunchError::Kind::deadlock:
      return "deadlock";
    case LaunchError::Kind::trap:
      return "trap";
    case LaunchError::Kind::kernel_exception:
      return "exception in kernel";
    case LaunchError::Kind::race:
      return "race";
    case LaunchError::Kind::misaligned_address:
      return "misaligned address";
  }
  return "?";
}

namespace detail {

constinit thread_local unsigned char* dynamic_shared = nullptr;
constinit thread_local std::size_t dynamic_shared_bytes = 0;

std::string_view name(Collective c) {
  switch (c) {
    case Collective::shfl_idx:
      return "__shfl_sync";
    case Collective::shfl_up:
      return "__shfl_up_sync";
    case Collective::shfl_down:
      return "__shfl_down_sync";
    case Collective::shfl_xor:
      return "__shfl_xor_sync";
    case Collective::ballot:
      return "__ballot_sync";
    case Collective::any:
      return "__any_sync";
    case Collective::all:
      return "__all_sync";
    case Collective::syncwarp:
      return "__syncwarp";
  }
  return "?";
}

}  // namespace detail

namespace {

using detail::Collective;

constexpr std::size_t kStackBytes = 256 * 1024;
constexpr std::size_t kGuardBytes = 4096;
constexpr int kMaxThreadsPerBlock = 1024;
// A spin-wait that nothing ends: every live thread only calls __nanosleep, this many times in a
// row (about 0.1 s plain, a few s under TSan), with no thread reaching anything else.
constexpr std::uint64_t kMaxIdleYields = 1ull << 22;
// CUDA aligns the dynamic shared block to 128 bytes (and kernels rely on 16 for vector access).
constexpr std::size_t kDynamicSharedAlignment = 128;
constexpr std::size_t kMaxDynamicSharedBytes = 227 * 1024;  // an H100/H200 block's most

// Fiber stacks at fixed addresses, reserved once per OS thread and reused by every launch.
class StackPool {
 public:
  StackPool() {
    const std::size_t stride = kStackBytes + kGuardBytes;
    base_ = static_cast<unsigned char*>(mmap(nullptr, stride * kMaxThreadsPerBlock, PROT_READ | PROT_WRITE,
                                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (base_ == MAP_FAILED) throw std::runtime_error("emu: cannot reserve fiber stacks (mmap failed)");
    for (int i = 0; i < kMaxThreadsPerBlock; ++i) mprotect(base_ + i * stride, kGuardBytes, PROT_NONE);
#if KV_EMU_ASAN
    mark_all_used();  // first use: the whole stack
#endif
  }
  // One pool per host thread that launches, unmapped when the thread ends: its guard pages split
  // it into 2 * kMaxThreadsPerBlock mappings, so ~32 pools kept past their threads would reach
  // Linux's default limit of 65530 mappings (a launcher that launches from a new thread per call).
  ~StackPool() { munmap(base_, (kStackBytes + kGuardBytes) * kMaxThreadsPerBlock); }
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  // Lowest usable address of stack i (its guard page lies just below).
  unsigned char* bottom(int i) const { return base_ + i * (kStackBytes + kGuardBytes) + kGuardBytes; }

#if KV_EMU_ASAN
  // ASan: a frame that returns unpoisons itself, so an earlier fiber can leave poisoned redzones
  // only in the frames that were live when it last switched away. Each stack remembers the
  // deepest such switch, and only that part (plus a margin) is unpoisoned for the next fiber:
  // unpoisoning all 256 KiB per thread per block dominated ASan runs of 1024-thread blocks.
  void note_depth(int i, unsigned char* frame) { low_water_[i] = std::min(low_water_[i], frame); }
  void mark_all_used() {
    for (int i = 0; i < kMaxThreadsPerBlock; ++i) low_water_[i] = bottom(i);
  }
  // ASan's fake stack (detect_stack_use_after_return) of stack i, handed from a finished fiber to
  // the next one on that stack: a fiber that starts with none makes ASan map a fresh one and the
  // end of the fiber unmaps it, per thread per block; that churn made ASan runs 17x slower.
  void*& fake_stack(int i) { return fake_stacks_[static_cast<std::size_t>(i)]; }
  void unpoison_used(int i) {
    constexpr std::size_t kMargin = 32 * 1024;  // frames below the switch point (jump_fcontext, ASan's own)
    unsigned char* const top = bottom(i) + kStackBytes;
    unsigned char* from = low_water_[i] - std::min<std::size_t>(kMargin, low_water_[i] - bottom(i));
    // The function, not ASAN_UNPOISON_MEMORY_REGION: that macro is empty in an uninstrumented file.
    __asan_unpoison_memory_region(from, static_cast<std::size_t>(top - from));
    low_water_[i] = top;
  }

 private:
  std::vector<unsigned char*> low_water_ = std::vector<unsigned char*>(kMaxThreadsPerBlock);
  std::vector<void*> fake_stacks_ = std::vector<void*>(kMaxThreadsPerBlock, nullptr);
#else
 private:
#endif
  unsigned char* base_;
};

StackPool& stack_pool() {
  static thread_local StackPool pool;
  return pool;
}

std::string site_text(const std::source_location& s) {
  std::string file = s.file_name();
  if (auto slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(s.line());
}

// On every lane's arrival at a collective: inlined, and the string compare only when the
// pointers differ (one file's sites share one pointer).
inline __attribute__((always_inline)) bool same_site(const std::source_location& a, const std::source_location& b) {
  if (a.line() != b.line() || a.column() != b.column()) return false;
  const char* fa = a.file_name();
  const char* fb = b.file_name();
  return fa == fb || std::strcmp(fa, fb) == 0;
}

std::string dim_text(const Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

// Thrown inside a fiber to unwind it when its block is abandoned after an error.
struct BlockAbandoned {};

enum class FiberState : std::uint8_t { ready, at_barrier, at_warp, done };

struct Fiber {
  detail::ThreadState state;
  int linear = 0;
  FiberState fiber_state = FiberState::ready;
  bool started = false;
  ctx::fcontext_t context = nullptr;
  std::source_location waiting_at;
  void* asan_fake_stack = nullptr;
  void* tsan_fiber = nullptr;
};

// One collective in progress in a warp: the lanes of `mask` meet at it.
struct WarpGroup {
  Collective kind{};
  std::source_location site;
  unsigned mask = 0;
  int width = 32;
  unsigned arrived = 0;
  char tsan_sync = 0;  // address used as the __syncwarp synchronisation object
};

// Collectives whose masks are disjoint proceed independently, as on the GPU: the tiles of a warp
// (cooperative groups' thread_block_tile<8>, CUB's logical warps) each shuffle with their own
// mask, in whatever order the schedule runs their lanes. A lane waits in one group at a time.
// The lanes' slots first and the groups last: a warp-wide collective (one group) then touches one
// contiguous stretch, not 32 groups' worth of memory between the lanes' values.
struct WarpRendezvous {
  unsigned active = 0;             // bit g: groups[g] in progress
  std::uint8_t group_of[32] = {};  // the group a waiting lane is in
  std::uint64_t values[32] = {};
  std::uint64_t results[32] = {};
  int params[32] = {};
  WarpGroup groups[32];
};

struct BlockRun;
thread_local BlockRun* active_block = nullptr;

struct BlockRun {
  std::vector<Fiber> fibers;
  std::vector<WarpRendezvous> warps;
  std::vector<unsigned> warp_done;  // per warp: lanes that returned or do not exist
  // The fibers waiting to run, in the order they became ready: a ring of one slot per thread (a
  // fiber waits at most once), so that taking the head (thread order) is O(1) where vector::erase
  // at 0 was O(n) per pick, and nothing is reallocated or memmoved while fibers run (TSan sees
  // the interceptors of memmove even in this uninstrumented file).
  std::vector<int> ready;
  std::size_t ready_first = 0, ready_count = 0;
  int live = 0;
  int running = -1;
  // Who made the jump that lands next (-1: the scheduler), so that the lander stores the context
  // it came from where it belongs: a fiber hands over to the next ready fiber directly, and the
  // scheduler runs only when none is ready (or the block failed).
  int jumped_from = -1;
  std::uint64_t idle_yields = 0;  // __nanosleep yields since a thread last did anything else
  ctx::fcontext_t scheduler_context = nullptr;
  std::optional<LaunchError> error;
  std::uint64_t rng = 0;
  std::uint64_t* switches = nullptr;
  KernelThunk thunk = nullptr;
  void* thunk_context = nullptr;

  // Barrier of the current generation.
  int barrier_arrived = 0;
  int barrier_true = 0;  // arrivals with a non-zero predicate (__syncthreads_count/_and/_or)
  // The last released barrier's tallies: read by its threads before any of them can complete the
  // next barrier, which needs every one of them.
  int released_arrived = 0, released_true = 0;
  std::source_location barrier_site;
  char tsan_barrier = 0;  // address used as the barrier's synchronisation object
  char tsan_block_end = 0;

  // Sanitizer bookkeeping for the scheduler's own stack.
  void* scheduler_fake_stack = nullptr;
  const void* scheduler_stack_bottom = nullptr;
  std::size_t scheduler_stack_size = 0;
  void* scheduler_tsan_fiber = nullptr;

  Fiber& self() { return fibers[running]; }

  std::string who(const Fiber& f) const {
    return "block " + dim_text(f.state.block_idx) + " thread " + dim_text(f.state.thread_idx);
  }

  void fail(LaunchError::Kind kind, const std::string& message) {
    if (!error) error.emplace(kind, std::string(name(kind)) + ": " + message);
  }

  // --- switching ------------------------------------------------------------------------------

  // What fiber i needs before it runs, whoever switches to it.
  void enter(int i) {
    Fiber& f = fibers[i];
    running = i;
    f.started = true;
    threadIdx = uint3{f.state.thread_idx.x, f.state.thread_idx.y, f.state.thread_idx.z};
    race::run_thread(f.linear);
    ++*switches;
  }

  // The context the jump that just landed came from, kept by its owner.
  void landed(ctx::fcontext_t from) {
    if (jumped_from < 0)
      scheduler_context = from;
    else
      fibers[jumped_from].context = from;
  }

  // From the scheduler into fiber i; returns when a fiber switches back to the scheduler: none is
  // ready (the block ended, or deadlocked), or the block failed.
  void resume(int i) {
    enter(i);
    jumped_from = -1;
#if KV_EMU_ASAN
    __sanitizer_start_switch_fiber(&scheduler_fake_stack, stack_pool().bottom(fibers[i].linear), kStackBytes);
#endif
#if defined(KVERIFY_EMU_TSAN)
    __tsan_switch_to_fiber(fibers[i].tsan_fiber, __tsan_switch_to_fiber_no_sync);
#endif
    const ctx::transfer_t back = ctx::jump_fcontext(fibers[i].context, this);
#if KV_EMU_ASAN
    __sanitizer_finish_switch_fiber(scheduler_fake_stack, nullptr, nullptr);
#endif
    landed(back.fctx);
    running = -1;
  }

  // From the running fiber to the next ready one (the order the scheduler would pick, so a
  // schedule is the same either way), or to the scheduler when none is ready or the block failed:
  // one context switch per hand-over instead of two through the scheduler. `finished` ends the
  // fiber for good.
  void yield_to_scheduler(bool finished) {
    const int me = running;
    Fiber& f = fibers[me];
    const int next = !error && !none_ready() ? pick_next() : -1;
    if (next == me) return;  // a __nanosleep yield with no other thread ready: go on
#if KV_EMU_ASAN
    stack_pool().note_depth(f.linear, static_cast<unsigned char*>(__builtin_frame_address(0)));
    void** const fake_stack = finished ? &stack_pool().fake_stack(f.linear) : &f.asan_fake_stack;
    if (next >= 0)
      __sanitizer_start_switch_fiber(fake_stack, stack_pool().bottom(fibers[next].linear), kStackBytes);
    else
      __sanitizer_start_switch_fiber(fake_stack, scheduler_stack_bottom, scheduler_stack_size);
#endif
#if defined(KVERIFY_EMU_TSAN)
    __tsan_switch_to_fiber(next >= 0 ? fibers[next].tsan_fiber : scheduler_tsan_fiber, __tsan_switch_to_fiber_no_sync);
#endif
    ctx::fcontext_t to = scheduler_context;
    if (next >= 0) {
      enter(next);
      to = fibers[next].context;
    } else {
      ++*switches;
      running = -1;
    }
    jumped_from = me;
    const ctx::transfer_t t = ctx::jump_fcontext(to, this);
    // Resumed (never after `finished`), by the scheduler or by another fiber.
    const bool from_scheduler = jumped_from < 0;
#if KV_EMU_ASAN
    __sanitizer_finish_switch_fiber(f.asan_fake_stack, from_scheduler ? &scheduler_stack_bottom : nullptr,
                                    from_scheduler ? &scheduler_stack_size : nullptr);
#endif
    landed(t.fctx);
    if (error) throw BlockAbandoned{};
  }

  // Not instrumented: it never returns, so a fake frame of its own would stay taken on the stack's
  // reused fake stack, one more per fiber.
  __attribute__((no_sanitize_address)) static void fiber_entry(ctx::transfer_t t) {
    BlockRun& run = *static_cast<BlockRun*>(t.data);
#if KV_EMU_ASAN
    const bool from_scheduler = run.jumped_from < 0;
    __sanitizer_finish_switch_fiber(stack_pool().fake_stack(run.self().linear),
                                    from_scheduler ? &run.scheduler_stack_bottom : nullptr,
                                    from_scheduler ? &run.scheduler_stack_size : nullptr);
#endif
    run.landed(t.fctx);
    Fiber& f = run.self();
    try {
      if (!run.error) run.thunk(run.thunk_context);
    } catch (const BlockAbandoned&) {
    } catch (const LaunchError& e) {
      if (!run.error) run.error = e;
    } catch (const std::exception& e) {
      run.fail(LaunchError::Kind::kernel_exception, run.who(f) + ": " + e.what());
    } catch (...) {
      run.fail(LaunchError::Kind::kernel_exception, run.who(f) + ": unknown exception");
    }
    run.thread_exited(f);  // may complete a collective (and write its results or an error)
#if defined(KVERIFY_EMU_TSAN)
    __tsan_release(&run.tsan_block_end);
#endif
    run.yield_to_scheduler(true);
    __builtin_unreachable();
  }

  // --- bookkeeping ----------------------------------------------------------------------------

  void make_ready(int i) {
    fibers[i].fiber_state = FiberState::ready;
    if (ready_count == ready.size()) throw std::logic_error("emu: a fiber was made ready twice");
    ready[ring_slot(ready_count++)] = i;
  }

  // The ring position k places after the head (k < ready.size()): a compare, not a 64-bit
  // division (the costliest instructions of the scheduler loop for blocks of many short threads).
  std::size_t ring_slot(std::size_t k) const {
    const std::size_t at = ready_first + k;
    return at < ready.size() ? at : at - ready.size();
  }
  bool none_ready() const { return ready_count == 0; }
  void clear_ready(std::size_t threads) {
    ready.assign(threads, -1);
    ready_first = ready_count = 0;
  }

  int pick_next() {
    std::size_t at = 0;  // position among the waiting fibers
    if (rng != 0) {      // schedule seed: a random ready fiber (xorshift64*)
      rng ^= rng >> 12;
      rng ^= rng << 25;
      rng ^= rng >> 27;
      at = static_cast<std::size_t>((rng * 0x2545f4914f6cdd1dull) % ready_count);
    }
    const auto slot = [&](std::size_t k) -> int& { return ready[ring_slot(k)]; };
    const int i = slot(at);
    // Without a seed the queue stays FIFO (at is 0). With one, the last waiting fiber takes the
    // picked one's place: O(1) per switch (keeping the order cost O(threads) per switch, the
    // largest single cost of fuzzing 1024-thread blocks), and the pick is still uniform.
    if (at == 0) {
      ready_first = ring_slot(1);
    } else {
      slot(at) = slot(ready_count - 1);
    }
    --ready_count;
    return i;
  }

  void thread_exited(Fiber& f) {
    f.fiber_state = FiberState::done;
    idle_yields = 0;
    --live;
    // Returned threads leave later barriers and warp collectives.
    maybe_release_barrier();
    const int warp = f.linear / 32;
    warp_done[warp] |= 1u << (f.linear % 32);
    for (unsigned g = warps[warp].active; g != 0; g &= g - 1) maybe_complete_warp(warp, __builtin_ctz(g));
  }

  void maybe_release_barrier() {
    if (barrier_arrived == 0 || barrier_arrived < live) return;
    released_arrived = barrier_arrived;
    released_true = barrier_true;
    barrier_arrived = 0;
    barrier_true = 0;
    race::barrier_released();
    for (std::size_t i = 0; i < fibers.size(); ++i)
      if (fibers[i].fiber_state == FiberState::at_barrier) make_ready(static_cast<int>(i));
  }

  // Lanes of the warp that have returned or do not exist (kept by thread_exited: this is asked at
  // every lane's arrival at a collective).
  unsigned lanes_done(int warp) const { return warp_done[static_cast<std::size_t>(warp)]; }

  void reset_warps() {
    warp_done.assign(warps.size(), 0u);
    for (std::size_t i = fibers.size(); i < warps.size() * 32; ++i) warp_done[i / 32] |= 1u << (i % 32);
  }

  void maybe_complete_warp(int warp, int group) {
    WarpRendezvous& r = warps[warp];
    WarpGroup& w = r.groups[group];
    if ((w.mask & ~(w.arrived | lanes_done(warp))) != 0) return;
    const unsigned segment_mask = static_cast<unsigned>(32 - w.width);  // PTX shfl's segmask
    std::uint64_t vote = 0;
    for (int lane = 0; lane < 32; ++lane)
      if ((w.arrived >> lane) & 1u) vote |= static_cast<std::uint64_t>(r.values[lane] != 0) << lane;
    for (int lane = 0; lane < 32 && !error; ++lane) {
      if (!((w.arrived >> lane) & 1u)) continue;
      // Source lane per PTX shfl.sync: clamp to the lane's own width-sized segment.
      const int min_lane = lane & static_cast<int>(segment_mask);
      const int max_lane = min_lane | (31 & ~static_cast<int>(segment_mask));
      const int b = r.params[lane];
      int source = lane;
      switch (w.kind) {
        case Collective::shfl_idx:
          source = min_lane | (b & 31 & ~static_cast<int>(segment_mask));
          break;
        case Collective::shfl_up:
          source = (lane - b >= min_lane) ? lane - b : lane;
          break;
        case Collective::shfl_down:
          source = (lane + b <= max_lane) ? lane + b : lane;
          break;
        case Collective::shfl_xor:
          source = ((lane ^ (b & 31)) <= max_lane) ? (lane ^ (b & 31)) : lane;
          break;
        default:
          break;
      }
      switch (w.kind) {
        case Collective::shfl_idx:
        case Collective::shfl_up:
        case Collective::shfl_down:
        case Collective::shfl_xor:
          if (!((w.arrived >> source) & 1u)) {
            const std::size_t src = static_cast<std::size_t>(warp) * 32 + source;
            const char* why = src >= fibers.size()         ? "does not exist in this block"
                              : !((w.mask >> source) & 1u) ? "is not in the mask"
                                                           : "exited without taking part";
            fail(LaunchError::Kind::bad_warp_collective,
                 who(fibers[static_cast<std::size_t>(warp) * 32 + lane]) + ": " + std::string(detail::name(w.kind)) +
                     " at " + site_text(w.site) + " reads lane " + std::to_string(source) + ", which " + why +
                     " (mask 0x" + hex(w.mask) + ")");
          }
          r.results[lane] = r.values[source];
          break;
        case Collective::ballot:
          r.results[lane] = vote;
          break;
        case Collective::any:
          r.results[lane] = vote != 0;
          break;
        case Collective::all:
          r.results[lane] = vote == w.arrived;
          break;
        case Collective::syncwarp:
          r.results[lane] = 0;
          break;
      }
    }
    const unsigned arrived = w.arrived;
    race::warp_synchronised(warp, arrived);
    r.active &= ~(1u << group);
    w.arrived = 0;
    for (int lane = 0; lane < 32; ++lane)
      if ((arrived >> lane) & 1u) make_ready(warp * 32 + lane);
  }

  static std::string hex(unsigned v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", v);
    return buf;
  }

  // For the block watch, read from its thread while this block's thread is stuck in kernel code.
  // `r`: the thread running when the stuck OS thread was sampled.
  std::string hang_description(const Dim3& grid, const Dim3& block, int r) const {
    std::size_t waiting = 0, ended = 0;
    for (const Fiber& f : fibers) {
      waiting += f.fiber_state == FiberState::at_barrier || f.fiber_state == FiberState::at_warp;
      ended += f.fiber_state == FiberState::done;
    }
    std::string text = "block " + dim_text(fibers.empty() ? Dim3{} : fibers[0].state.block_idx) +
                       " of a launch of grid " + dim_text(grid) + " x block " + dim_text(block);
    if (r >= 0 && static_cast<std::size_t>(r) < fibers.size())
      text += " (thread " + dim_text(fibers[static_cast<std::size_t>(r)].state.thread_idx) + " running, " +
              std::to_string(waiting) + " waiting at a barrier or warp collective, " + std::to_string(ended) +
              " ended)";
    return text;
  }

  std::string deadlock_report() const {
    std::ostringstream out;
    out << "every live thread waits and none can proceed:";
    // Group waiting threads by where they wait.
    std::vector<bool> reported(fibers.size(), false);
    for (std::size_t i = 0; i < fibers.size(); ++i) {
      const Fiber& f = fibers[i];
      if (reported[i] || (f.fiber_state != FiberState::at_barrier && f.fiber_state != FiberState::at_warp)) continue;
      int count = 0;
      for (std::size_t j = i; j < fibers.size(); ++j) {
        const Fiber& g = fibers[j];
        if (g.fiber_state == f.fiber_state && same_site(g.waiting_at, f.waiting_at) &&
            (f.fiber_state == FiberState::at_barrier || j / 32 == i / 32)) {
          reported[j] = true;
          ++count;
        }
      }
      out << " " << count << " thread(s) from thread " << dim_text(f.state.thread_idx);
      if (f.fiber_state == FiberState::at_barrier) {
        out << " wait at __syncthreads " << site_text(f.waiting_at) << ";";
      } else {
        const WarpRendezvous& r = warps[i / 32];
        const WarpGroup& w = r.groups[r.group_of[i % 32]];
        const unsigned missing = w.mask & ~(w.arrived | lanes_done(static_cast<int>(i / 32)));
        out << " of warp " << i / 32 << " wait at " << detail::name(w.kind) << " " << site_text(w.site) << " (mask 0x"
            << hex(w.mask) << ") for lanes 0x" << hex(missing) << " that are elsewhere;";
      }
    }
    return out.str();
  }
};

}  // namespace

namespace detail {

namespace {
// Both barriers in one body, inlined into each (the plain one is on every kernel's hot path).
inline __attribute__((always_inline)) std::uint64_t barrier(int predicate, const std::source_location& site) {
  BlockRun* run = active_block;
  if (!run || run->running < 0) throw std::logic_error("__syncthreads called outside an emu launch");
  Fiber& f = run->self();
  if (run->barrier_arrived > 0 && !same_site(run->barrier_site, site)) {
    run->fail(LaunchError::Kind::divergent_barrier, run->who(f) + " reached __syncthreads at " + site_text(site) +
                                                        " while " + std::to_string(run->barrier_arrived) +
                                                        " thread(s) wait at __syncthreads " +
                                                        site_text(run->barrier_site));
    throw BlockAbandoned{};
  }
  if (run->barrier_arrived == 0) run->barrier_site = site;
  ++run->barrier_arrived;
  run->barrier_true += predicate != 0;
  run->idle_yields = 0;
  f.fiber_state = FiberState::at_barrier;
  f.waiting_at = site;
#if defined(KVERIFY_EMU_TSAN)
  __tsan_release(&run->tsan_barrier);
#endif
  run->maybe_release_barrier();
  run->yield_to_scheduler(false);
#if defined(KVERIFY_EMU_TSAN)
  __tsan_acquire(&run->tsan_barrier);
#endif
  return (static_cast<std::uint64_t>(run->released_true) << 32) | static_cast<std::uint32_t>(run->released_arrived);
}
}  // namespace

void syncthreads(const std::source_location& site) { barrier(0, site); }
std::uint64_t syncthreads_count(int predicate, const std::source_location& site) { return barrier(predicate, site); }

std::uint64_t warp_collective(Collective kind, unsigned mask, std::uint64_t value, int param, int width,
                              const std::source_location& site) {
  BlockRun* run = active_block;
  if (!run || run->running < 0) throw std::logic_error(std::string(name(kind)) + " called outside an emu launch");
  Fiber& f = run->self();
  const int warp = f.linear / 32;
  const int lane = f.linear % 32;
  WarpRendezvous& r = run->warps[warp];
  const auto bad = [&](const std::string& what) {
    run->fail(LaunchError::Kind::bad_warp_collective,
              run->who(f) + ": " + std::string(name(kind)) + " at " + site_text(site) + " " + what);
    throw BlockAbandoned{};
  };
  if (width < 1 || width > 32 || (width & (width - 1)) != 0)
    bad("has width " + std::to_string(width) + " (accepted: a power of two from 1 to 32)");
  if (!((mask >> lane) & 1u))
    bad("is called by lane " + std::to_string(lane) + ", which its mask 0x" + BlockRun::hex(mask) + " does not name");
  // The collective this lane joins: the one in progress with its mask, or a new one if no
  // collective in progress shares a lane with the mask.
  int group = -1;
  for (unsigned g = r.active; g != 0; g &= g - 1) {
    const int i = __builtin_ctz(g);
    const WarpGroup& other = r.groups[i];
    if ((other.mask & mask) == 0) continue;
    if (other.kind != kind || !same_site(other.site, site) || other.mask != mask || other.width != width)
      bad("with mask 0x" + BlockRun::hex(mask) + " meets lanes waiting at " + std::string(name(other.kind)) + " " +
          site_text(other.site) + " with mask 0x" + BlockRun::hex(other.mask) +
          ": lanes of one collective must call the "
          "same intrinsic with the same mask");
    group = i;
  }
  if (group < 0) {
    group = __builtin_ctz(~r.active);  // a free slot: at most 32 disjoint masks are in progress
    r.active |= 1u << group;
    WarpGroup& w = r.groups[group];
    w.kind = kind;
    w.site = site;
    w.mask = mask;
    w.width = width;
    w.arrived = 0;
  }
  WarpGroup& w = r.groups[group];
  w.arrived |= 1u << lane;
  run->idle_yields = 0;
  r.group_of[lane] = static_cast<std::uint8_t>(group);
  r.values[lane] = value;
  r.params[lane] = param;
  f.fiber_state = FiberState::at_warp;
  f.waiting_at = site;
#if defined(KVERIFY_EMU_TSAN)
  if (kind == Collective::syncwarp) __tsan_release(&w.tsan_sync);
#endif
  run->maybe_complete_warp(warp, group);
  if (run->error) throw BlockAbandoned{};
  run->yield_to_scheduler(false);
#if defined(KVERIFY_EMU_TSAN)
  if (kind == Collective::syncwarp) __tsan_acquire(&r.groups[group].tsan_sync);
#endif
  return r.results[lane];
}

void yield(const std::source_location& site) {
  BlockRun* run = active_block;
  if (!run || run->running < 0) return;  // host code: nothing to yield to
  Fiber& f = run->self();
  if (++run->idle_yields > kMaxIdleYields) {
    run->fail(LaunchError::Kind::deadlock, "block " + dim_text(f.state.block_idx) +
                                               ": every live thread only spins: " + std::to_string(kMaxIdleYields) +
                                               " __nanosleep yields in a row with no thread reaching a barrier, a "
                                               "warp collective or its end (last: thread " +
                                               dim_text(f.state.thread_idx) + " at " + site_text(site) + "); " +
                                               run->deadlock_report());
    throw BlockAbandoned{};
  }
  f.waiting_at = site;
  run->make_ready(run->running);
  run->yield_to_scheduler(false);
}

unsigned live_lanes() {
  BlockRun* run = active_block;
  if (!run || run->running < 0) return 0;
  return ~run->lanes_done(run->self().linear / 32);
}

bool in_kernel() { return active_block != nullptr && active_block->running >= 0; }

void trap(const std::source_location& site) {
  BlockRun* run = active_block;
  if (!run || run->running < 0) throw std::logic_error("__trap called outside an emu launch");
  run->fail(LaunchError::Kind::trap, run->who(run->self()) + " executed __trap() at " + site_text(site));
  throw BlockAbandoned{};
}

void end_thread_with(LaunchError::Kind kind, const std::string& what) {
  BlockRun* run = active_block;
  if (!run || run->running < 0) throw std::logic_error("end_thread_with called outside an emu launch");
  Fiber& f = run->self();
  run->fail(kind, run->who(f) + ": " + what);
  // The thread counts as ended (its frames stay as they are: the scheduler never resumes it), and
  // the scheduler, seeing the error, abandons the block and fails the launch.
  run->thread_exited(f);
  run->yield_to_scheduler(true);
  __builtin_unreachable();
}

}  // namespace detail

LaunchProgress& launch_progress() {
  static LaunchProgress progress;
  return progress;
}

BlockOrder::BlockOrder(std::uint64_t schedule_seed, std::uint64_t blocks)
    : blocks_(blocks), identity_(schedule_seed == 0 || blocks < 2), reversed_(schedule_seed % 2 == 1) {
  if (identity_) return;
  std::uint64_t h = schedule_seed * 0xd1b54a32d192ed03ull;
  h ^= h >> 29;
  a_ = (h % blocks) | 1;
  while (std::gcd(a_, blocks) != 1) a_ += 2;  // odd and coprime to blocks (so never a multiple of it)
  a_ %= blocks;
  b_ = (h >> 17) % blocks;
}

std::uint64_t BlockOrder::operator()(std::uint64_t i) const {
  if (identity_) return i;
  const std::uint64_t j = reversed_ ? blocks_ - 1 - i : i;
  // (a j + b) mod blocks without overflow: blocks < 2^63 and a, j < blocks.
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a_) * j + b_) % blocks_);
}

LaunchStats launch_erased(Dim3 grid, Dim3 block, std::size_t dynamic_shared_bytes, const LaunchOptions& options,
                          KernelThunk thunk, void* context) {
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (block.x == 0 || block.y == 0 || block.z == 0 || threads > kMaxThreadsPerBlock || block.z > 64)
    throw LaunchError(LaunchError::Kind::bad_launch,
                      "block " + dim_text(block) + " (accepted: x*y*z from 1 to 1024 threads, z <= 64)");
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
    throw LaunchError(LaunchError::Kind::bad_launch,
                      "grid " + dim_text(grid) + " (accepted: x in 1..2^31-1, y and z in 1..65535)");
  if (dynamic_shared_bytes > kMaxDynamicSharedBytes)
    throw LaunchError(LaunchError::Kind::bad_launch, "dynamic shared memory of " +
                                                         std::to_string(dynamic_shared_bytes) +
                                                         " bytes (accepted: at most 227 KiB, the H100/H200 limit)");
  if (active_block) throw LaunchError(LaunchError::Kind::bad_launch, "launch from inside a running kernel");

  LaunchStats stats;
  LaunchProgress& progress = launch_progress();
  progress.blocks_done.store(0, std::memory_order_relaxed);
  progress.blocks_total.store(std::uint64_t{grid.x} * grid.y * grid.z, std::memory_order_relaxed);
  // A real allocation even for 0 bytes: kernels may form the pointer, and ASan reports any access.
  struct AlignedDelete {
    void operator()(unsigned char* p) const { ::operator delete[](p, std::align_val_t(kDynamicSharedAlignment)); }
  };
  // The hardware's most, whatever the launch asked for: an access past the asked bytes lands in
  // memory the race detector watches (and reports as out of bounds), or that ASan has poisoned.
  const std::unique_ptr<unsigned char[], AlignedDelete> shared(
      static_cast<unsigned char*>(::operator new[](kMaxDynamicSharedBytes, std::align_val_t(kDynamicSharedAlignment))));
#if KV_EMU_ASAN
  __asan_poison_memory_region(shared.get() + dynamic_shared_bytes, kMaxDynamicSharedBytes - dynamic_shared_bytes);
#endif
  detail::dynamic_shared = shared.get();
  detail::dynamic_shared_bytes = dynamic_shared_bytes;
  blockDim = dim3(block.x, block.y, block.z);
  gridDim = dim3(grid.x, grid.y, grid.z);
  StackPool& pool = stack_pool();

  BlockRun run;
  run.switches = &stats.switches;
  run.thunk = thunk;
  run.thunk_context = context;
  run.fibers.resize(threads);
  run.warps.resize((threads + 31) / 32);
#if defined(KVERIFY_EMU_TSAN)
  run.scheduler_tsan_fiber = __tsan_get_current_fiber();
#endif
  active_block = &run;
  struct Reset {
    ~Reset() {
      race::end_launch();
      active_block = nullptr;
      detail::dynamic_shared = nullptr;
      detail::dynamic_shared_bytes = 0;
    }
  } reset;
  race::begin_launch({{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}}, shared.get(), dynamic_shared_bytes,
                     kMaxDynamicSharedBytes);

  const std::uint64_t blocks = std::uint64_t{grid.x} * grid.y * grid.z;
  watch::LaunchWatch watch([&run, grid, block](int running) { return run.hang_description(grid, block, running); },
                           &run.running);
  std::optional<race::Finding> race_report;  // the first block's with a finding
  const BlockOrder order(options.schedule_seed, blocks);
  for (std::uint64_t i = 0; i < blocks; ++i) {
    const std::uint64_t block_linear = order(i);
    const auto bx = static_cast<unsigned>(block_linear % grid.x);
    const auto by = static_cast<unsigned>(block_linear / grid.x % grid.y);
    const auto bz = static_cast<unsigned>(block_linear / (std::uint64_t{grid.x} * grid.y));
    const Dim3 block_idx{bx, by, bz};
    blockIdx = uint3{bx, by, bz};
    watch.block_started();
    // Uninitialised shared memory reads as 0xff bytes (NaN for floats), every block anew.
    if (dynamic_shared_bytes > 0) std::memset(shared.get(), 0xff, dynamic_shared_bytes);
    run.clear_ready(threads);
    run.barrier_arrived = 0;
    run.barrier_true = 0;
    run.idle_yields = 0;
    for (auto& w : run.warps) w.active = 0;  // the rest is written before it is read
    run.reset_warps();
    run.live = static_cast<int>(threads);
    race::begin_block(block_linear, static_cast<int>(threads));
    run.rng = options.schedule_seed == 0
                  ? 0
                  : (options.schedule_seed * 0x9e3779b97f4a7c15ull) ^ (block_linear * 0xbf58476d1ce4e5b9ull) ^ 1u;
    for (int i = 0; i < static_cast<int>(threads); ++i) {
      Fiber& f = run.fibers[i];
      f = Fiber{};
      f.linear = i;
      f.state.thread_idx = {static_cast<unsigned>(i) % block.x, (static_cast<unsigned>(i) / block.x) % block.y,
                            static_cast<unsigned>(i) / (block.x * block.y)};
      f.state.block_idx = block_idx;
      f.state.block_dim = block;
      f.state.grid_dim = grid;
      unsigned char* bottom = pool.bottom(i);
#if KV_EMU_ASAN
      pool.unpoison_used(i);  // frames of an earlier fiber on this stack
#endif
      f.context = ctx::make_fcontext(bottom + kStackBytes, kStackBytes, &BlockRun::fiber_entry);
#if defined(KVERIFY_EMU_TSAN)
      f.tsan_fiber = __tsan_create_fiber(0);
#endif
      run.make_ready(i);
    }

    while (!run.error) {
      if (run.none_ready()) {
        if (run.live > 0)
          run.fail(LaunchError::Kind::deadlock, "block " + dim_text(block_idx) + ": " + run.deadlock_report());
        break;
      }
      run.resume(run.pick_next());
    }
    if (run.error) {
      // Unwind every fiber that is suspended mid-kernel, so its frames are released.
      for (int i = 0; i < static_cast<int>(threads); ++i)
        if (run.fibers[i].started && run.fibers[i].fiber_state != FiberState::done) run.resume(i);
#if KV_EMU_ASAN
      pool.mark_all_used();  // frames unwound by exceptions: unpoison whole stacks next time
#endif
    }
    // The first block's finding, unless a later block's is out of bounds and it is a race.
    if (auto finding = race::end_block();
        finding && (!race_report || (finding->out_of_bounds() && !race_report->out_of_bounds()))) {
      race_report = std::move(finding);
      if (blocks > 1)
        race_report->text += " (block " + std::to_string(i + 1) + " of the " + std::to_string(blocks) + " run)";
    }
#if defined(KVERIFY_EMU_TSAN)
    __tsan_acquire(&run.tsan_block_end);
    for (auto& f : run.fibers) __tsan_destroy_fiber(f.tsan_fiber);
#endif
    stats.threads += threads;
    ++stats.blocks;
    progress.blocks_done.fetch_add(1, std::memory_order_relaxed);
    if (run.error) throw *run.error;
  }
  if (race_report) {
    if (race::Collector* c = race::collector())
      c->add(*race_report);
    else
      throw LaunchError(LaunchError::Kind::race, race_report->line());
  }
  return stats;
}

}  // namespace kverify::emu
