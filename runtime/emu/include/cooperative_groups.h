// Cooperative groups on emu: the part of CUDA's <cooperative_groups.h> that kernels use, with the
// toolkit's names, built on the emu's barrier and warp collectives (runtime/emu/model/collectives.hpp).
//
//   this_thread_block(): thread_block   sync, thread_rank, size, num_threads, group_index,
//                                       thread_index, dim_threads (group_dim)
//   tiled_partition<N>(parent), N in 1, 2, 4, 8, 16, 32, parent a thread_block or a larger tile:
//     thread_block_tile<N>              shfl, shfl_down, shfl_up, shfl_xor, any, all, ballot, sync,
//                                       thread_rank, size, num_threads, meta_group_rank,
//                                       meta_group_size
//   thread_group (from a block or a tile), tiled_partition(parent, n) for n a power of two <= 32:
//                                       sync, thread_rank, size, num_threads
//   this_grid(): grid_group             thread_rank, size, num_threads, block_rank, num_blocks,
//                                       block_index, dim_blocks; sync() is reported (see there)
//   sync(g), thread_rank(g), group_size(g)
//
// A tile's collectives use the tile's own lane mask and width, as CUDA's do (the mask of the
// tile's lanes within its warp; width N), so tiles of a warp proceed independently and a tile
// whose lane has exited, or that is reached by only some of its lanes, is reported by the
// scheduler with the user's line. Every collective takes the caller's std::source_location as a
// last, defaulted argument for that purpose.
//
// Not modelled: tiles larger than a warp (64..1024), coalesced_threads/coalesced_group, the
// collectives of a thread_group, labeled_partition, binary_partition, memcpy_async,
// grid-wide and cluster synchronisation.
#pragma once

#include <source_location>
#include <stdexcept>
#include <string>

#include "runtime/emu/model/collectives.hpp"

