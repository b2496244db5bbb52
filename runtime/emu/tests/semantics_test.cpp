// Semantics tables for the emu model of CUDA: each intrinsic against what the CUDA Programming
// Guide says it does. Expected values are written from the guide's text, independently of the
// PTX-style formulas in scheduler.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "runtime/kernel_api.hpp"

namespace {

using kverify::emu::launch;
using kverify::emu::LaunchOptions;

// --- indices -------------------------------------------------------------------------------------

__global__ void record_indices(unsigned* out) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned i = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
  out[i * 6 + 0] = threadIdx.x;
  out[i * 6 + 1] = threadIdx.y;
  out[i * 6 + 2] = threadIdx.z;
  out[i * 6 + 3] = blockIdx.x;
  out[i * 6 + 4] = blockIdx.y;
  out[i * 6 + 5] = blockIdx.z;
}

TEST(EmuIndices, EveryThreadOfA3dGridSeesItsOwnIndices) {
  const dim3 grid(3, 2, 2), block(4, 3, 2);
  std::vector<unsigned> out(12 * 24 * 6, 999);
  const auto stats = launch(grid, block, 0, {}, record_indices, out.data());
  EXPECT_EQ(stats.blocks, 12u);
  EXPECT_EQ(stats.threads, 12u * 24u);
  std::size_t i = 0;
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned tz = 0; tz < 2; ++tz)
          for (unsigned ty = 0; ty < 3; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx, ++i) {
              const std::vector<unsigned> want{tx, ty, tz, bx, by, bz};
              EXPECT_EQ(std::vector<unsigned>(out.begin() + i * 6, out.begin() + i * 6 + 6), want) << "thread " << i;
            }
}

// --- __syncthreads -------------------------------------------------------------------------------

__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[256];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

TEST(EmuSyncthreads, SharedMemoryTreeReductionIsExactUnderEverySchedule) {
  std::vector<int> in(4 * 256);
  std::iota(in.begin(), in.end(), -300);
  for (std::uint64_t seed : {0ull, 1ull, 2ull, 3ull, 99ull, 12345ull}) {
    std::vector<int> out(4, 0);
    launch(dim3(4), dim3(256), 0, LaunchOptions{seed}, block_sum, in.data(), out.data());
    for (int b = 0; b < 4; ++b)
      EXPECT_EQ(out[b], std::accumulate(in.begin() + b * 256, in.begin() + (b + 1) * 256, 0)) << "seed " << seed;
  }
}

__global__ void early_return_then_sync(int* out) {
  __shared__ int value;
  if (threadIdx.x % 2 == 1) return;  // returned threads leave later barriers
  if (threadIdx.x == 0) value = 41;
  __syncthreads();
  out[threadIdx.x] = value + 1;
  __syncthreads();
}

TEST(EmuSyncthreads, ReturnedThreadsLeaveLaterBarriers) {
  std::vector<int> out(64, 0);
  launch(dim3(1), dim3(64), 0, LaunchOptions{7}, early_return_then_sync, out.data());
  for (int t = 0; t < 64; ++t) EXPECT_EQ(out[t], t % 2 ? 0 : 42) << t;
}

// --- schedule seed --------------------------------------------------------------------------------

__global__ void arrival_order(int* counter, int* order) { order[threadIdx.x] = atomicAdd(counter, 1); }

TEST(EmuSchedule, SeedZeroRunsThreadsInOrderOtherSeedsPermuteReproducibly) {
  auto run = [](std::uint64_t seed) {
    int counter = 0;
    std::vector<int> order(64, -1);
    launch(dim3(1), dim3(64), 0, LaunchOptions{seed}, arrival_order, &counter, order.data());
    return order;
  };
  std::vector<int> identity(64);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(run(0), identity);
  const auto a = run(5), b = run(5), c = run(6);
  EXPECT_EQ(a, b) << "the same seed must give the same order";
  EXPECT_NE(a, identity);
  EXPECT_NE(a, c);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, identity) << "every thread runs exactly once";
}

// The block order is the schedule's too: seed 0 runs blocks x fastest, then y, then z; another
// seed a permutation of the whole grid (and the pipeline's second guarded run another seed).
__global__ void block_arrival(int* counter, int* order) {
  if (threadIdx.x == 0) order[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)] = (*counter)++;
}

