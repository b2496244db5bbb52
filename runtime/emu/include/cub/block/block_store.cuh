// cub::BlockStore on emu, and the direct store functions it is made of: the mirror of
// cub/block/block_load.cuh. Thread t's items are taken in CUB's documented arrangement (blocked
// for every algorithm but BLOCK_STORE_STRIPED, which takes them striped); the transposing
// algorithms exchange through TempStorage (with __syncthreads, or __syncwarp for
// WARP_TRANSPOSE) and then write memory striped or warp-striped, as CUB does. Guarded stores
// (valid_items) write no item at or past valid_items.
#pragma once

#include "cub/block/block_load.cuh"
#include "cub/util_type.cuh"

namespace cub {

enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

template <class T, int ITEMS_PER_THREAD, class It>
void StoreDirectBlocked(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items = 1 << 30) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    if (linear_tid * ITEMS_PER_THREAD + i < valid_items) block_itr[linear_tid * ITEMS_PER_THREAD + i] = items[i];
}
template <class T, int ITEMS_PER_THREAD>
void StoreDirectBlockedVectorized(int linear_tid, T* block_ptr, T (&items)[ITEMS_PER_THREAD]) {
  StoreDirectBlocked(linear_tid, block_ptr, items);
}
template <int BLOCK_THREADS, class T, int ITEMS_PER_THREAD, class It>
void StoreDirectStriped(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items = 1 << 30) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    if (i * BLOCK_THREADS + linear_tid < valid_items) block_itr[i * BLOCK_THREADS + linear_tid] = items[i];
}
template <class T, int ITEMS_PER_THREAD, class It>
void StoreDirectWarpStriped(int linear_tid, It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items = 1 << 30) {
  const int lane = linear_tid % 32, offset = (linear_tid / 32) * 32 * ITEMS_PER_THREAD + lane;
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    if (offset + i * 32 < valid_items) block_itr[offset + i * 32] = items[i];
}

namespace emu_detail {
template <int Algorithm>
constexpr Exchange store_exchange() {
  return Algorithm == BLOCK_STORE_TRANSPOSE                   ? Exchange::striped
         : Algorithm == BLOCK_STORE_WARP_TRANSPOSE            ? Exchange::warp_striped
         : Algorithm == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED ? Exchange::warp_striped_timesliced
                                                              : Exchange::none;
}
}  // namespace emu_detail

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr emu_detail::Exchange kExchange = emu_detail::store_exchange<ALGORITHM>();
  static_assert(kExchange == emu_detail::Exchange::none || ALGORITHM == BLOCK_STORE_TRANSPOSE || kThreads % 32 == 0,
                "BLOCK_THREADS must be a multiple of the warp size for the warp-transposing algorithms");

 public:
  struct TempStorage
      : emu_detail::Storage<T, kExchange == emu_detail::Exchange::none ? 0 : kThreads * ITEMS_PER_THREAD> {};

  BlockStore(std::source_location site = std::source_location::current()) : BlockStore(private_storage(), site) {}
  BlockStore(TempStorage& temp_storage, std::source_location site = std::source_location::current())
      : storage_(temp_storage) {
    emu_detail::check_block<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>("cub::BlockStore", site);
  }

  template <class It>
  void Store(It block_itr, T (&items)[ITEMS_PER_THREAD], std::source_location site = std::source_location::current()) {
    store(block_itr, items, 1 << 30, site);
  }
  template <class It>
  void Store(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items,
             std::source_location site = std::source_location::current()) {
    store(block_itr, items, valid_items, site);
  }

 private:
  static TempStorage& private_storage() {
    __shared__ TempStorage storage;
    return storage;
  }

  template <class It>
  void store(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, const std::source_location& site) {
    using emu_detail::Exchange;
    const int tid = static_cast<int>(emu_detail::kc::block_rank());
    if constexpr (ALGORITHM == BLOCK_STORE_DIRECT || ALGORITHM == BLOCK_STORE_VECTORIZE) {
      StoreDirectBlocked(tid, block_itr, items, valid_items);
    } else if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
      StoreDirectStriped<kThreads>(tid, block_itr, items, valid_items);
    } else {
      T arranged[ITEMS_PER_THREAD];
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) arranged[i] = items[i];
      emu_detail::exchange<kThreads>(kExchange, arranged, storage_.data(), false, site);
      if constexpr (kExchange == Exchange::striped) {
        StoreDirectStriped<kThreads>(tid, block_itr, arranged, valid_items);
      } else {
        StoreDirectWarpStriped(tid, block_itr, arranged, valid_items);
      }
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
