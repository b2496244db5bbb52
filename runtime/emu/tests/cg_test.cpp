// Semantics tables for emu's cooperative groups (runtime/emu/include/cooperative_groups.h):
// expected values are written from the CUDA Programming Guide's description of each call, and
// float reductions from the documented butterfly order, spelled out by hand.
#include <gtest/gtest.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/kernel_api.hpp"

namespace cg = cooperative_groups;

namespace {

using kverify::emu::launch;
using kverify::emu::LaunchError;
using kverify::emu::LaunchOptions;

constexpr std::uint64_t kSeeds[] = {0, 1, 7, 12345};

// --- thread_block --------------------------------------------------------------------------------

__global__ void block_queries(unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  const unsigned i = (blockIdx.x * blockDim.x * blockDim.y * blockDim.z + block.thread_rank()) * 9;
  out[i + 0] = block.thread_rank();
  out[i + 1] = block.size();
  out[i + 2] = block.num_threads();
  out[i + 3] = block.group_index().x;
  out[i + 4] = block.thread_index().x;
  out[i + 5] = block.thread_index().y;
  out[i + 6] = block.thread_index().z;
  out[i + 7] = block.dim_threads().x * 100 + block.dim_threads().y * 10 + block.dim_threads().z;
  block.sync();
  cg::sync(block);
  out[i + 8] = cg::thread_rank(block) + 1000 * static_cast<unsigned>(cg::group_size(block));
}

TEST(EmuCooperativeGroups, ThreadBlockQueriesInA3dBlock) {
  const dim3 grid(2), block(4, 3, 2);
  std::vector<unsigned> out(2 * 24 * 9, 999);
  launch(grid, block, 0, {}, block_queries, out.data());
  for (unsigned b = 0; b < 2; ++b)
    for (unsigned z = 0; z < 2; ++z)
      for (unsigned y = 0; y < 3; ++y)
        for (unsigned x = 0; x < 4; ++x) {
          const unsigned rank = x + 4 * (y + 3 * z);  // x fastest
          const unsigned* o = &out[(b * 24 + rank) * 9];
          EXPECT_EQ(o[0], rank);
          EXPECT_EQ(o[1], 24u);
          EXPECT_EQ(o[2], 24u);
          EXPECT_EQ(o[3], b);
          EXPECT_EQ(o[4], x);
          EXPECT_EQ(o[5], y);
          EXPECT_EQ(o[6], z);
          EXPECT_EQ(o[7], 432u);
          EXPECT_EQ(o[8], rank + 24000u);
        }
}

// --- thread_block_tile: ranks and meta groups -----------------------------------------------------

template <unsigned N>
__global__ void tile_ranks(unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  unsigned* o = &out[block.thread_rank() * 4];
  o[0] = tile.thread_rank();
  o[1] = tile.size() * 1000 + tile.num_threads();
  o[2] = tile.meta_group_rank();
  o[3] = tile.meta_group_size();
}

template <unsigned N>
void check_tile_ranks() {
  std::vector<unsigned> out(96 * 4);
  launch(dim3(1), dim3(96), 0, {}, tile_ranks<N>, out.data());
  for (unsigned t = 0; t < 96; ++t) {
    EXPECT_EQ(out[t * 4 + 0], t % N) << "N " << N << " thread " << t;
    EXPECT_EQ(out[t * 4 + 1], N * 1000 + N) << "N " << N;
    EXPECT_EQ(out[t * 4 + 2], t / N) << "N " << N << " thread " << t;
    EXPECT_EQ(out[t * 4 + 3], (96 + N - 1) / N) << "N " << N;
  }
}

TEST(EmuCooperativeGroups, TileRanksAndMetaGroupsForEverySize) {
  check_tile_ranks<1>();
  check_tile_ranks<2>();
  check_tile_ranks<4>();
  check_tile_ranks<8>();
  check_tile_ranks<16>();
  check_tile_ranks<32>();
}

__global__ void tile_of_tile(unsigned* out) {
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const auto quarter = cg::tiled_partition<8>(warp);
  const unsigned t = cg::this_thread_block().thread_rank();
  out[t * 3 + 0] = quarter.thread_rank();
  out[t * 3 + 1] = quarter.meta_group_rank();  // within the warp, the parent
  out[t * 3 + 2] = quarter.meta_group_size();
}

TEST(EmuCooperativeGroups, TileOfATileCountsItsMetaGroupInTheParent) {
  std::vector<unsigned> out(64 * 3);
  launch(dim3(1), dim3(64), 0, {}, tile_of_tile, out.data());
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t * 3 + 0], t % 8);
    EXPECT_EQ(out[t * 3 + 1], (t % 32) / 8);
    EXPECT_EQ(out[t * 3 + 2], 4u);
  }
}