TEST(EmuSchedule, SeedsPermuteTheBlockOrderOfTheWholeGrid) {
  auto run = [](std::uint64_t seed) {
    int counter = 0;
    std::vector<int> order(4 * 3 * 5, -1);
    launch(dim3(4, 3, 5), dim3(32), 0, LaunchOptions{seed}, block_arrival, &counter, order.data());
    return order;
  };
  std::vector<int> identity(60);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(run(0), identity);
  const auto one = run(1), two = run(2);
  EXPECT_EQ(one, run(1)) << "the same seed must give the same block order";
  EXPECT_NE(one, identity);
  EXPECT_NE(two, identity);
  EXPECT_NE(one, two);
  for (const auto& order : {one, two}) {
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, identity) << "every block runs exactly once";
  }
  // A bijection of [0, n) for every grid size, the identity at seed 0.
  for (std::uint64_t n : {1ull, 2ull, 3ull, 64ull, 97ull, 1000ull, 65536ull})
    for (std::uint64_t seed : {0ull, 1ull, 2ull, 12345ull}) {
      std::vector<char> seen(n, 0);
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t b = kverify::emu::block_order(seed, n, i);
        ASSERT_LT(b, n);
        ASSERT_FALSE(seen[b]) << "block " << b << " twice (n " << n << ", seed " << seed << ")";
        seen[b] = 1;
        if (seed == 0) ASSERT_EQ(b, i);
      }
    }
}

// --- shuffles ----------------------------------------------------------------------------------------

enum class Shfl { idx, up, down, xor_ };

struct ShuffleRow {
  Shfl kind;
  int width;
  int param;
  int lane;
  int expected_source;  // the lane whose value `lane` receives (its own lane: "own value")
};

// From the CUDA Programming Guide, "Warp Shuffle Functions":
//  __shfl_sync: srcLane is taken modulo width, inside the caller's width-sized segment.
//  __shfl_up_sync: lane - delta within the segment; if that falls below the segment, own value.
//  __shfl_down_sync: lane + delta within the segment; past the segment's end, own value.
//  __shfl_xor_sync: lane ^ laneMask; a lane of a later segment is out of reach (own value), an
//  earlier one is reachable.
const ShuffleRow kShuffleTable[] = {
    {Shfl::idx, 32, 5, 0, 5},    {Shfl::idx, 32, 5, 31, 5},   {Shfl::idx, 32, 37, 9, 5},    {Shfl::idx, 8, 3, 13, 11},
    {Shfl::idx, 8, 11, 13, 11},  {Shfl::idx, 8, 3, 2, 3},     {Shfl::idx, 1, 7, 20, 20},    {Shfl::idx, 16, 0, 17, 16},
    {Shfl::up, 32, 1, 0, 0},     {Shfl::up, 32, 1, 5, 4},     {Shfl::up, 32, 31, 31, 0},    {Shfl::up, 8, 3, 9, 9},
    {Shfl::up, 8, 3, 12, 9},     {Shfl::up, 16, 16, 20, 20},  {Shfl::down, 32, 16, 20, 20}, {Shfl::down, 32, 16, 3, 19},
    {Shfl::down, 16, 4, 13, 13}, {Shfl::down, 16, 4, 17, 21}, {Shfl::down, 16, 4, 29, 29},  {Shfl::down, 4, 1, 3, 3},
    {Shfl::down, 4, 1, 6, 7},    {Shfl::xor_, 32, 1, 6, 7},   {Shfl::xor_, 32, 16, 3, 19},  {Shfl::xor_, 32, 31, 0, 31},
    {Shfl::xor_, 8, 8, 3, 3},    {Shfl::xor_, 8, 8, 11, 3},   {Shfl::xor_, 16, 16, 2, 2},   {Shfl::xor_, 16, 16, 18, 2},
    {Shfl::xor_, 2, 1, 30, 31},
};

__global__ void shuffle_all(Shfl kind, int param, int width, long long* out) {
  const long long mine = 1000 + threadIdx.x;
  long long got = 0;
  switch (kind) {
    case Shfl::idx:
      got = __shfl_sync(0xffffffffu, mine, param, width);
      break;
    case Shfl::up:
      got = __shfl_up_sync(0xffffffffu, mine, static_cast<unsigned>(param), width);
      break;
    case Shfl::down:
      got = __shfl_down_sync(0xffffffffu, mine, static_cast<unsigned>(param), width);
      break;
    case Shfl::xor_:
      got = __shfl_xor_sync(0xffffffffu, mine, param, width);
      break;
  }
  out[threadIdx.x] = got;
}

