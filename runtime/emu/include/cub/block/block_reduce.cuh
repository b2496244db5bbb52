// cub::BlockReduce on emu: Sum and Reduce of one value or an array per thread, over the whole
// block or its first num_valid threads, with the three algorithms of CUB; the result in thread 0.
//
// Each algorithm combines in the order CUB 3.0 (CUDA 13.0) does, read from its
// block/specializations/*.cuh, so float sums match the GPU bit for bit:
//
//   BLOCK_REDUCE_WARP_REDUCTIONS (the default): each warp reduces its lanes as WarpReduce does
//     (cub/warp/warp_reduce.cuh); lane 0 of each warp stores its warp's aggregate in TempStorage,
//     __syncthreads, then thread 0 folds the aggregates left to right, ((w0 op w1) op w2) op ...
//   BLOCK_REDUCE_RAKING: a block of at most 32 threads is one WarpReduce. Otherwise every thread
//     stores its value in TempStorage, __syncthreads, and the first R threads (R = ceil(threads /
//     S), S = ceil(threads / 32)) each fold S consecutive values left to right; those R partials
//     are then reduced as a WarpReduce of R lanes.
//   BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY: for a full block of a multiple of 32 threads, more
//     than 32: threads 32.. store their values, __syncthreads, and thread t < 32 reduces
//     [its own value, the S = (threads - 32) / 32 values of threads 32 + t*S ...] as
//     cub::ThreadReduce does (cub/thread/thread_reduce.cuh: a tree for libcu++'s functors, left
//     to right for others), then the 32 partials as a WarpReduce. Any other case falls back to
//     BLOCK_REDUCE_RAKING, as CUB does.
//   Several items per thread: cub::ThreadReduce of each thread's array first.
//
// Sum uses ::cuda::std::plus<> as CUB 3.0 does (which selects the tree in ThreadReduce).
// Cannot be guaranteed: 2-byte floating types in ThreadReduce (see there), and a num_valid larger
// than the block with a raking layout that does not divide the block (CUB then reads past its
// grid; emu reads stale shared memory).
//
// The result is defined in thread 0 only; every other thread gets a poisoned value (NaN for
// floating point), so a kernel that uses it elsewhere is caught. TempStorage reused by a second
// collective without a __syncthreads between is a race in CUDA (thread 0 may still read the
// first one's aggregates); a later race detector of emu's reports it.
//
// The block must have the shape the template names (BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z): CUB
// computes ranks from those, and another shape gives wrong results on the GPU; emu stops the launch
// with the collective's line.
#pragma once

#include "cub/thread/thread_reduce.cuh"
#include "cub/util_type.cuh"
#include "cub/warp/warp_reduce.cuh"