__global__ void type_erased_groups(unsigned long long* out) {
  const cg::thread_group block = cg::this_thread_block();
  const cg::thread_group tile = cg::tiled_partition(block, 16);
  const cg::thread_group warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned t = cg::this_thread_block().thread_rank();
  tile.sync();
  block.sync();
  out[t * 4 + 0] = block.thread_rank() * 10000 + block.size();
  out[t * 4 + 1] = tile.thread_rank() * 10000 + tile.size();
  out[t * 4 + 2] = warp.thread_rank() * 10000 + warp.num_threads();
  warp.sync();
  out[t * 4 + 3] = cg::tiled_partition(tile, 4).thread_rank();
}

TEST(EmuCooperativeGroups, TypeErasedThreadGroupsOfABlockAndOfTiles) {
  std::vector<unsigned long long> out(64 * 4);
  launch(dim3(1), dim3(64), 0, LaunchOptions{9}, type_erased_groups, out.data());
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t * 4 + 0], t * 10000ull + 64);
    EXPECT_EQ(out[t * 4 + 1], (t % 16) * 10000ull + 16);
    EXPECT_EQ(out[t * 4 + 2], (t % 32) * 10000ull + 32);
    EXPECT_EQ(out[t * 4 + 3], t % 4);
  }
}

// --- thread_block_tile: shuffles and votes ------------------------------------------------------

enum class Op { shfl, down, up, xor_ };

template <unsigned N>
__global__ void tile_shuffle(Op op, unsigned param, long long* out) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  const long long mine = 1000 + cg::this_thread_block().thread_rank();
  long long got = 0;
  switch (op) {
    case Op::shfl:
      got = tile.shfl(mine, static_cast<int>(param));
      break;
    case Op::down:
      got = tile.shfl_down(mine, param);
      break;
    case Op::up:
      got = tile.shfl_up(mine, param);
      break;
    case Op::xor_:
      got = tile.shfl_xor(mine, param);
      break;
  }
  out[cg::this_thread_block().thread_rank()] = got;
}

struct TileShuffleRow {
  Op op;
  unsigned param;
  int thread;    // in a block of 64, tile size 8
  int expected;  // the thread whose value it receives
};

// The Programming Guide: a tile's shfl(v, r) reads the tile's thread r (r taken modulo the tile
// size); shfl_down(v, d) reads rank + d, or keeps its own value past the tile's end; shfl_up
// reads rank - d, or its own below rank 0; shfl_xor(v, m) reads rank ^ m within the tile.
const TileShuffleRow kTileShuffles[] = {
    {Op::shfl, 0, 13, 8},  {Op::shfl, 5, 13, 13}, {Op::shfl, 11, 13, 11}, {Op::shfl, 7, 40, 47}, {Op::down, 1, 13, 14},
    {Op::down, 3, 13, 13}, {Op::down, 3, 12, 15}, {Op::down, 2, 38, 38},  {Op::up, 1, 13, 12},   {Op::up, 6, 13, 13},
    {Op::up, 5, 13, 8},    {Op::up, 5, 14, 9},    {Op::up, 1, 40, 40},    {Op::xor_, 1, 13, 12}, {Op::xor_, 4, 13, 9},
    {Op::xor_, 7, 40, 47}, {Op::xor_, 2, 63, 61},
};

