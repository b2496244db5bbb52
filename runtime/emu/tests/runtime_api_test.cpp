// The CUDA runtime calls a launcher makes, on emu: errors with cudart's own names and texts,
// launch refusals with CUDA's error codes (each planted on a launch), function attributes,
// occupancy, device queries with the H200's values, memory and streams, ScheduleScope.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "runtime/emu/model/taking_turns.hpp"
#include "runtime/emu/tests/cuda_oracle.hpp"

namespace {

using kverify::emu::launch_kernel;
using kverify::emu::LaunchError;

// --- errors ------------------------------------------------------------------------------------------

TEST(EmuRuntimeApi, ErrorNamesAndTextsAreCudarts) {
  const std::pair<cudaError_t, const char*> all[] = {
#define X(name, value, text) {name, #name},
#include "runtime/emu/model/cuda_errors.def"
#undef X
  };
  EXPECT_EQ(std::size(all), 133u);
  EXPECT_EQ(cudaErrorInvalidValue, 1);
  EXPECT_EQ(cudaErrorInvalidConfiguration, 9);
  EXPECT_EQ(cudaErrorLaunchFailure, 719);
  EXPECT_EQ(cudaErrorUnknown, 999);
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
  EXPECT_STREQ(cudaGetErrorName(cudaSuccess), "cudaSuccess");
#if !KVERIFY_HAVE_CUDA_ORACLE
  GTEST_SKIP() << "no CUDA toolkit at configure time: the texts are not compared with cudart's";
#else
  for (const auto& [code, name] : all) {
    EXPECT_STREQ(cudaGetErrorName(code), kverify::emu::oracle::error_name(code)) << name;
    EXPECT_STREQ(cudaGetErrorString(code), kverify::emu::oracle::error_string(code)) << name;
  }
#endif
}

TEST(EmuRuntimeApi, LastErrorIsPerThreadAndClearedByGetLastError) {
  (void)cudaGetLastError();
  EXPECT_EQ(cudaSetDevice(3), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevice) << "peek does not clear";
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "get clears";
}

// --- launch refusals -----------------------------------------------------------------------------

__global__ void mark(int* out) {
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) atomicAdd(out, 1);
}
__global__ void mark_big_smem(int* out) { atomicAdd(out, threadIdx.x == 0 ? 1 : 0); }

struct Refusal {
  const char* what;
  dim3 grid, block;
  size_t shared;
  cudaError_t want;
};

TEST(EmuRuntimeApi, LaunchesTheH200RefusesAreRefusedWithCudasErrorAndNotSticky) {
  const Refusal rows[] = {
      {"1025 threads", dim3(1), dim3(1025), 0, cudaErrorInvalidValue},
      {"32x32x2 threads", dim3(1), dim3(32, 32, 2), 0, cudaErrorInvalidValue},
      {"block z 65", dim3(1), dim3(1, 1, 65), 0, cudaErrorInvalidValue},
      {"block x 0", dim3(1), dim3(0), 0, cudaErrorInvalidValue},
      {"grid y 65536", dim3(1, 65536), dim3(1), 0, cudaErrorInvalidValue},
      {"grid z 65536", dim3(1, 1, 65536), dim3(1), 0, cudaErrorInvalidValue},
      {"grid x 2^31", dim3(0x80000000u), dim3(1), 0, cudaErrorInvalidValue},
      {"grid x 0", dim3(0), dim3(1), 0, cudaErrorInvalidValue},
      {"48 KiB + 1 dynamic shared without the attribute", dim3(1), dim3(32), 48 * 1024 + 1, cudaErrorInvalidValue},
      {"227 KiB + 1 dynamic shared", dim3(1), dim3(32), 232448 + 1, cudaErrorInvalidValue},
  };
  for (const Refusal& r : rows) {
    (void)cudaGetLastError();
    int ran = 0;
    launch_kernel(mark, r.grid, r.block, r.shared, nullptr, &ran);
    EXPECT_EQ(ran, 0) << r.what << ": a refused launch runs nothing";
    EXPECT_EQ(cudaPeekAtLastError(), r.want) << r.what;
    EXPECT_NE(std::string(kverify::emu::last_launch_refusal()), "") << r.what;
    EXPECT_EQ(cudaGetLastError(), r.want) << r.what;
    // Not sticky: the next launch runs, the synchronisation succeeds.
    launch_kernel(mark, dim3(2), dim3(32), 0, nullptr, &ran);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << r.what;
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(ran, 2) << r.what;
  }
}

