// Host threads taking turns at their stream work (streams.hpp says why and what it cannot show).
#include <algorithm>

#include "runtime/emu/model/taking_turns.hpp"

namespace kverify::emu {
namespace {

constinit thread_local TakingTurns::Seat* t_seat = nullptr;
constinit thread_local int t_launcher_depth = 0;

// How long the thread holding the turn may sit inside its launcher without issuing stream work
// before the table decides it waits for a parked thread (launcher host code between two launches
// takes microseconds; emu runs a whole launch inside the stream work, which does not count).
constexpr std::int64_t kStuckNs = 1'000'000'000;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

TakingTurns::TakingTurns(int seats) : places_(static_cast<std::size_t>(std::max(seats, 1))) {}

std::vector<int> TakingTurns::order() const {
  std::lock_guard lock(mutex_);
  return order_;
}

void TakingTurns::pass_turn(int from) {
  const int n = static_cast<int>(places_.size());
  for (int k = 1; k <= n; ++k) {
    const int next = (from + k) % n;
    if (!places_[static_cast<std::size_t>(next)].left) {
      turn_ = next;
      break;
    }
  }
  turn_changed_.notify_all();
}

void TakingTurns::wait_for_turn(std::unique_lock<std::mutex>& lock, int index) {
  while (turn_ != index && !given_up_.load()) {
    turn_changed_.wait_for(lock, std::chrono::milliseconds(50));
    if (turn_ == index || given_up_.load()) break;
    const Place& holder = places_[static_cast<std::size_t>(turn_)];
    if (!holder.left && holder.in_launcher.load() && !holder.in_stream_work.load() &&
        now_ns() - holder.idle_since_ns.load() > kStuckNs) {
      given_up_.store(true);
      turn_changed_.notify_all();
    }
  }
}

void TakingTurns::note_idle(int index, bool in_stream_work) {
  Place& p = places_[static_cast<std::size_t>(index)];
  p.idle_since_ns.store(now_ns());
  p.in_stream_work.store(in_stream_work);
}

TakingTurns::Seat::Seat(TakingTurns& table, int index) : table_(table), index_(index), outer_(t_seat) {
  std::unique_lock lock(table_.mutex_);
  table_.wait_for_turn(lock, index_);
  table_.note_idle(index_, false);
  t_seat = this;
}

TakingTurns::Seat::~Seat() {
  t_seat = outer_;
  std::lock_guard lock(table_.mutex_);
  Place& p = table_.places_[static_cast<std::size_t>(index_)];
  p.left = true;
  p.in_launcher.store(false);
  if (table_.turn_ == index_) table_.pass_turn(index_);
}

void api::before_stream_work() {
  TakingTurns::Seat* seat = t_seat;
  if (!seat) return;
  TakingTurns& table = seat->table_;
  std::unique_lock lock(table.mutex_);
  if (seat->worked_this_turn_ && !table.given_up_.load()) {
    table.pass_turn(seat->index_);
    table.wait_for_turn(lock, seat->index_);
  }
  seat->worked_this_turn_ = true;
  table.order_.push_back(seat->index_);
  table.note_idle(seat->index_, true);
}

void api::after_stream_work() {
  if (TakingTurns::Seat* seat = t_seat) seat->table_.note_idle(seat->index_, false);
}

LauncherCall::LauncherCall() {
  if (t_launcher_depth++ == 0 && t_seat) {
    t_seat->table_.note_idle(t_seat->index_, false);
    t_seat->table_.places_[static_cast<std::size_t>(t_seat->index_)].in_launcher.store(true);
  }
}

LauncherCall::~LauncherCall() {
  if (--t_launcher_depth == 0 && t_seat)
    t_seat->table_.places_[static_cast<std::size_t>(t_seat->index_)].in_launcher.store(false);
}

}  // namespace kverify::emu