TEST(EmuCooperativeGroups, TileShufflesStayInsideTheTile) {
  for (const auto& row : kTileShuffles)
    for (std::uint64_t seed : kSeeds) {
      std::vector<long long> out(64);
      launch(dim3(1), dim3(64), 0, LaunchOptions{seed}, tile_shuffle<8>, row.op, row.param, out.data());
      EXPECT_EQ(out[row.thread], 1000 + row.expected)
          << "op " << static_cast<int>(row.op) << " param " << row.param << " thread " << row.thread;
    }
}

struct Wide {  // more than the 8 bytes of one shuffle
  double a;
  int b[5];
};

__global__ void tile_shuffle_wide(Wide* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned r = tile.thread_rank();
  const Wide mine{0.5 * r, {int(r), int(r) + 1, int(r) + 2, int(r) + 3, int(r) + 4}};
  out[cg::this_thread_block().thread_rank()] = tile.shfl_xor(mine, 5);
}

TEST(EmuCooperativeGroups, ShufflesOfValuesWiderThanEightBytes) {
  std::vector<Wide> out(32);
  launch(dim3(1), dim3(32), 0, LaunchOptions{3}, tile_shuffle_wide, out.data());
  for (int t = 0; t < 32; ++t) {
    const int src = (t % 16) ^ 5;
    EXPECT_EQ(out[t].a, 0.5 * src) << t;
    for (int k = 0; k < 5; ++k) EXPECT_EQ(out[t].b[k], src + k) << t;
  }
}

__global__ void tile_votes(unsigned* ballot, int* any, int* all) {
  const auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  const unsigned t = cg::this_thread_block().thread_rank();
  ballot[t] = tile.ballot(tile.thread_rank() % 3 == 0);
  any[t] = tile.any(t == 21);
  all[t] = tile.all(t != 5);
  tile.sync();
}

TEST(EmuCooperativeGroups, TileVotesAreOverTheTileWithTileRelativeBits) {
  for (std::uint64_t seed : kSeeds) {
    std::vector<unsigned> ballot(32);
    std::vector<int> any(32), all(32);
    launch(dim3(1), dim3(32), 0, LaunchOptions{seed}, tile_votes, ballot.data(), any.data(), all.data());
    for (int t = 0; t < 32; ++t) {
      EXPECT_EQ(ballot[t], 0b01001001u) << t;  // ranks 0, 3, 6 of every tile
      EXPECT_EQ(any[t], t / 8 == 2 ? 1 : 0) << t;
      EXPECT_EQ(all[t], t / 8 == 0 ? 0 : 1) << t;
    }
  }
}

// --- cg::reduce ------------------------------------------------------------------------------------

template <unsigned N>
__global__ void tile_reduce_int(const int* in, int* sum, int* maximum, int* minimum, unsigned* ors, unsigned* xors) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  const unsigned t = cg::this_thread_block().thread_rank();
  sum[t] = cg::reduce(tile, in[t], cg::plus<int>());
  maximum[t] = cg::reduce(tile, in[t], cg::greater<int>());
  minimum[t] = cg::reduce(tile, in[t], cg::less<int>());
  ors[t] = cg::reduce(tile, 1u << (t % 32), cg::bit_or<unsigned>());
  xors[t] = cg::reduce(tile, static_cast<unsigned>(in[t]), cg::bit_xor<unsigned>());
}