TEST(EmuShuffle, TableFromTheProgrammingGuide) {
  for (const auto& row : kShuffleTable) {
    for (std::uint64_t seed : {0ull, 3ull}) {
      std::vector<long long> out(32, -1);
      launch(dim3(1), dim3(32), 0, LaunchOptions{seed}, shuffle_all, row.kind, row.param, row.width, out.data());
      EXPECT_EQ(out[row.lane], 1000 + row.expected_source)
          << "kind " << static_cast<int>(row.kind) << " width " << row.width << " param " << row.param << " lane "
          << row.lane;
    }
  }
}

__global__ void shuffle_types(float* f, double* d, __half* h) {
  const unsigned lane = threadIdx.x;
  f[lane] = __shfl_xor_sync(0xffffffffu, 0.5f + static_cast<float>(lane), 1);
  d[lane] = __shfl_down_sync(0xffffffffu, 1e300 * (lane + 1), 1);
  h[lane] = __shfl_sync(0xffffffffu, kv::from_f32<__half>(static_cast<float>(lane)), 31 - static_cast<int>(lane));
}

TEST(EmuShuffle, MovesFloatDoubleAndHalfBitsUnchanged) {
  std::vector<float> f(32);
  std::vector<double> d(32);
  std::vector<__half> h(32);
  launch(dim3(1), dim3(32), 0, {}, shuffle_types, f.data(), d.data(), h.data());
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(f[lane], 0.5f + static_cast<float>(lane ^ 1));
    EXPECT_EQ(d[lane], 1e300 * (lane == 31 ? 32 : lane + 2));
    EXPECT_EQ(kv::to_f32(h[lane]), static_cast<float>(31 - lane));
  }
}

__global__ void warp_reduce_in_partial_warp(const float* in, float* out) {
  // 48 threads: warp 1 has lanes 0..15 only; a shuffle that stays inside existing lanes is fine.
  float v = in[threadIdx.x];
  const unsigned mask = threadIdx.x < 32 ? 0xffffffffu : 0x0000ffffu;
  const int span = threadIdx.x < 32 ? 32 : 16;
  for (int offset = span / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(mask, v, offset, span);
  out[threadIdx.x] = v;
}

TEST(EmuShuffle, ButterflyReductionWithPartialMaskInAPartialWarp) {
  std::vector<float> in(48), out(48);
  std::iota(in.begin(), in.end(), 1.0f);
  launch(dim3(1), dim3(48), 0, LaunchOptions{11}, warp_reduce_in_partial_warp, in.data(), out.data());
  for (int t = 0; t < 48; ++t) EXPECT_EQ(out[t], t < 32 ? 528.0f : 648.0f) << t;  // 1+..+32, 33+..+48
}

// --- votes -----------------------------------------------------------------------------------------

__global__ void votes(unsigned* ballot, int* any, int* all, unsigned* half_ballot) {
  const unsigned lane = threadIdx.x;
  ballot[lane] = __ballot_sync(0xffffffffu, lane % 2 == 1);
  any[lane] = __any_sync(0xffffffffu, lane == 17);
  all[lane] = __all_sync(0xffffffffu, lane < 31);
  if (lane < 16) half_ballot[lane] = __ballot_sync(0x0000ffffu, lane < 4);
}

TEST(EmuVotes, BallotAnyAllOverTheMaskedLanes) {
  std::vector<unsigned> ballot(32), half(16);
  std::vector<int> any(32), all(32);
  launch(dim3(1), dim3(32), 0, LaunchOptions{2}, votes, ballot.data(), any.data(), all.data(), half.data());
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(ballot[lane], 0xaaaaaaaau);
    EXPECT_EQ(any[lane], 1);
    EXPECT_EQ(all[lane], 0);
  }
  for (int lane = 0; lane < 16; ++lane) EXPECT_EQ(half[lane], 0xfu);
}

// --- __syncwarp ------------------------------------------------------------------------------------

