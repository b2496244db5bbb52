// cub::WarpReduce on emu: Sum and Reduce over a logical warp of LOGICAL_WARP_THREADS lanes, all
// lanes or the first valid_items, the result in lane 0 of each logical warp.
//
// Order (CUB 3.0, warp/specializations/warp_reduce_shfl.cuh for a power-of-two warp size,
// warp_reduce_smem.cuh otherwise, which combine in the same order): log2 steps with offsets
// 1, 2, 4, ...; at each step lane i combines its value with lane i+offset's, v = op(v, v[i+offset]),
// if i+offset is a valid lane, all lanes at once. Lane 0 of 8 lanes thus computes
// ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)), and with 6 valid items
// ((x0 + x1) + (x2 + x3)) + (x4 + x5). A float sum matches the GPU bit for bit. On sm_80+, CUB
// sums and takes min/max of full warps of int and unsigned with the warp's redux instruction,
// whose exact result is the same.
//
// A power-of-two logical warp shuffles with the logical warp's lane mask (so logical warps run
// independently) and never reads past the last valid lane, as CUB's clamped shfl.sync does; any
// other size goes through TempStorage in shared memory with __syncwarp between steps, as CUB does.
//
// The result is defined in lane 0 only (CUB's documentation); the other lanes get a poisoned value
// (NaN for floating point, see runtime/emu/model/collectives.hpp), so a kernel that uses it elsewhere
// computes garbage on emu as it may on the GPU. TempStorage reused by a second WarpReduce without
// a __syncwarp between is a race in CUDA (a later race detector of emu's reports it).
#pragma once

#include "cub/thread/thread_operators.cuh"
#include "cub/util_type.cuh"

namespace cub {

namespace emu_detail {

template <int N>
struct LogicalWarp {
  static_assert(N >= 1 && N <= 32, "LOGICAL_WARP_THREADS must be 1 to 32");
  static constexpr bool pow2 = is_pow2(N);
  static constexpr int steps = log2_ceil(N);
  static constexpr int smem_elements = pow2 ? 0 : N + (1 << (steps - 1));

  static int lane() { return N == 32 ? static_cast<int>(kc::lane()) : static_cast<int>(kc::lane() % N); }
  static unsigned member_mask() {
    if constexpr (N == 32) {
      return 0xffffffffu;
    } else if constexpr (pow2) {
      return ((1u << N) - 1u) << ((kc::lane() / N) * N);
    } else {
      return 0xffffffffu >> (32 - N);  // CUB's mask for a warp size that does not divide 32
    }
  }
};

// The reduction of the logical warp's first `valid` lanes (all N when all_valid), valid in lane 0.
template <int N, class T, class Op>
T warp_reduce(T input, int valid, bool all_valid, Op& op, T* smem, const site_t& site) {
  using W = LogicalWarp<N>;
  const int lane = W::lane();
  const unsigned mask = W::member_mask();
  if (all_valid) valid = N;
  T out = input;
  for (int step = 0; step < W::steps; ++step) {
    const int offset = 1 << step;
    const bool add = lane + offset < valid;
    if constexpr (W::pow2) {
      const T peer = kc::shuffle(kc::Collective::shfl_idx, mask, out, add ? lane + offset : lane, N, site);
      if (add) out = op(out, peer);
    } else {
      smem[lane] = out;
      kc::syncwarp(mask, site);
      if (add) out = op(out, smem[lane + offset]);
      kc::syncwarp(mask, site);
    }
  }
  return out;
}

}  // namespace emu_detail

template <class T, int LOGICAL_WARP_THREADS = 32>
class WarpReduce {
  using W = emu_detail::LogicalWarp<LOGICAL_WARP_THREADS>;

 public:
  struct TempStorage : emu_detail::Storage<T, W::smem_elements> {};

  explicit WarpReduce(TempStorage& temp_storage) : storage_(temp_storage) {}

  T Sum(T input, std::source_location site = std::source_location::current()) {
    return run(input, LOGICAL_WARP_THREADS, true, ::cuda::std::plus<>{}, site);
  }
  T Sum(T input, int valid_items, std::source_location site = std::source_location::current()) {
    return run(input, valid_items, false, ::cuda::std::plus<>{}, site);
  }
  template <class Op>
  T Reduce(T input, Op reduction_op, std::source_location site = std::source_location::current()) {
    return run(input, LOGICAL_WARP_THREADS, true, reduction_op, site);
  }
  template <class Op>
  T Reduce(T input, Op reduction_op, int valid_items, std::source_location site = std::source_location::current()) {
    return run(input, valid_items, false, reduction_op, site);
  }

 private:
  template <class Op>
  T run(T input, int valid, bool all_valid, Op op, const std::source_location& site) {
    const T out = emu_detail::warp_reduce<LOGICAL_WARP_THREADS>(input, valid, all_valid, op, storage_.data(), site);
    return W::lane() == 0 ? out : ::kverify::emu::collectives::poison<T>();
  }

  TempStorage& storage_;
};

}  // namespace cub
