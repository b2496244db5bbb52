// emu's watch on blocks that never end. A thread that spins without yielding (a flag nothing sets,
// a loop whose exit condition a bug removed) never returns to emu's scheduler, so its launch, and
// the process, would hang. A watchdog thread looks at the running launches every half second (a
// quarter of the limit when that is shorter); a
// block that has run past the limit ends the process with a report naming the block, the thread
// that is running and its source line (sampled from the stuck OS thread), and where the block's
// other threads wait.
//
// The limit is per block, not per Case: a block, not a launch, is what a hang stops, and a
// block's emu time does not grow with the Case (the 65537-row boundary Cases run 65537 short
// blocks). KVERIFY_EMU_BLOCK_SECONDS sets it (default 60: about 2.5 billion thread switches,
// far beyond any block of this project's catalogue, which takes under 2 s).
#pragma once

#include <functional>
#include <string>

namespace kverify::emu::watch {

double block_limit_seconds();

// Where the report of a block that never ends goes (which block, how long, where its running
// thread is): the default writes it to stderr after "time limit: " and ends the
// process with exit status 1 (a failed check); `kverify check`'s child processes send it to their
// parent, which fails the Case that was running and goes on in a fresh child.
using HangReporter = void (*)(const std::string& report);
void set_hang_reporter(HangReporter reporter);

// The scheduler's side: one per launch, on the OS thread that runs it. `running` is the scheduler's
// index of the thread it runs (-1 between threads), read by the stuck OS thread itself when its
// stack is sampled, so the report names the thread the sampled line belongs to; `describe` tells,
// given that index, which block runs and where its threads are (called from the watchdog thread
// while the launch's thread is stuck in kernel code).
class LaunchWatch {
 public:
  LaunchWatch(std::function<std::string(int running)> describe, const int* running);
  ~LaunchWatch();
  LaunchWatch(const LaunchWatch&) = delete;
  LaunchWatch& operator=(const LaunchWatch&) = delete;
  void block_started();

 private:
  int slot_;
};

}  // namespace kverify::emu::watch