TEST(EmuRuntimeApi, LimitsThemselvesAreAccepted) {
  const void* k = reinterpret_cast<const void*>(mark);
  const char* why = nullptr;
  using kverify::emu::api::check_launch;
  EXPECT_EQ(check_launch(k, dim3(0x7fffffffu, 65535, 65535), dim3(1024), 0, &why), cudaSuccess);
  EXPECT_EQ(check_launch(k, dim3(1), dim3(1, 16, 64), 48 * 1024, &why), cudaSuccess);
  EXPECT_EQ(check_launch(k, dim3(1), dim3(1, 1024, 1), 0, &why), cudaSuccess);
  int ran = 0;
  launch_kernel(mark, dim3(1, 1, 3), dim3(4, 4, 64), 48 * 1024, nullptr, &ran);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(ran, 3);
}

TEST(EmuRuntimeApi, MaxDynamicSharedMemoryIsPerKernel) {
  int ran = 0;
  ASSERT_EQ(cudaFuncSetAttribute(mark_big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024), cudaSuccess);
  launch_kernel(mark_big_smem, dim3(1), dim3(32), 100 * 1024, nullptr, &ran);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(ran, 1);
  launch_kernel(mark_big_smem, dim3(1), dim3(32), 100 * 1024 + 1, nullptr, &ran);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue) << "beyond the kernel's own limit";
  launch_kernel(mark, dim3(1), dim3(32), 100 * 1024, nullptr, &ran);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue) << "another kernel keeps the 48 KiB default";
  EXPECT_EQ(cudaFuncSetAttribute(mark_big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448), cudaSuccess);
  EXPECT_EQ(cudaFuncSetAttribute(mark_big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 232449),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaFuncSetAttribute(mark_big_smem, cudaFuncAttributePreferredSharedMemoryCarveout, 101),
            cudaErrorInvalidValue);
  (void)cudaGetLastError();
  cudaFuncAttributes a{};
  ASSERT_EQ(cudaFuncGetAttributes(&a, mark_big_smem), cudaSuccess);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 232448);
  ASSERT_EQ(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(mark)), cudaSuccess);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 49152);
  EXPECT_EQ(a.maxThreadsPerBlock, 1024);
  EXPECT_EQ(a.numRegs, 32) << "emu's assumption (set_kernel_resources changes it)";
  EXPECT_EQ(a.ptxVersion, 90);
  EXPECT_EQ(a.preferredShmemCarveout, -1);
}

// --- occupancy ---------------------------------------------------------------------------------------

__global__ void occ_default(int*) {}
__global__ void occ_heavy(int*) {}
__global__ void occ_forty(int*) {}
__global__ void occ_carveout(int*) {}

TEST(EmuRuntimeApi, OccupancyFollowsTheH200sLimits) {
  kverify::emu::set_kernel_resources(reinterpret_cast<const void*>(occ_heavy), 128, 0);
  kverify::emu::set_kernel_resources(reinterpret_cast<const void*>(occ_forty), 40, 4096);
  ASSERT_EQ(cudaFuncSetAttribute(occ_default, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024), cudaSuccess);
  ASSERT_EQ(cudaFuncSetAttribute(occ_carveout, cudaFuncAttributePreferredSharedMemoryCarveout, 50), cudaSuccess);
  struct Row {
    void (*kernel)(int*);
    int block;
    size_t shared;
    int want;
    const char* why;
  };
  // Worked from the limits: 32 blocks, 64 warps, 65536 registers (per warp in units of 256) and
  // 228 KiB of shared memory (each block + 1 KiB reserved, in 128-byte units) per SM.
  const Row rows[] = {
      {occ_default, 32, 0, 32, "the 32-block limit"},
      {occ_default, 256, 0, 8, "64 warps / 8"},
      {occ_default, 1024, 0, 2, "64 warps / 32"},
      {occ_default, 100, 0, 16, "100 threads are 4 warps: 64 / 4"},
      {occ_default, 64, 48 * 1024, 4, "233472 / (49152 + 1024)"},
      {occ_default, 64, 100 * 1024, 2, "233472 / (102400 + 1024)"},
      {occ_default, 64, 100 * 1024 + 1, 0, "above the kernel's dynamic shared limit"},
      {occ_default, 1025, 0, 0, "above 1024 threads"},
      {occ_heavy, 256, 0, 2, "128 registers: 4096 per warp, 16 warps / 8"},
      {occ_forty, 128, 0, 12, "40 registers: 1280 per warp, 51 warps / 4"},
      {occ_forty, 32, 0, 32, "4 KiB static + 1 KiB: 45 blocks by shared memory, 32 by the block limit"},
      {occ_forty, 32, 40 * 1024, 5, "233472 / (4096 + 40960 + 1024) = 5.06"},
      {occ_carveout, 64, 40 * 1024, 3, "carveout 50%: 132 KiB, 135168 / 41984"},
  };
  for (const Row& r : rows) {
    int n = -1;
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, r.kernel, r.block, r.shared), cudaSuccess) << r.why;
    EXPECT_EQ(n, r.want) << r.why;
  }
  int min_grid = 0, block = 0;
  ASSERT_EQ(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, occ_default), cudaSuccess);
  EXPECT_EQ(block, 1024) << "every size fills 2048 threads; the larger block wins the tie";
  EXPECT_EQ(min_grid, 2 * 132);
  ASSERT_EQ(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, occ_heavy, 0, 512), cudaSuccess);
  EXPECT_EQ(block, 512);
  EXPECT_EQ(min_grid, 132) << "512 threads of 128 registers: one block per SM";
}