template <unsigned N>
void check_tile_reduce_int() {
  std::vector<int> in(64);
  for (int i = 0; i < 64; ++i) in[i] = (i * 37) % 101 - 50;
  std::vector<int> sum(64), maximum(64), minimum(64);
  std::vector<unsigned> ors(64), xors(64);
  launch(dim3(1), dim3(64), 0, LaunchOptions{5}, tile_reduce_int<N>, in.data(), sum.data(), maximum.data(),
         minimum.data(), ors.data(), xors.data());
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned base = t - t % N;
    int s = 0, mx = in[base], mn = in[base];
    unsigned o = 0, x = 0;
    for (unsigned k = base; k < base + N; ++k) {
      s += in[k];
      mx = std::max(mx, in[k]);
      mn = std::min(mn, in[k]);
      o |= 1u << (k % 32);
      x ^= static_cast<unsigned>(in[k]);
    }
    EXPECT_EQ(sum[t], s) << "N " << N << " thread " << t;
    EXPECT_EQ(maximum[t], mx) << "N " << N;
    EXPECT_EQ(minimum[t], mn) << "N " << N;
    EXPECT_EQ(ors[t], o) << "N " << N;
    EXPECT_EQ(xors[t], x) << "N " << N;
  }
}

TEST(EmuCooperativeGroups, ReduceOfIntegersIsExactInEveryThreadOfTheTile) {
  check_tile_reduce_int<1>();
  check_tile_reduce_int<2>();
  check_tile_reduce_int<4>();
  check_tile_reduce_int<8>();
  check_tile_reduce_int<16>();
  check_tile_reduce_int<32>();
}

// Values whose float sum depends on the order of the additions.
float tricky(int i) {
  static const float kParts[] = {1e8f, 1.0f, -1e8f, 3.25f, 7e7f, -0.5f, 1e-3f, -7e7f, 2.5e7f, 9.0f};
  return kParts[i % 10] * (1.0f + 0.125f * static_cast<float>(i / 10));
}

template <unsigned N>
__global__ void tile_reduce_float(const float* in, float* out) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  const unsigned t = cg::this_thread_block().thread_rank();
  out[t] = cg::reduce(tile, in[t], cg::plus<float>());
}

TEST(EmuCooperativeGroups, ReduceOfFloatsFollowsTheButterflyInEveryThread) {
  std::vector<float> x(32);
  for (int i = 0; i < 32; ++i) x[i] = tricky(i);
  // Butterfly with offsets 4, 2, 1 (thread 0): v_i = x_i + x_(i^4), then v_i + v_(i^2), then v_i + v_(i^1).
  const float want8 = ((x[0] + x[4]) + (x[2] + x[6])) + ((x[1] + x[5]) + (x[3] + x[7]));
  // Offsets 16, 8, 4, 2, 1: pairs (i, i+16) first.
  float p[16];
  for (int i = 0; i < 16; ++i) p[i] = x[i] + x[i + 16];
  float q[8];
  for (int i = 0; i < 8; ++i) q[i] = p[i] + p[i + 8];
  const float want32 = ((q[0] + q[4]) + (q[2] + q[6])) + ((q[1] + q[5]) + (q[3] + q[7]));
  const float left_to_right = std::accumulate(x.begin(), x.end(), 0.0f);
  ASSERT_NE(want32, left_to_right) << "the inputs must make the order visible";
  for (std::uint64_t seed : kSeeds) {
    std::vector<float> out8(32), out32(32);
    launch(dim3(1), dim3(32), 0, LaunchOptions{seed}, tile_reduce_float<8>, x.data(), out8.data());
    launch(dim3(1), dim3(32), 0, LaunchOptions{seed}, tile_reduce_float<32>, x.data(), out32.data());
    for (int t = 0; t < 8; ++t) EXPECT_EQ(out8[t], want8) << "every thread of the tile, thread " << t;
    for (int t = 0; t < 32; ++t) EXPECT_EQ(out32[t], want32) << t;
  }
}

__global__ void reduce_with_lambda(const int* in, int* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  out[cg::this_thread_block().thread_rank()] =
      cg::reduce(tile, in[cg::this_thread_block().thread_rank()], [](int a, int b) { return a > b ? a : b; });
}

TEST(EmuCooperativeGroups, ReduceTakesAnyOperator) {
  std::vector<int> in(32), out(32);
  for (int i = 0; i < 32; ++i) in[i] = (i * 13) % 29;
  launch(dim3(1), dim3(32), 0, {}, reduce_with_lambda, in.data(), out.data());
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(out[t], *std::max_element(in.begin() + (t / 16) * 16, in.begin() + (t / 16) * 16 + 16));
}

