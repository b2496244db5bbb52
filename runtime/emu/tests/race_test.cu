// The emu race detector (race_detector.hpp) on tiny kernels, each hazard kind planted once and each
// next to the same kernel made correct: the report names the kind, both threads and both source
// lines; the correct kernel launches without one. Compiled for emu through the source rewrite
// (static __shared__ becomes an arena slot) with the detector's instrumentation.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/emu/race_detector.hpp"

namespace {

using kverify::emu::LaunchError;

// Each planted access records its line, so the test can look for it in the report.
__device__ int line_a = 0, line_b = 0;
#define KV_MARK(var) (var = __LINE__)

// --- two threads of a block, no __syncthreads ------------------------------------------------------

__global__ void neighbour_exchange(float* out, bool with_barrier) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  KV_MARK(line_a), s[t] = static_cast<float>(t);
  if (with_barrier) __syncthreads();
  KV_MARK(line_b), out[t] = s[(t + 32) % 64];  // the other warp's element
}

// --- lanes of one warp, no __syncwarp --------------------------------------------------------------

__global__ void lane_exchange(float* out, bool with_syncwarp) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x;
  KV_MARK(line_a), s[lane] = static_cast<float>(lane);
  if (with_syncwarp) __syncwarp();
  KV_MARK(line_b), out[lane] = s[lane ^ 1];
}

// --- blocks of one launch: the last block combines the others' partials -------------------------------

__global__ void last_block_combines(float* partial, unsigned* ticket, float* out, bool with_fence) {
  if (threadIdx.x != 0) return;
  KV_MARK(line_a), partial[blockIdx.x] = static_cast<float>(blockIdx.x + 1);
  if (with_fence) __threadfence();
  if (atomicAdd(ticket, 1u) != gridDim.x - 1) return;
  float sum = 0.0f;
  for (unsigned b = 0; b < gridDim.x; ++b) KV_MARK(line_b), sum += partial[b];
  *out = sum;
}

__global__ void blocks_write_one_element(float* out, bool each_its_own) {
  if (threadIdx.x == 0) out[each_its_own ? blockIdx.x : 0] = static_cast<float>(blockIdx.x);
}

// --- shared memory read before any thread of the block wrote it ------------------------------------

__global__ void sum_of_partials(float* out, unsigned written, bool dynamic) {
  __shared__ float fixed[64];
  extern __shared__ float flexible[];
  float* s = dynamic ? flexible : fixed;
  if (threadIdx.x < written) s[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x != 0) return;
  float sum = 0.0f;
  for (unsigned t = 0; t < blockDim.x; ++t) KV_MARK(line_b), sum += s[t];
  out[blockIdx.x] = sum;
}

// --- atomics do not conflict with each other -------------------------------------------------------

__global__ void shared_histogram(unsigned* out) {
  __shared__ unsigned bins[4];
  if (threadIdx.x < 4) bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[threadIdx.x % 4], 1u);
  __syncthreads();
  if (threadIdx.x < 4) atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}

// Runs f() and returns the race report ("" when the launch raised none; another LaunchError fails).
template <typename F>
std::string race_of(F f) {
  try {
    f();
  } catch (const LaunchError& e) {
    EXPECT_EQ(e.kind(), LaunchError::Kind::race) << e.what();
    return e.what();
  }
  return "";
}

std::string at_line(int line) { return "race_test.cu:" + std::to_string(line); }

class EmuRaceDetector : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kverify::emu::race::instrumented())
      GTEST_SKIP() << "this build's kernels are not instrumented: " << kverify::emu::race::status_text();
    kverify::emu::race::set_enabled(true);
  }
};

TEST_F(EmuRaceDetector, ReportsTwoThreadsOfABlockWithoutABarrierAndNamesBothAccesses) {
  std::vector<float> out(64);
  const kverify::emu::race::GlobalRegion region(out.data(), out.size() * 4, "out");
  const std::string report =
      race_of([&] { kverify::emu::launch_kernel(neighbour_exchange, 1, 64, 0, nullptr, out.data(), false); });
  EXPECT_NE(report.find("intra-block"), std::string::npos) << report;
  EXPECT_NE(report.find("'s' (static __shared__, 256 bytes)"), std::string::npos) << report;
  EXPECT_NE(report.find(at_line(line_a)), std::string::npos) << report;
  EXPECT_NE(report.find(at_line(line_b)), std::string::npos) << report;
  EXPECT_NE(report.find("no __syncthreads between"), std::string::npos) << report;
  EXPECT_EQ(race_of([&] { kverify::emu::launch_kernel(neighbour_exchange, 1, 64, 0, nullptr, out.data(), true); }), "");
}