// --- device ------------------------------------------------------------------------------------------

TEST(EmuRuntimeApi, DeviceQueriesAnswerWithTheH200sValues) {
  int count = 0, device = -1;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 1);
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(device, 0);
  EXPECT_EQ(cudaSetDevice(0), cudaSuccess);
  const std::pair<cudaDeviceAttr, int> attrs[] = {
      {cudaDevAttrMultiProcessorCount, 132},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin, 232448},
      {cudaDevAttrMaxSharedMemoryPerBlock, 49152},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor, 233472},
      {cudaDevAttrMaxThreadsPerBlock, 1024},
      {cudaDevAttrWarpSize, 32},
      {cudaDevAttrMaxBlockDimX, 1024},
      {cudaDevAttrMaxBlockDimZ, 64},
      {cudaDevAttrMaxGridDimX, 2147483647},
      {cudaDevAttrMaxGridDimY, 65535},
      {cudaDevAttrMaxGridDimZ, 65535},
      {cudaDevAttrComputeCapabilityMajor, 9},
      {cudaDevAttrComputeCapabilityMinor, 0},
      {cudaDevAttrL2CacheSize, 62914560},  // 60 MiB, as the lent H200 reports it
      {cudaDevAttrMaxRegistersPerMultiprocessor, 65536},
      {cudaDevAttrMaxThreadsPerMultiProcessor, 2048},
      {cudaDevAttrMaxBlocksPerMultiprocessor, 32},
      {cudaDevAttrReservedSharedMemoryPerBlock, 1024},
      {cudaDevAttrTotalConstantMemory, 65536},
      {cudaDevAttrCooperativeLaunch, 1},
      {cudaDevAttrClusterLaunch, 1},
  };
  for (const auto& [attr, want] : attrs) {
    int v = -1;
    ASSERT_EQ(cudaDeviceGetAttribute(&v, attr, 0), cudaSuccess) << attr;
    EXPECT_EQ(v, want) << attr;
  }
  int v = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
  cudaDeviceProp p{};
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_STREQ(p.name, "NVIDIA H200 (emu)");
  EXPECT_EQ(p.multiProcessorCount, 132);
  EXPECT_EQ(p.sharedMemPerMultiprocessor, 228u * 1024);
  EXPECT_EQ(p.sharedMemPerBlockOptin, 227u * 1024);
  EXPECT_EQ(p.sharedMemPerBlock, 48u * 1024);
  EXPECT_EQ(p.regsPerMultiprocessor, 65536);
  EXPECT_EQ(p.maxThreadsPerMultiProcessor, 2048);
  EXPECT_EQ(p.maxBlocksPerMultiProcessor, 32);
  EXPECT_EQ(p.major * 10 + p.minor, 90);
  EXPECT_EQ(p.maxGridSize[1], 65535);
  EXPECT_EQ(p.warpSize, 32);
  (void)cudaGetLastError();
}

// --- memory, streams, events ------------------------------------------------------------------------