namespace cub {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS,
};

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockReduce {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(kThreads >= 1 && kThreads <= 1024, "a block has 1 to 1024 threads");

  // BLOCK_REDUCE_WARP_REDUCTIONS
  static constexpr int kWarps = (kThreads + 31) / 32;
  static constexpr int kLogicalWarp = kThreads < 32 ? kThreads : 32;
  static constexpr bool kEvenWarps = kThreads % kLogicalWarp == 0;
  // BLOCK_REDUCE_RAKING
  static constexpr int kSegment = (kThreads + kLogicalWarp - 1) / kLogicalWarp;
  static constexpr int kRakers = (kThreads + kSegment - 1) / kSegment;
  static constexpr bool kWarpSynchronous = kRakers == kThreads;
  static constexpr bool kUnguarded = kThreads % kRakers == 0;
  // BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY
  static constexpr bool kCommutativeFallback = kThreads % 32 != 0 || kThreads <= 32;
  static constexpr int kShared = kThreads > 32 ? kThreads - 32 : 1;
  static constexpr int kSharedSegment = kShared / 32;

  static constexpr int kWarpSmem = emu_detail::max_of(emu_detail::LogicalWarp<kLogicalWarp>::smem_elements,
                                                      emu_detail::LogicalWarp<kRakers>::smem_elements);
  // Layout of TempStorage: [warp aggregates | raking grid | a non-power-of-two warp's scratch].
  static constexpr int kAggregates = ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS ? kWarps : 0;
  static constexpr int kGrid = ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS ? 0 : kRakers * kSegment;

 public:
  struct TempStorage : emu_detail::Storage<T, kAggregates + kGrid + kWarpSmem> {};

  BlockReduce(std::source_location site = std::source_location::current()) : BlockReduce(private_storage(), site) {}
  BlockReduce(TempStorage& temp_storage, std::source_location site = std::source_location::current())
      : storage_(temp_storage) {
    emu_detail::check_block<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>("cub::BlockReduce", site);
  }

  template <class Op>
  T Reduce(T input, Op reduction_op, std::source_location site = std::source_location::current()) {
    return result(reduce(input, kThreads, true, reduction_op, site));
  }
  template <int ITEMS_PER_THREAD, class Op>
  T Reduce(T (&inputs)[ITEMS_PER_THREAD], Op reduction_op,
           std::source_location site = std::source_location::current()) {
    return Reduce(static_cast<T>(ThreadReduce(inputs, reduction_op)), reduction_op, site);
  }
  template <class Op>
  T Reduce(T input, Op reduction_op, int num_valid, std::source_location site = std::source_location::current()) {
    return result(reduce(input, num_valid, num_valid >= kThreads, reduction_op, site));
  }
  T Sum(T input, std::source_location site = std::source_location::current()) {
    return Reduce(input, ::cuda::std::plus<>{}, site);
  }
  template <int ITEMS_PER_THREAD>
  T Sum(T (&inputs)[ITEMS_PER_THREAD], std::source_location site = std::source_location::current()) {
    return Reduce(inputs, ::cuda::std::plus<>{}, site);
  }
  T Sum(T input, int num_valid, std::source_location site = std::source_location::current()) {
    return Reduce(input, ::cuda::std::plus<>{}, num_valid, site);
  }

 private:
  static TempStorage& private_storage() {
    __shared__ TempStorage storage;  // CUB's private shared storage, one per instantiation
    return storage;
  }

  static T result(const T& value) {
    return emu_detail::kc::block_rank() == 0 ? value : ::kverify::emu::collectives::poison<T>();
  }

  T* aggregates() { return storage_.data(); }
  T* grid() { return storage_.data() + kAggregates; }
  T* warp_smem() { return storage_.data() + kAggregates + kGrid; }

  template <class Op>
  T reduce(T input, int num_valid, bool full, Op& op, const std::source_location& site) {
    if constexpr (ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS) {
      return warp_reductions(input, num_valid, full, op, site);
    } else if constexpr (ALGORITHM == BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY && !kCommutativeFallback) {
      if (full) return raking_commutative(input, op, site);
      return raking(input, num_valid, full, op, site);
    } else {
      return raking(input, num_valid, full, op, site);
    }
  }

  template <class Op>
  T warp_reductions(T input, int num_valid, bool full, Op& op, const std::source_location& site) {
    const int tid = static_cast<int>(emu_detail::kc::block_rank());
    const int warp = kWarps == 1 ? 0 : tid / 32;
    const int warp_offset = warp * kLogicalWarp;
    const bool all_valid = full && kEvenWarps;
    const int warp_valid =
        (all_valid || warp_offset + kLogicalWarp <= num_valid) ? kLogicalWarp : num_valid - warp_offset;
    T aggregate = emu_detail::warp_reduce<kLogicalWarp>(input, warp_valid, all_valid, op, warp_smem(), site);
    if (emu_detail::kc::lane() == 0) aggregates()[warp] = aggregate;
    emu_detail::kc::syncthreads(site);
    if (tid == 0)
      for (int w = 1; w < kWarps; ++w)
        if (full || w * kLogicalWarp < num_valid) aggregate = op(aggregate, aggregates()[w]);
    return aggregate;
  }

  template <class Op>
  T raking(T input, int num_valid, bool full, Op& op, const std::source_location& site) {
    if constexpr (kWarpSynchronous) {
      return emu_detail::warp_reduce<kRakers>(input, num_valid, full, op, warp_smem(), site);
    } else {
      const int tid = static_cast<int>(emu_detail::kc::block_rank());
      grid()[tid] = input;
      emu_detail::kc::syncthreads(site);
      if (tid >= kRakers) return input;
      const T* segment = grid() + tid * kSegment;
      T partial = segment[0];
      for (int i = 1; i < kSegment; ++i)
        if ((full && kUnguarded) || tid * kSegment + i < num_valid) partial = op(partial, segment[i]);
      const int valid_rakers = full ? kRakers : (num_valid + kSegment - 1) / kSegment;
      emu_detail::kc::syncwarp(kRakers == 32 ? 0xffffffffu : (1u << kRakers) - 1u, site);
      return emu_detail::warp_reduce<kRakers>(partial, valid_rakers, full && kUnguarded, op, warp_smem(), site);
    }
  }

  template <class Op>
  T raking_commutative(T input, Op& op, const std::source_location& site) {
    const int tid = static_cast<int>(emu_detail::kc::block_rank());
    if (tid >= 32) grid()[tid - 32] = input;
    emu_detail::kc::syncthreads(site);
    if (tid >= 32) return input;
    T segment[kSharedSegment];
    for (int i = 0; i < kSharedSegment; ++i) segment[i] = grid()[tid * kSharedSegment + i];
    const T partial = static_cast<T>(ThreadReduce(segment, op, input));
    return emu_detail::warp_reduce<32>(partial, 32, true, op, warp_smem(), site);
  }

  TempStorage& storage_;
};

}  // namespace cub
