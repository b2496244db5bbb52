// cub::BlockLoad on emu, and the direct load functions it is made of.
//
// Every algorithm leaves thread t with the items of CUB's documented arrangement: blocked
// (items t*ITEMS_PER_THREAD .. +ITEMS_PER_THREAD-1) for BLOCK_LOAD_DIRECT, BLOCK_LOAD_VECTORIZE,
// BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE and BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
// striped (items t, t + BLOCK_THREADS, ...) for BLOCK_LOAD_STRIPED. The transposing algorithms
// read memory the way CUB does (striped, or warp-striped) and exchange through TempStorage in
// shared memory, with the barrier CUB uses (__syncthreads for TRANSPOSE and TIMESLICED,
// __syncwarp for WARP_TRANSPOSE; TIMESLICED's exchange is one slice on emu, CUB's several), so a
// kernel that reuses TempStorage without a __syncthreads races on emu as on the GPU. VECTORIZE
// loads as DIRECT does (CUB's vector loads give the same items; CUB itself falls back to DIRECT
// for an unaligned pointer).
//
// Guarded loads (valid_items): items at or past valid_items are not read. With oob_default they
// are set to it; without, they keep what the thread's array held, except under the transposing
// algorithms, where, as on the GPU, they receive other threads' untouched array values after the
// exchange: only the defaulted form defines them.
//
// WARP_TRANSPOSE needs a block of a multiple of 32 threads (as CUB's static_assert says).
#pragma once

#include "cub/util_type.cuh"

namespace cub {

enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

template <class T, int ITEMS_PER_THREAD, class It>
void LoadDirectBlocked(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD]) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = block_itr[linear_tid * ITEMS_PER_THREAD + i];
}
template <class T, int ITEMS_PER_THREAD, class It>
void LoadDirectBlocked(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    if (linear_tid * ITEMS_PER_THREAD + i < valid_items) items[i] = block_itr[linear_tid * ITEMS_PER_THREAD + i];
}
template <class T, class Default, int ITEMS_PER_THREAD, class It>
void LoadDirectBlocked(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items,
                       Default oob_default) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = oob_default;
  LoadDirectBlocked(linear_tid, block_itr, items, valid_items);
}
template <class T, int ITEMS_PER_THREAD>
void LoadDirectBlockedVectorized(int linear_tid, T* block_ptr, T (&items)[ITEMS_PER_THREAD]) {
  LoadDirectBlocked(linear_tid, block_ptr, items);
}

template <int BLOCK_THREADS, class T, int ITEMS_PER_THREAD, class It>
void LoadDirectStriped(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD]) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = block_itr[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, class T, int ITEMS_PER_THREAD, class It>
void LoadDirectStriped(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    if (i * BLOCK_THREADS + linear_tid < valid_items) items[i] = block_itr[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, class T, class Default, int ITEMS_PER_THREAD, class It>
void LoadDirectStriped(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items,
                       Default oob_default) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = oob_default;
  LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_itr, items, valid_items);
}

// Warp-striped: lane l of warp w reads items w*32*ITEMS + i*32 + l.
template <class T, int ITEMS_PER_THREAD, class It>
void LoadDirectWarpStriped(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items = 1 << 30) {
  const int lane = linear_tid % 32, offset = (linear_tid / 32) * 32 * ITEMS_PER_THREAD + lane;
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    if (offset + i * 32 < valid_items) items[i] = block_itr[offset + i * 32];
}

namespace emu_detail {

// How a transposing algorithm arranges memory and synchronises its exchange: striped with
// __syncthreads (TRANSPOSE), warp-striped with __syncwarp (WARP_TRANSPOSE), warp-striped with
// __syncthreads (WARP_TRANSPOSE_TIMESLICED, which CUB runs in slices of the block).
enum class Exchange { none, striped, warp_striped, warp_striped_timesliced };

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, class T>
void exchange(Exchange how, T (&items)[ITEMS_PER_THREAD], T* smem, bool to_blocked, const site_t& site) {
  const int tid = static_cast<int>(kc::block_rank());
  const auto arranged = [&](int i) {  // where item i of this thread goes in the striped layout
    if (how != Exchange::striped) return (tid / 32) * 32 * ITEMS_PER_THREAD + i * 32 + tid % 32;
    return i * BLOCK_THREADS + tid;
  };
  const auto blocked = [&](int i) { return tid * ITEMS_PER_THREAD + i; };
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) smem[to_blocked ? arranged(i) : blocked(i)] = items[i];
  if (how == Exchange::warp_striped) {
    kc::syncwarp(0xffffffffu, site);
  } else {
    kc::syncthreads(site);
  }
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = smem[to_blocked ? blocked(i) : arranged(i)];
}

template <int Algorithm>
constexpr Exchange load_exchange() {
  return Algorithm == BLOCK_LOAD_TRANSPOSE                   ? Exchange::striped
         : Algorithm == BLOCK_LOAD_WARP_TRANSPOSE            ? Exchange::warp_striped
         : Algorithm == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED ? Exchange::warp_striped_timesliced
                                                             : Exchange::none;
}

}  // namespace emu_detail

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockLoad {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr emu_detail::Exchange kExchange = emu_detail::load_exchange<ALGORITHM>();
  static_assert(kExchange == emu_detail::Exchange::none || ALGORITHM == BLOCK_LOAD_TRANSPOSE || kThreads % 32 == 0,
                "BLOCK_THREADS must be a multiple of the warp size for the warp-transposing algorithms");

 public:
  struct TempStorage
      : emu_detail::Storage<T, kExchange == emu_detail::Exchange::none ? 0 : kThreads * ITEMS_PER_THREAD> {};

  BlockLoad(std::source_location site = std::source_location::current()) : BlockLoad(private_storage(), site) {}
  BlockLoad(TempStorage& temp_storage, std::source_location site = std::source_location::current())
      : storage_(temp_storage) {
    emu_detail::check_block<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>("cub::BlockLoad", site);
  }

  template <class It>
  void Load(It block_itr, T (&items)[ITEMS_PER_THREAD], std::source_location site = std::source_location::current()) {
    load(block_itr, items, 1 << 30, site);
  }
  template <class It>
  void Load(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items,
            std::source_location site = std::source_location::current()) {
    load(block_itr, items, valid_items, site);
  }
  template <class It, class Default>
  void Load(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, Default oob_default,
            std::source_location site = std::source_location::current()) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = oob_default;
    load(block_itr, items, valid_items, site);
  }

 private:
  static TempStorage& private_storage() {
    __shared__ TempStorage storage;
    return storage;
  }

  template <class It>
  void load(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, const std::source_location& site) {
    using emu_detail::Exchange;
    const int tid = static_cast<int>(emu_detail::kc::block_rank());
    if constexpr (ALGORITHM == BLOCK_LOAD_DIRECT || ALGORITHM == BLOCK_LOAD_VECTORIZE) {
      LoadDirectBlocked(tid, block_itr, items, valid_items);
    } else if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) {
      LoadDirectStriped<kThreads>(tid, block_itr, items, valid_items);
    } else {
      if constexpr (kExchange == Exchange::striped) {
        LoadDirectStriped<kThreads>(tid, block_itr, items, valid_items);
      } else {
        LoadDirectWarpStriped(tid, block_itr, items, valid_items);
      }
      emu_detail::exchange<kThreads>(kExchange, items, storage_.data(), true, site);
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