__global__ void syncwarp_exchange(int* out) {
  __shared__ int slot[32];
  slot[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
  __syncwarp();
  out[threadIdx.x] = slot[31 - threadIdx.x];
}

TEST(EmuSyncwarp, OrdersSharedMemoryWithinTheWarpUnderEverySchedule) {
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    std::vector<int> out(32);
    launch(dim3(1), dim3(32), 0, LaunchOptions{seed}, syncwarp_exchange, out.data());
    for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], (31 - t) * 3);
  }
}

// --- atomics -----------------------------------------------------------------------------------------

__global__ void atomics(int* sum, float* fsum, int* maximum, int* minimum, unsigned* cas_winner, int* exch) {
  const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  atomicAdd(sum, t);
  atomicAdd(fsum, 0.5f);
  atomicMax(maximum, (t * 37) % 1000);
  atomicMin(minimum, 500 - t);
  atomicCAS(cas_winner, 0xffffffffu, static_cast<unsigned>(t));
  atomicExch(exch, 7);
}

TEST(EmuAtomics, ReadModifyWriteAcrossBlocksAndSchedules) {
  for (std::uint64_t seed : {0ull, 4ull}) {
    int sum = 0, maximum = -1, minimum = 1 << 30, exch = 0;
    float fsum = 0;
    unsigned winner = 0xffffffffu;
    launch(dim3(4), dim3(128), 0, LaunchOptions{seed}, atomics, &sum, &fsum, &maximum, &minimum, &winner, &exch);
    EXPECT_EQ(sum, 511 * 512 / 2);
    EXPECT_EQ(fsum, 256.0f);
    int want_max = 0;
    for (int t = 0; t < 512; ++t) want_max = std::max(want_max, (t * 37) % 1000);
    EXPECT_EQ(maximum, want_max);
    EXPECT_EQ(minimum, 500 - 511);
    const auto first_block = static_cast<unsigned>(kverify::emu::block_order(seed, 4, 0));
    EXPECT_EQ(winner / 128, first_block) << "a thread of the block that runs first wins the CAS";
    EXPECT_EQ(exch, 7);
  }
}

// --- dynamic shared memory -------------------------------------------------------------------------

__global__ void dynamic_shared(unsigned* before, float* out) {
  float* buf = static_cast<float*>(kverify::emu::dynamic_shared_memory());  // extern __shared__, unrewritten
  unsigned bits;
  std::memcpy(&bits, &buf[threadIdx.x], 4);
  before[blockIdx.x * blockDim.x + threadIdx.x] = bits;
  __syncthreads();
  buf[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

TEST(EmuSharedMemory, DynamicSharedIsSizedPerLaunchAndPoisonedForEveryBlock) {
  std::vector<unsigned> before(2 * 64);
  std::vector<float> out(2 * 64);
  launch(dim3(2), dim3(64), 64 * sizeof(float), {}, dynamic_shared, before.data(), out.data());
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(before[i], 0xffffffffu) << "uninitialised shared memory reads as a NaN pattern";
    EXPECT_EQ(out[i], static_cast<float>(63 - i % 64));
  }
}

}  // namespace

// --- collectives of disjoint lane groups ------------------------------------------------------------

__global__ void tile_butterflies(int* out) {
  // Four tiles of eight lanes per warp, each shuffling with its own mask: on the GPU they proceed
  // independently, so the schedule may interleave their lanes in any order.
  const unsigned lane = threadIdx.x % 32;
  const unsigned mask = 0xffu << (lane & ~7u);
  int v = static_cast<int>(threadIdx.x);
  for (int offset = 4; offset > 0; offset /= 2) v += __shfl_xor_sync(mask, v, offset, 8);
  if (lane % 16 < 8) __syncwarp(mask);  // tiles 0 and 2 only
  out[threadIdx.x] = v;
}

TEST(EmuShuffle, TilesWithDisjointMasksProceedIndependentlyUnderEverySchedule) {
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    std::vector<int> out(64);
    launch(dim3(1), dim3(64), 0, LaunchOptions{seed}, tile_butterflies, out.data());
    for (int t = 0; t < 64; ++t) {
      const int base = t & ~7;
      EXPECT_EQ(out[t], 8 * base + 28) << "seed " << seed << " thread " << t;  // base + ... + base+7
    }
  }
}
