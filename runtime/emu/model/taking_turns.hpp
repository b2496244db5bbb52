// Host threads that take turns at their stream work: a deterministic stand-in, on emu, for
// launchers called at the same time from several threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

namespace kverify::emu {
namespace api {
void before_stream_work();
void after_stream_work();
}  // namespace api

// Host threads that call launchers at the same time, as a program with a stream per thread does.
// emu runs each piece of stream work (a kernel launch, a copy, a memset) to its end when it is
// issued, so what two such callers can do to each other shows in the order of those pieces: the
// threads take turns, one piece of stream work a turn, round the table, and only the thread whose
// turn it is runs at all (its host code too), so the order is the same in every run: a launcher's
// second launch runs after the other thread's first. Two launches that overlap block by block on
// the GPU (a `__device__` counter both use at once) are not modelled.
//
// A thread that cannot get to its next piece of work while it holds the turn (it waits for a lock
// the parked thread holds: a launcher that serialises its callers) would wait forever; when the
// thread holding the turn has been inside its launcher, outside any stream work, for a second, the
// table gives turns up and every thread runs freely from then on (given_up() says so).
class TakingTurns {
 public:
  explicit TakingTurns(int seats);
  TakingTurns(const TakingTurns&) = delete;
  TakingTurns& operator=(const TakingTurns&) = delete;

  // A thread's place at the table while it lives: it waits for its first turn, and passes the
  // turn on for good when it leaves. One Seat per thread, each index once.
  class Seat {
   public:
    Seat(TakingTurns& table, int index);
    ~Seat();
    Seat(const Seat&) = delete;
    Seat& operator=(const Seat&) = delete;

   private:
    friend class TakingTurns;
    friend void api::before_stream_work();
    friend void api::after_stream_work();
    friend class LauncherCall;
    TakingTurns& table_;
    int index_;
    bool worked_this_turn_ = false;
    Seat* outer_;
  };

  bool given_up() const { return given_up_.load(); }
  // The pieces of stream work each seat issued, in the order they ran (seat indices).
  std::vector<int> order() const;

 private:
  friend void api::before_stream_work();
  friend void api::after_stream_work();
  friend class LauncherCall;
  struct Place {
    bool left = false;
    std::atomic<bool> in_launcher{false}, in_stream_work{false};
    std::atomic<std::int64_t> idle_since_ns{0};
  };
  void pass_turn(int from);  // under mutex_
  void wait_for_turn(std::unique_lock<std::mutex>& lock, int index);
  void note_idle(int index, bool in_stream_work);

  mutable std::mutex mutex_;
  std::condition_variable turn_changed_;
  std::vector<Place> places_;
  int turn_ = 0;
  std::atomic<bool> given_up_{false};
  std::vector<int> order_;
};

// A launcher's call on this thread (launch_on_emu): while it lasts, a turn held outside stream work
// counts toward giving turns up.
class LauncherCall {
 public:
  LauncherCall();
  ~LauncherCall();
  LauncherCall(const LauncherCall&) = delete;
  LauncherCall& operator=(const LauncherCall&) = delete;
};

}  // namespace kverify::emu
