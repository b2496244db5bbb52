// What emu's cooperative groups and CUB (runtime/emu/include/) are built from: the scheduler's
// warp collectives and barrier, called with the user's call site, so that every check of the
// scheduler (a shuffle reading a lane that did not arrive, lanes of one collective disagreeing,
// a barrier reached from two sites, deadlock) fires for a tile's shuffle or a BlockReduce as it
// does for the intrinsics, and names the line of the user's kernel.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <source_location>
#include <type_traits>

#include "runtime/emu/model/cuda_model.hpp"

namespace kverify::emu::collectives {

using detail::Collective;

// The thread's rank in its block, x fastest (how CUDA forms warps from a 2D or 3D block).
inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned lane() { return block_rank() % 32; }

// A warp shuffle of any trivially copyable value: 8 bytes per collective (the scheduler's unit),
// as CUDA's cooperative groups and CUB split a larger value into words.
template <class T>
T shuffle(Collective kind, unsigned mask, const T& value, int param, int width, const std::source_location& site) {
  static_assert(std::is_trivially_copyable_v<T>, "a shuffled value must be trivially copyable");
  struct alignas(T) Bytes {
    unsigned char b[sizeof(T)];
  };
  Bytes bytes = std::bit_cast<Bytes>(value);
  for (std::size_t at = 0; at < sizeof(T); at += 8) {
    const std::size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.b + at, n);
    word = detail::warp_collective(kind, mask, word, param, width, site);
    std::memcpy(bytes.b + at, &word, n);
  }
  return std::bit_cast<T>(bytes);
}

inline unsigned ballot(unsigned mask, bool predicate, const std::source_location& site) {
  return static_cast<unsigned>(detail::warp_collective(Collective::ballot, mask, predicate, 0, 32, site));
}
inline void syncwarp(unsigned mask, const std::source_location& site) {
  detail::warp_collective(Collective::syncwarp, mask, 0, 0, 32, site);
}
inline void syncthreads(const std::source_location& site) { detail::syncthreads(site); }

// What a thread gets where CUDA defines a result only for one thread (BlockReduce: thread 0,
// WarpReduce: lane 0 of each logical warp): a kernel that uses it elsewhere then computes with
// garbage on emu too, visibly. Floating point: NaN. Integers: bytes 0xA5 (-1515870811 as int32;
// for bool a value that is neither true nor false, which UBSan reports when it is read).
// Anything else: bytes 0xFF, a NaN in every IEEE lane of half2, float4, double2 and the like.
template <class T>
T poison() {
  if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::quiet_NaN();
  } else {
    struct alignas(T) Bytes {
      unsigned char b[sizeof(T)];
    } bytes;
    std::memset(bytes.b, std::is_integral_v<T> ? 0xA5 : 0xFF, sizeof(T));
    return std::bit_cast<T>(bytes);
  }
}

}  // namespace kverify::emu::collectives