TEST_F(EmuRaceDetector, ReportsLanesOfAWarpWithoutSyncwarp) {
  std::vector<float> out(32);
  const kverify::emu::race::GlobalRegion region(out.data(), out.size() * 4, "out");
  for (std::uint64_t seed : {0, 1, 7}) {
    const kverify::emu::ScheduleScope schedule(seed);
    const std::string report =
        race_of([&] { kverify::emu::launch_kernel(lane_exchange, 1, 32, 0, nullptr, out.data(), false); });
    EXPECT_NE(report.find("intra-warp"), std::string::npos) << report;
    EXPECT_NE(report.find("no __syncwarp or warp collective between"), std::string::npos) << report;
    EXPECT_NE(report.find(at_line(line_a)), std::string::npos) << report;
    EXPECT_NE(report.find(at_line(line_b)), std::string::npos) << report;
    EXPECT_EQ(race_of([&] { kverify::emu::launch_kernel(lane_exchange, 1, 32, 0, nullptr, out.data(), true); }), "");
  }
}

TEST_F(EmuRaceDetector, ReportsABlockReadingAnotherBlocksWriteWithoutAFence) {
  std::vector<float> partial(8);
  std::vector<unsigned> ticket(1);
  float out = 0;
  const kverify::emu::race::GlobalRegion a(partial.data(), partial.size() * 4, "partial"),
      b(ticket.data(), 4, "ticket"), c(&out, 4, "out");
  const std::string report = race_of([&] {
    kverify::emu::launch_kernel(last_block_combines, 8, 32, 0, nullptr, partial.data(), ticket.data(), &out, false);
  });
  EXPECT_NE(report.find("cross-block in device memory of partial"), std::string::npos) << report;
  EXPECT_NE(report.find("no __threadfence after the write"), std::string::npos) << report;
  EXPECT_NE(report.find(at_line(line_a)), std::string::npos) << report;
  EXPECT_NE(report.find(at_line(line_b)), std::string::npos) << report;
  ticket[0] = 0;
  EXPECT_EQ(race_of([&] {
              kverify::emu::launch_kernel(last_block_combines, 8, 32, 0, nullptr, partial.data(), ticket.data(), &out,
                                          true);
            }),
            "");
  EXPECT_EQ(out, 36.0f);
}

TEST_F(EmuRaceDetector, ReportsTwoBlocksWritingOneElement) {
  std::vector<float> out(4);
  const kverify::emu::race::GlobalRegion region(out.data(), out.size() * 4, "out");
  const std::string report =
      race_of([&] { kverify::emu::launch_kernel(blocks_write_one_element, 4, 32, 0, nullptr, out.data(), false); });
  EXPECT_NE(report.find("cross-block"), std::string::npos) << report;
  EXPECT_NE(report.find(" wrote 4 bytes at "), std::string::npos) << report;
  EXPECT_EQ(
      race_of([&] { kverify::emu::launch_kernel(blocks_write_one_element, 4, 32, 0, nullptr, out.data(), true); }), "");
}

TEST_F(EmuRaceDetector, ReportsSharedMemoryReadBeforeAnyThreadOfTheBlockWroteIt) {
  std::vector<float> out(2);
  const kverify::emu::race::GlobalRegion region(out.data(), out.size() * 4, "out");
  for (bool dynamic : {false, true}) {
    const std::string report = race_of([&] {
      kverify::emu::launch_kernel(sum_of_partials, 2, 64, dynamic ? 256 : 0, nullptr, out.data(), 60u, dynamic);
    });
    EXPECT_NE(report.find("uninitialized read in shared memory"), std::string::npos) << report;
    EXPECT_NE(report.find(dynamic ? "extern __shared__" : "'fixed' (static __shared__"), std::string::npos) << report;
    EXPECT_NE(report.find("byte 240"), std::string::npos) << report;  // element 60, the first never written
    EXPECT_NE(report.find(at_line(line_b)), std::string::npos) << report;
    // The second block's threads wrote every element: the first block's values do not count for it.
    EXPECT_EQ(race_of([&] {
                kverify::emu::launch_kernel(sum_of_partials, 2, 64, dynamic ? 256 : 0, nullptr, out.data(), 64u,
                                            dynamic);
              }),
              "");
  }
}

TEST_F(EmuRaceDetector, AtomicsDoNotConflict) {
  std::vector<unsigned> out(4);
  const kverify::emu::race::GlobalRegion region(out.data(), out.size() * 4, "out");
  EXPECT_EQ(race_of([&] { kverify::emu::launch_kernel(shared_histogram, 3, 128, 0, nullptr, out.data()); }), "");
  EXPECT_EQ(out, (std::vector<unsigned>{96, 96, 96, 96}));
}

TEST_F(EmuRaceDetector, OffRecordsNothing) {
  std::vector<float> out(64);
  const kverify::emu::race::GlobalRegion region(out.data(), out.size() * 4, "out");
  kverify::emu::race::set_enabled(false);
  EXPECT_EQ(race_of([&] { kverify::emu::launch_kernel(neighbour_exchange, 1, 64, 0, nullptr, out.data(), false); }),
            "");
  EXPECT_EQ(kverify::emu::race::status_text(), "off (KVERIFY_EMU_RACE_DETECTOR=off)");
  kverify::emu::race::set_enabled(true);
}

}  // namespace
