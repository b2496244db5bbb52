// Planted bugs the emu scheduler must detect, each next to the same kernel without the bug.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/kernel_api.hpp"

namespace {

using kverify::emu::launch;
using kverify::emu::LaunchError;
using kverify::emu::LaunchOptions;

// Runs the launch and returns the LaunchError it raised (fails the test if none).
template <typename F>
LaunchError expect_launch_error(F&& f) {
  try {
    f();
  } catch (const LaunchError& e) {
    return e;
  }
  ADD_FAILURE() << "the launch finished without a LaunchError";
  return LaunchError(LaunchError::Kind::bad_launch, "none");
}

__global__ void divergent_barrier(int* out) {
  if (threadIdx.x < 16) {
    __syncthreads();  // planted: two different barriers
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

__global__ void convergent_barrier(int* out) {
  if (threadIdx.x < 16) out[threadIdx.x] = 2;
  __syncthreads();
  out[threadIdx.x] += 1;
}

TEST(EmuDetects, DivergentSyncthreads) {
  std::vector<int> out(64, 0);
  for (std::uint64_t seed : {0ull, 1ull, 2ull}) {
    const auto e =
        expect_launch_error([&] { launch(dim3(1), dim3(64), 0, LaunchOptions{seed}, divergent_barrier, out.data()); });
    EXPECT_EQ(e.kind(), LaunchError::Kind::divergent_barrier) << e.what();
    EXPECT_NE(std::string(e.what()).find("detection_test.cpp:"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(launch(dim3(1), dim3(64), 0, LaunchOptions{1}, convergent_barrier, out.data()));
}

__global__ void shuffle_versus_barrier(float* out) {
  float v = static_cast<float>(threadIdx.x);
  if (threadIdx.x % 32 < 16) {
    v += __shfl_xor_sync(0xffffffffu, v, 1);  // planted: lanes 16..31 never come, they wait below
  }
  __syncthreads();
  out[threadIdx.x] = v;
}

TEST(EmuDetects, DeadlockBetweenAShuffleAndABarrier) {
  std::vector<float> out(32);
  const auto e = expect_launch_error([&] { launch(dim3(1), dim3(32), 0, {}, shuffle_versus_barrier, out.data()); });
  EXPECT_EQ(e.kind(), LaunchError::Kind::deadlock) << e.what();
  const std::string what = e.what();
  EXPECT_NE(what.find("__shfl_xor_sync"), std::string::npos) << what;
  EXPECT_NE(what.find("__syncthreads"), std::string::npos) << what;
  EXPECT_NE(what.find("0xffff0000"), std::string::npos) << "names the missing lanes: " << what;
}

__global__ void read_from_exited_lane(float* out) {
  if (threadIdx.x >= 16) return;  // planted: the full-mask shuffle below reads lanes 16..31
  out[threadIdx.x] = __shfl_down_sync(0xffffffffu, 1.0f, 16);
}

__global__ void read_within_remaining_lanes(float* out) {
  if (threadIdx.x >= 16) return;
  out[threadIdx.x] = __shfl_down_sync(0x0000ffffu, 1.0f, 8, 16);
}

TEST(EmuDetects, ShuffleMaskNamingALaneThatDidNotArrive) {
  std::vector<float> out(32);
  const auto e = expect_launch_error([&] { launch(dim3(1), dim3(32), 0, {}, read_from_exited_lane, out.data()); });
  EXPECT_EQ(e.kind(), LaunchError::Kind::bad_warp_collective) << e.what();
  EXPECT_NE(std::string(e.what()).find("exited without taking part"), std::string::npos) << e.what();
  EXPECT_NO_THROW(launch(dim3(1), dim3(32), 0, {}, read_within_remaining_lanes, out.data()));
}

__global__ void caller_outside_its_mask(float* out) {
  out[threadIdx.x] = __shfl_sync(0x0000fffeu, 1.0f, 1);  // planted: lane 0 calls with a mask without lane 0
}

__global__ void lanes_disagree_on_mask(float* out) {
  const unsigned mask = threadIdx.x == 3 ? 0x0000ffffu : 0xffffffffu;  // planted
  out[threadIdx.x] = __shfl_xor_sync(mask, 1.0f, 1);
}

__global__ void bad_width(float* out) { out[threadIdx.x] = __shfl_sync(0xffffffffu, 1.0f, 0, 12); }

TEST(EmuDetects, MalformedWarpCollectives) {
  std::vector<float> out(32);
  for (auto kernel : {caller_outside_its_mask, lanes_disagree_on_mask, bad_width}) {
    const auto e = expect_launch_error([&] { launch(dim3(1), dim3(32), 0, {}, kernel, out.data()); });
    EXPECT_EQ(e.kind(), LaunchError::Kind::bad_warp_collective) << e.what();
  }
}

__global__ void traps(int* out) {
  if (threadIdx.x == 5) __trap();
  out[threadIdx.x] = 1;
}

__global__ void throws_in_kernel(int*) {
  if (blockIdx.x == 1 && threadIdx.x == 2) throw std::runtime_error("planted");
}

TEST(EmuDetects, TrapAndExceptionsBecomeLaunchErrorsNamingTheThread) {
  std::vector<int> out(64);
  auto e = expect_launch_error([&] { launch(dim3(1), dim3(64), 0, {}, traps, out.data()); });
  EXPECT_EQ(e.kind(), LaunchError::Kind::trap);
  EXPECT_NE(std::string(e.what()).find("thread (5,0,0)"), std::string::npos) << e.what();
  e = expect_launch_error([&] { launch(dim3(2), dim3(8), 0, {}, throws_in_kernel, out.data()); });
  EXPECT_EQ(e.kind(), LaunchError::Kind::kernel_exception);
  EXPECT_NE(std::string(e.what()).find("block (1,0,0) thread (2,0,0)"), std::string::npos) << e.what();
}

TEST(EmuDetects, InvalidLaunchConfigurations) {
  std::vector<int> out(2048);
  for (auto [grid, block, shmem] : {std::tuple{dim3(1), dim3(2048), 0ul}, std::tuple{dim3(1), dim3(0), 0ul},
                                    std::tuple{dim3(0), dim3(32), 0ul}, std::tuple{dim3(1), dim3(32), 300000ul}}) {
    const auto e = expect_launch_error([&] { launch(grid, block, shmem, {}, traps, out.data()); });
    EXPECT_EQ(e.kind(), LaunchError::Kind::bad_launch) << e.what();
  }
}

#if !defined(__SANITIZE_THREAD__)
// (Not in the tsan flavor: there TSan reports this planted race itself, which is what the test
// tsan:emu_detects_missing_syncthreads checks.)
// A missing __syncthreads: each thread reads its neighbour's slot before the neighbour may have
// written it. The schedule seed decides; at least one seed must show a wrong result, and with the
// barrier every seed is right.
// (`salt` differs per launch: static __shared__ memory keeps the last launch's values on emu.)
template <bool kWithBarrier>
__global__ void neighbour_exchange(int salt, int* out) {
  __shared__ int slot[64];
  slot[threadIdx.x] = static_cast<int>(threadIdx.x) + salt;
  if (kWithBarrier) __syncthreads();
  __syncwarp();  // a sync point inside the warp only: threads of the other warp may not have run yet
  out[threadIdx.x] = slot[(threadIdx.x + 32) % 64] - salt;
}

TEST(EmuDetects, MissingSyncthreadsShowsUnderSomeScheduleSeed) {
  int salt = 0;
  auto wrong_under = [&](std::uint64_t seed, auto kernel) {
    std::vector<int> out(64);
    salt += 1000;
    launch(dim3(1), dim3(64), 0, LaunchOptions{seed}, kernel, salt, out.data());
    for (int t = 0; t < 64; ++t)
      if (out[t] != (t + 32) % 64) return true;
    return false;
  };
  int wrong = 0;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    wrong += wrong_under(seed, neighbour_exchange<false>);
    EXPECT_FALSE(wrong_under(seed, neighbour_exchange<true>)) << "seed " << seed;
  }
  EXPECT_GT(wrong, 0) << "no schedule seed exposed the missing barrier";
}
#endif

}  // namespace