namespace cooperative_groups {

namespace details {
namespace kc = ::kverify::emu::collectives;
using ::kverify::emu::detail::Collective;
using site_t = std::source_location;
}  // namespace details

class thread_block {
 public:
  static void sync(details::site_t site = details::site_t::current()) { details::kc::syncthreads(site); }
  static unsigned thread_rank() { return details::kc::block_rank(); }
  static unsigned size() { return details::kc::block_threads(); }
  static unsigned num_threads() { return details::kc::block_threads(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 dim_threads() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  static dim3 group_dim() { return dim_threads(); }
};

inline thread_block this_thread_block() { return {}; }

template <unsigned Size, typename Parent = void>
class thread_block_tile;

// The tile every thread_block_tile<Size, Parent> converts to (`thread_block_tile<32> t =
// tiled_partition<32>(block);`).
template <unsigned Size>
class thread_block_tile<Size, void> {
  static_assert(
      Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32,
      "emu models thread_block_tile of 1, 2, 4, 8, 16 or 32 threads (CUDA's multi-warp tiles are not modelled)");

 public:
  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  static unsigned thread_rank() { return details::kc::block_rank() & (Size - 1); }
  unsigned meta_group_rank() const { return meta_group_rank_; }
  unsigned meta_group_size() const { return meta_group_size_; }

  static void sync(details::site_t site = details::site_t::current()) { details::kc::syncwarp(mask(), site); }

  template <class T>
  static T shfl(T var, int src_rank, details::site_t site = details::site_t::current()) {
    return details::kc::shuffle(details::Collective::shfl_idx, mask(), var, src_rank, Size, site);
  }
  template <class T>
  static T shfl_down(T var, unsigned delta, details::site_t site = details::site_t::current()) {
    return details::kc::shuffle(details::Collective::shfl_down, mask(), var, static_cast<int>(delta), Size, site);
  }
  template <class T>
  static T shfl_up(T var, unsigned delta, details::site_t site = details::site_t::current()) {
    return details::kc::shuffle(details::Collective::shfl_up, mask(), var, static_cast<int>(delta), Size, site);
  }
  template <class T>
  static T shfl_xor(T var, unsigned lane_mask, details::site_t site = details::site_t::current()) {
    return details::kc::shuffle(details::Collective::shfl_xor, mask(), var, static_cast<int>(lane_mask), Size, site);
  }
  // Bit i of ballot is the predicate of the tile's thread i; any and all are over the tile.
  static unsigned ballot(int predicate, details::site_t site = details::site_t::current()) {
    return details::kc::ballot(mask(), predicate != 0, site) >> (details::kc::lane() & ~(Size - 1));
  }
  static int any(int predicate, details::site_t site = details::site_t::current()) {
    return details::kc::ballot(mask(), predicate != 0, site) != 0;
  }
  static int all(int predicate, details::site_t site = details::site_t::current()) {
    return details::kc::ballot(mask(), predicate != 0, site) == mask();
  }

 protected:
  thread_block_tile(unsigned meta_group_rank, unsigned meta_group_size)
      : meta_group_rank_(meta_group_rank), meta_group_size_(meta_group_size) {}

  // The tile's lanes within its warp.
  static unsigned mask() {
    if constexpr (Size == 32) {
      return 0xffffffffu;
    } else {
      return ((1u << Size) - 1u) << (details::kc::lane() & ~(Size - 1));
    }
  }

 private:
  unsigned meta_group_rank_;
  unsigned meta_group_size_;
};

template <unsigned Size, typename Parent>
class thread_block_tile : public thread_block_tile<Size, void> {
 public:
  thread_block_tile(unsigned meta_group_rank, unsigned meta_group_size)
      : thread_block_tile<Size, void>(meta_group_rank, meta_group_size) {}
};

template <unsigned Size>
thread_block_tile<Size, thread_block> tiled_partition(const thread_block&) {
  return {details::kc::block_rank() / Size, (details::kc::block_threads() + Size - 1) / Size};
}

template <unsigned Size, unsigned ParentSize, typename ParentParent>
thread_block_tile<Size, thread_block_tile<ParentSize, ParentParent>> tiled_partition(
    const thread_block_tile<ParentSize, ParentParent>& parent) {
  static_assert(Size <= ParentSize, "a tile is partitioned into smaller tiles");
  return {parent.thread_rank() / Size, ParentSize / Size};
}

// The type-erased group of older kernels (`cg::thread_group g = cg::this_thread_block();`,
// `cg::tiled_partition(block, 16)`): a whole block or a tile of 1 to 32 threads.
class thread_group {
 public:
  thread_group(const thread_block&) : tile_(0) {}
  template <unsigned Size, typename Parent>
  thread_group(const thread_block_tile<Size, Parent>&) : tile_(Size) {}

  unsigned long long size() const { return tile_ == 0 ? details::kc::block_threads() : tile_; }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    return tile_ == 0 ? details::kc::block_rank() : (details::kc::block_rank() & (tile_ - 1));
  }
  void sync(details::site_t site = details::site_t::current()) const {
    if (tile_ == 0) {
      details::kc::syncthreads(site);
    } else {
      const unsigned mask = tile_ == 32 ? 0xffffffffu : ((1u << tile_) - 1u) << (details::kc::lane() & ~(tile_ - 1));
      details::kc::syncwarp(mask, site);
    }
  }

 private:
  friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size);
  explicit thread_group(unsigned tile) : tile_(tile) {}
  unsigned tile_;  // 0: the whole block
};

// CUDA allows any power of two up to 32 here (larger ones only for a thread_block parent and
// with scratch memory, which emu does not model): anything else stops the launch.
inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size) {
  if (tile_size == 0 || tile_size > 32 || (tile_size & (tile_size - 1)) != 0 || (parent.size() < tile_size))
    throw std::logic_error("cooperative_groups::tiled_partition(parent, " + std::to_string(tile_size) +
                           "): emu models tiles of a power of two from 1 to 32 threads, within the parent");
  return thread_group(tile_size);
}
inline thread_group tiled_partition(const thread_block& parent, unsigned tile_size) {
  return tiled_partition(thread_group(parent), tile_size);
}

// The grid, for kernels that only ask where they are. Its sync() needs every block resident at
// once (a cooperative launch); emu runs blocks one after another, so a grid sync is reported
// (the launch fails naming the line) rather than deadlocking or passing silently.
class grid_group {
 public:
  static unsigned long long thread_rank() {
    return block_rank() * static_cast<unsigned long long>(details::kc::block_threads()) + details::kc::block_rank();
  }
  static unsigned long long size() {
    return num_blocks() * static_cast<unsigned long long>(details::kc::block_threads());
  }
  static unsigned long long num_threads() { return size(); }
  static unsigned long long block_rank() {
    return blockIdx.x + gridDim.x * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  }
  static unsigned long long num_blocks() { return gridDim.x * static_cast<unsigned long long>(gridDim.y) * gridDim.z; }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  static dim3 group_dim() { return thread_block::dim_threads(); }
  static bool is_valid() { return true; }
  [[noreturn]] static void sync(details::site_t site = details::site_t::current()) {
    throw std::logic_error(std::string("cooperative_groups::grid_group::sync at ") + site.file_name() + ":" +
                           std::to_string(site.line()) +
                           ": a grid-wide barrier needs every block resident at once (a cooperative launch); emu "
                           "runs blocks one after another and does not model it");
  }
};

inline grid_group this_grid() { return {}; }

template <class Group>
void sync(const Group& g, details::site_t site = details::site_t::current()) {
  g.sync(site);
}
template <class Group>
auto thread_rank(const Group& g) -> decltype(g.thread_rank()) {
  return g.thread_rank();
}
template <class Group>
auto group_size(const Group& g) -> decltype(g.num_threads()) {
  return g.num_threads();
}

}  // namespace cooperative_groups