TEST(EmuRuntimeApi, MemoryCallsOnHostMemory) {
  float* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 64 * sizeof(float)), cudaSuccess);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(d) % 256, 0u) << "cudaMalloc's documented alignment";
  std::vector<float> h(64);
  std::iota(h.begin(), h.end(), 0.0f);
  EXPECT_EQ(cudaMemcpy(d, h.data(), 64 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemset(d, 0, 4 * sizeof(float)), cudaSuccess);
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  std::vector<float> back(64, -1);
  EXPECT_EQ(cudaMemcpyAsync(back.data(), d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s), cudaSuccess);
  EXPECT_EQ(cudaMemsetAsync(d, 0xff, 4, s), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(back[3], 0.0f);
  EXPECT_EQ(back[63], 63.0f);
  EXPECT_EQ(cudaMemcpy(back.data(), d, 4, static_cast<cudaMemcpyKind>(7)), cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
  cudaEvent_t a, b;
  ASSERT_EQ(cudaEventCreate(&a), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&b), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(a, s), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(b, s), cudaSuccess);
  EXPECT_EQ(cudaEventSynchronize(b), cudaSuccess);
  float ms = -1;
  EXPECT_EQ(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
  EXPECT_EQ(cudaStreamWaitEvent(s, b, 0), cudaSuccess);  // a side stream's join: nothing to wait for here
  EXPECT_EQ(cudaStreamWaitEvent(s, nullptr, 0), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(cudaEventDestroy(a), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(b), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
}

TEST(EmuRuntimeApi, LimitsAndL2ResidencyAreKeptAndReadBack) {
  size_t v = 1;
  ASSERT_EQ(cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize), cudaSuccess);
  EXPECT_EQ(v, 0u) << "no L2 is set aside for persisting accesses until a program asks";
  int most = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, 0), cudaSuccess);
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(most) * 2), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize), cudaSuccess);
  EXPECT_EQ(v, static_cast<size_t>(most)) << "the set-aside is capped at the device's maximum";
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0), cudaSuccess);
  EXPECT_EQ(cudaDeviceSetLimit(static_cast<cudaLimit>(42), 1), cudaErrorUnsupportedLimit);
  EXPECT_EQ(cudaGetLastError(), cudaErrorUnsupportedLimit);
  EXPECT_EQ(cudaCtxResetPersistingL2Cache(), cudaSuccess);

  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  cudaStreamAttrValue a{};
  float x[16];
  a.accessPolicyWindow.base_ptr = x;
  a.accessPolicyWindow.num_bytes = sizeof x;
  a.accessPolicyWindow.hitRatio = 1.0f;
  a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  ASSERT_EQ(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a), cudaSuccess);
  cudaStreamAttrValue back{};
  ASSERT_EQ(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back), cudaSuccess);
  EXPECT_EQ(back.accessPolicyWindow.base_ptr, static_cast<void*>(x));
  EXPECT_EQ(back.accessPolicyWindow.num_bytes, sizeof x);
  EXPECT_EQ(back.accessPolicyWindow.hitProp, cudaAccessPropertyPersisting);
  ASSERT_EQ(cudaStreamGetAttribute(nullptr, cudaStreamAttributeAccessPolicyWindow, &back), cudaSuccess);
  EXPECT_EQ(back.accessPolicyWindow.num_bytes, 0u) << "another stream's window is its own";
  a.accessPolicyWindow.hitRatio = 2.0f;
  EXPECT_EQ(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
}

// --- ScheduleScope, run-time errors -------------------------------------------------------------

__global__ void arrival(int* counter, int* order) { order[threadIdx.x] = atomicAdd(counter, 1); }

std::vector<int> order_under_launch_kernel() {
  int counter = 0;
  std::vector<int> order(64, -1);
  launch_kernel(arrival, dim3(1), dim3(64), 0, nullptr, &counter, order.data());
  return order;
}

TEST(EmuRuntimeApi, ScheduleScopeSetsTheSeedOfLaunchKernel) {
  std::vector<int> identity(64);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(order_under_launch_kernel(), identity) << "no scope: seed 0, thread order";
  int counter = 0;
  std::vector<int> direct(64, -1);
  kverify::emu::launch(dim3(1), dim3(64), 0, kverify::emu::LaunchOptions{9}, arrival, &counter, direct.data());
  {
    kverify::emu::ScheduleScope outer(9);
    EXPECT_EQ(order_under_launch_kernel(), direct);
    {
      kverify::emu::ScheduleScope inner(0);
      EXPECT_EQ(order_under_launch_kernel(), identity) << "the innermost scope wins";
      EXPECT_EQ(inner.launches(), 1);
    }
    EXPECT_EQ(order_under_launch_kernel(), direct);
    EXPECT_EQ(outer.launches(), 2);
    EXPECT_EQ(outer.stats().threads, 128u);
    int ran = 0;
    launch_kernel(mark, dim3(1), dim3(2000), 0, nullptr, &ran);
    EXPECT_EQ(outer.refused(), 1);
    (void)cudaGetLastError();
  }
  EXPECT_EQ(kverify::emu::current_launch_options().schedule_seed, 0u);
}

