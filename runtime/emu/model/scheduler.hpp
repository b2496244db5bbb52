// The emu scheduler: runs a kernel launch on the CPU with the CUDA execution model.
//
// Each CUDA thread is a fiber (Boost.Context fcontext) on a pooled stack at a fixed address; the
// blocks of a grid run one after another on the calling OS thread, in an order the schedule seed
// chooses (block_order: 0 = x fastest, then y, then z; any other seed a permutation of the grid, as
// the GPU promises none). Within a block the fibers run until they reach a barrier or a warp
// collective; the order in which ready fibers run is the schedule seed too (0 = thread order). A
// fiber that waits hands over to the next ready fiber directly; the scheduler's own loop runs only
// when none is ready (the block's end, a deadlock) or the block failed.
// The scheduler detects a barrier reached from different call sites, warp collectives whose lanes
// disagree or read a lane that did not take part, and deadlock (every live fiber waiting), and
// reports each as an emu::LaunchError naming block, thread and site; the race detector
// (race_detector.hpp) learns from it which thread runs and where barriers and collectives order them.
// Fiber switches carry AddressSanitizer and ThreadSanitizer fiber annotations.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <stdexcept>
#include <string>

namespace kverify::emu {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct LaunchOptions {
  std::uint64_t schedule_seed = 0;
};

struct LaunchStats {
  std::uint64_t blocks = 0;
  std::uint64_t threads = 0;
  std::uint64_t switches = 0;  // context switches into thread fibers and back to the scheduler
};

class LaunchError : public std::runtime_error {
 public:
  enum class Kind {
    bad_launch,
    divergent_barrier,
    bad_warp_collective,
    deadlock,
    trap,
    kernel_exception,
    race,
    misaligned_address
  };
  LaunchError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};
std::string_view name(LaunchError::Kind kind);

using KernelThunk = void (*)(void* context);

// The i-th block to run, of `blocks`, under this schedule seed: a bijection of [0, blocks), the
// identity for seed 0, else i -> (a i + b) mod blocks with a coprime to blocks, then reversed for
// odd seeds (so neighbouring blocks run far apart and either one may run first).
class BlockOrder {
 public:
  BlockOrder(std::uint64_t schedule_seed, std::uint64_t blocks);
  std::uint64_t operator()(std::uint64_t i) const;  // i in [0, blocks)

 private:
  std::uint64_t blocks_, a_ = 1, b_ = 0;
  bool identity_, reversed_;
};
inline std::uint64_t block_order(std::uint64_t schedule_seed, std::uint64_t blocks, std::uint64_t i) {
  return BlockOrder(schedule_seed, blocks)(i);
}

// The blocks of the launch running now (the latest one started, when several threads launch), for a
// caller's progress line: a relaxed read from any thread, one relaxed add per block here.
struct LaunchProgress {
  std::atomic<std::uint64_t> blocks_done{0}, blocks_total{0};
};
LaunchProgress& launch_progress();

// Runs thunk(context) once per CUDA thread of the grid. Throws LaunchError.
LaunchStats launch_erased(Dim3 grid, Dim3 block, std::size_t dynamic_shared_bytes, const LaunchOptions& options,
                          KernelThunk thunk, void* context);

// What the CUDA model header reads and calls; only valid inside a launch.
namespace detail {

struct ThreadState {
  Dim3 thread_idx;
  Dim3 block_idx;
  Dim3 block_dim;
  Dim3 grid_dim;
};
// The launch's dynamic shared memory (128-byte aligned, poisoned with 0xff before every block)
// and its size. constinit: no TLS wrapper call on each access (and GCC 12 miscompiles UBSan null
// checks around it).
extern thread_local constinit unsigned char* dynamic_shared;
extern thread_local constinit std::size_t dynamic_shared_bytes;

enum class Collective : std::uint8_t { shfl_idx, shfl_up, shfl_down, shfl_xor, ballot, any, all, syncwarp };
std::string_view name(Collective c);

void syncthreads(const std::source_location& site);
// The barrier with a predicate: (threads with a non-zero predicate << 32) | threads that took part
// (the live ones: returned threads leave barriers).
std::uint64_t syncthreads_count(int predicate, const std::source_location& site);
// Returns the calling lane's result (raw bits of the shuffled value, or the vote result).
std::uint64_t warp_collective(Collective kind, unsigned mask, std::uint64_t value, int param, int width,
                              const std::source_location& site);
[[noreturn]] void trap(const std::source_location& site);
// Fails the launch with `kind` and ends the running thread where it is, without unwinding its
// frames: for a check compiled into kernel code, whose call cannot throw. `what` follows the
// thread's name in the message.
[[noreturn]] void end_thread_with(LaunchError::Kind kind, const std::string& what);
// __nanosleep: the calling thread goes to the back of the ready threads and another runs, so a
// spin-wait makes progress. A block whose every live thread only yields, 2^22 times in a row
// with no thread reaching a barrier, a collective or its end, is reported as a deadlock (a
// spin-wait nothing will end).
void yield(const std::source_location& site);
// The lanes of the calling thread's warp that have not returned (__activemask).
unsigned live_lanes();
// Whether the calling OS thread is inside a kernel (a launch from there is dynamic parallelism).
bool in_kernel();

}  // namespace detail
}  // namespace kverify::emu