__global__ void odd_tiles_reduce(const int* in, int* out) {
  // Only odd tiles reduce: tiles are independent groups, the others are elsewhere.
  const auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  const unsigned t = cg::this_thread_block().thread_rank();
  if (tile.meta_group_rank() % 2 == 1) {
    out[t] = cg::reduce(tile, in[t], cg::plus<int>());
  } else {
    out[t] = -1;
  }
}

TEST(EmuCooperativeGroups, TilesReduceIndependentlyOfOtherTilesUnderEverySchedule) {
  std::vector<int> in(64);
  std::iota(in.begin(), in.end(), 0);
  for (std::uint64_t seed : kSeeds) {
    std::vector<int> out(64);
    launch(dim3(1), dim3(64), 0, LaunchOptions{seed}, odd_tiles_reduce, in.data(), out.data());
    for (int t = 0; t < 64; ++t) {
      const int base = t - t % 4;
      EXPECT_EQ(out[t], (t / 4) % 2 ? 4 * base + 6 : -1) << "seed " << seed << " thread " << t;
    }
  }
}

// --- what the scheduler still catches through cooperative groups -----------------------------------

__global__ void tile_reads_exited_thread(int* out) {
  const auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  if (tile.thread_rank() == 3) return;  // planted: rank 3 leaves, the others read it
  out[cg::this_thread_block().thread_rank()] = tile.shfl(1, 3);
}

__global__ void tile_partial_reduce(int* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  if (tile.thread_rank() >= 8) return;  // planted: half the tile leaves before a reduction of all 16
  out[cg::this_thread_block().thread_rank()] = cg::reduce(tile, 1, cg::plus<int>());
}

__global__ void divergent_block_sync(int* out) {
  const cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 16) {
    block.sync();  // planted: two different barriers
  } else {
    block.sync();
  }
  out[block.thread_rank()] = 1;
}

__global__ void grid_sync(int* out) {
  const cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = static_cast<int>(grid.block_rank() * 100 + grid.num_blocks());
  grid.sync();  // needs a cooperative launch: reported on emu
}

template <typename F>
LaunchError launch_error(F&& f) {
  try {
    f();
  } catch (const LaunchError& e) {
    return e;
  }
  ADD_FAILURE() << "the launch finished without a LaunchError";
  return LaunchError(LaunchError::Kind::bad_launch, "none");
}

TEST(EmuCooperativeGroups, SchedulerChecksFireThroughGroupsAndNameTheUsersLine) {
  std::vector<int> out(64);
  auto e = launch_error([&] { launch(dim3(1), dim3(32), 0, {}, tile_reads_exited_thread, out.data()); });
  EXPECT_EQ(e.kind(), LaunchError::Kind::bad_warp_collective) << e.what();
  EXPECT_NE(std::string(e.what()).find("exited without taking part"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("cg_test.cpp:"), std::string::npos) << "names the kernel's line: " << e.what();

  e = launch_error([&] { launch(dim3(1), dim3(32), 0, LaunchOptions{2}, tile_partial_reduce, out.data()); });
  EXPECT_EQ(e.kind(), LaunchError::Kind::bad_warp_collective) << e.what();

  e = launch_error([&] { launch(dim3(1), dim3(64), 0, LaunchOptions{1}, divergent_block_sync, out.data()); });
  EXPECT_EQ(e.kind(), LaunchError::Kind::divergent_barrier) << e.what();
  EXPECT_NE(std::string(e.what()).find("cg_test.cpp:"), std::string::npos) << e.what();

  e = launch_error([&] { launch(dim3(2), dim3(32), 0, {}, grid_sync, out.data()); });
  EXPECT_EQ(e.kind(), LaunchError::Kind::kernel_exception) << e.what();
  EXPECT_NE(std::string(e.what()).find("grid_group::sync"), std::string::npos) << e.what();
  EXPECT_EQ(out[0], 2);  // block 0, 2 blocks: the queries before the sync work
}

}  // namespace