__global__ void traps(int* out) {
  if (threadIdx.x == 3) __trap();
  out[threadIdx.x] = 1;
}

__global__ void launches_from_device(int* out) { launch_kernel(mark, dim3(1), dim3(1), 0, nullptr, out); }

TEST(EmuRuntimeApi, RunTimeErrorsThrowTheSchedulersMessageAndLeaveNoStickyError) {
  std::vector<int> out(32, 0);
  try {
    launch_kernel(traps, dim3(1), dim3(32), 0, nullptr, out.data());
    FAIL() << "no LaunchError";
  } catch (const LaunchError& e) {
    EXPECT_EQ(e.kind(), LaunchError::Kind::trap);
    EXPECT_NE(std::string(e.what()).find("thread (3,0,0) executed __trap() at runtime_api_test.cpp:"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  try {
    launch_kernel(launches_from_device, dim3(1), dim3(1), 0, nullptr, out.data());
    FAIL() << "no LaunchError";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("dynamic parallelism"), std::string::npos) << e.what();
  }
}

}  // namespace

// --- host threads taking turns at their stream work -----------------------------------------------

namespace turns {

__global__ void append(int* log, int* n, int who) { log[(*n)++] = who; }

// Each thread launches `launches` kernels that append its index to one log.
std::vector<int> log_of_two_callers(kverify::emu::TakingTurns& table, int launches) {
  std::vector<int> log(64, -1);
  int n = 0;
  const auto caller = [&](int who) {
    kverify::emu::TakingTurns::Seat seat(table, who);
    for (int i = 0; i < launches; ++i) launch_kernel(append, dim3(1), dim3(1), 0, nullptr, log.data(), &n, who);
  };
  std::thread one(caller, 0), other(caller, 1);
  one.join();
  other.join();
  log.resize(static_cast<std::size_t>(n));
  return log;
}

}  // namespace turns

TEST(EmuTakingTurns, OneLaunchATurnAlternatingInTheSameOrderEveryRun) {
  for (int round = 0; round < 20; ++round) {
    kverify::emu::TakingTurns table(2);
    const std::vector<int> log = turns::log_of_two_callers(table, 3);
    ASSERT_EQ(log, (std::vector<int>{0, 1, 0, 1, 0, 1})) << "round " << round;
    EXPECT_EQ(table.order(), log);
    EXPECT_FALSE(table.given_up());
  }
  // Without a table, one thread's launches are not held back for the other's (the control).
  std::vector<int> log(64, -1);
  int n = 0;
  std::thread solo([&] {
    for (int i = 0; i < 3; ++i) launch_kernel(turns::append, dim3(1), dim3(1), 0, nullptr, log.data(), &n, 7);
  });
  solo.join();
  EXPECT_EQ(n, 3);
}

TEST(EmuTakingTurns, AThreadWaitingInItsLauncherForTheOthersLockGivesTurnsUp) {
  // Thread 0 holds a lock across its two launches (a launcher that serialises its callers) and
  // parks at the second; thread 1, in its launcher, waits for that lock: without giving turns up
  // neither could go on.
  kverify::emu::TakingTurns table(2);
  std::mutex serialised;
  std::vector<int> log(8, -1);
  int n = 0;
  const auto launcher = [&](int who) {
    kverify::emu::TakingTurns::Seat seat(table, who);
    const kverify::emu::LauncherCall call;
    std::lock_guard hold(serialised);
    for (int i = 0; i < 2; ++i) launch_kernel(turns::append, dim3(1), dim3(1), 0, nullptr, log.data(), &n, who);
  };
  const auto start = std::chrono::steady_clock::now();
  std::thread one(launcher, 0), other(launcher, 1);
  one.join();
  other.join();
  EXPECT_TRUE(table.given_up());
  EXPECT_EQ(n, 4);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}
