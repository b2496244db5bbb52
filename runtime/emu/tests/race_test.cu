// The emu race detector (race_detector.hpp) on tiny kernels, each hazard kind planted once and each
// next to the same kernel made correct: the report names the kind, both threads and both source
// lines; the correct kernel launches without one. Compiled for emu through the source rewrite
// (static __shared__ becomes an arena slot) with the detector's instrumentation.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "runtime/emu/detectors/race_detector.hpp"

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

// --- the corpus: each racy kernel next to its race-free twin ----------------------------------------
// The classes kernels get wrong, read-modify-writes among them (a `+=` is a load and a store of one
// address: both must reach the detector), and classic published patterns. `fixed` picks the twin.

// A shared tree reduction whose last step is a read-modify-write of s[0], read by every thread
// with no barrier after it.
__global__ void max_then_broadcast(const float* x, float* out, bool fixed) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  for (unsigned k = 32; k > 1; k /= 2) {
    if (t < k) s[t] = fmaxf(s[t], s[t + k]);
    __syncthreads();
  }
  if (t == 0) s[0] = fmaxf(s[0], s[1]);
  if (fixed) __syncthreads();
  out[t] = x[t] - s[0];
}

// The classic first reduction with the loop's barrier missing: each step's `+=` reads what another
// thread's `+=` of the step before wrote.
__global__ void tree_sum_no_loop_barrier(const float* x, float* out, bool fixed) {
  __shared__ float s[128];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    if (fixed) __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// The pre-Volta warp-synchronous tail: lanes read s[t + o] while other lanes of the warp add into
// it, with nothing that orders lanes (the twin reads into a register, then __syncwarp, then adds).
__global__ void warp_tail_sum(const float* x, float* out, bool fixed) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  s[t + 32] = 0.0f;
  __syncwarp();
  for (unsigned o = 16; o > 0; o /= 2) {
    if (fixed) {
      const float v = s[t + o];
      __syncwarp();
      s[t] += v;
      __syncwarp();
    } else {
      s[t] += s[t + o];
    }
  }
  if (t == 0) out[0] = s[0];
}

// A row split over blocks, each adding its partial into the row's sum: a lost update, whether or
// not a fence follows (the twin adds with atomicAdd).
__global__ void split_row_sum(const float* x, float* sum, unsigned chunk, bool fence, bool fixed) {
  if (threadIdx.x != 0) return;
  float partial = 0.0f;
  for (unsigned c = 0; c < chunk; ++c) partial += x[blockIdx.x * chunk + c];
  if (fixed) {
    atomicAdd(sum, partial);
  } else {
    *sum += partial;
  }
  if (fence) __threadfence();
}

// A shared histogram with a plain increment (the twin: atomicAdd).
__global__ void shared_histogram_increment(const unsigned* values, unsigned* out, bool fixed) {
  __shared__ unsigned bins[8];
  const unsigned t = threadIdx.x;
  if (t < 8) bins[t] = 0;
  __syncthreads();
  if (fixed) {
    atomicAdd(&bins[values[t] % 8], 1u);
  } else {
    ++bins[values[t] % 8];
  }
  __syncthreads();
  if (t < 8) out[blockIdx.x * 8 + t] = bins[t];
}

// A tiled loop with one barrier per tile: the next tile's store overwrites what a slower thread
// still reads of this one (write-after-read; the twin has the second barrier).
__global__ void tiled_dot_single_barrier(const float* x, float* out, unsigned tiles, bool fixed) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (unsigned i = 0; i < tiles; ++i) {
    s[t] = x[i * 64 + t];
    __syncthreads();
    acc += s[(t + 1) % 64];
    if (fixed) __syncthreads();
  }
  out[t] = acc;
}

// Buffers a corpus kernel may read or write, each watched by the detector.
struct CorpusBuffers {
  std::vector<float> x = std::vector<float>(1024, 1.0f), out = std::vector<float>(256);
  std::vector<unsigned> values = std::vector<unsigned>(256), counts = std::vector<unsigned>(64);
  std::vector<unsigned> ticket = std::vector<unsigned>(1);
  float sum = 0.0f;
  kverify::emu::race::GlobalRegion rx{x.data(), x.size() * 4, "x"}, rout{out.data(), out.size() * 4, "out"},
      rvalues{values.data(), values.size() * 4, "values"}, rcounts{counts.data(), counts.size() * 4, "counts"},
      rticket{ticket.data(), 4, "ticket"}, rsum{&sum, 4, "sum"};
  CorpusBuffers() {
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<unsigned>(i * 7 + 3);
  }
};

struct CorpusEntry {
  const char* pattern;
  const char* kind;  // the kind the report must name
  void (*launch)(CorpusBuffers&, bool fixed);
};

const CorpusEntry kRaceCorpus[] = {
    {"two threads of a block exchange through shared memory, no __syncthreads", "intra-block",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(neighbour_exchange, 1, 64, 0, nullptr, b.out.data(), fixed);
     }},
    {"lanes of a warp exchange through shared memory, no __syncwarp", "intra-warp",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(lane_exchange, 1, 32, 0, nullptr, b.out.data(), fixed);
     }},
    {"a tree reduction's last read-modify-write step read with no barrier after it", "intra-block",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(max_then_broadcast, 1, 64, 0, nullptr, b.x.data(), b.out.data(), fixed);
     }},
    {"the classic tree reduction without the loop's __syncthreads", "intra-block",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(tree_sum_no_loop_barrier, 2, 128, 0, nullptr, b.x.data(), b.out.data(), fixed);
     }},
    {"the warp-synchronous tail s[t] += s[t + o] without __syncwarp", "intra-warp",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(warp_tail_sum, 1, 32, 0, nullptr, b.x.data(), b.out.data(), fixed);
     }},
    {"blocks add partials into one sum with +=: a lost update", "cross-block",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(split_row_sum, 4, 32, 0, nullptr, b.x.data(), &b.sum, 16u, false, fixed);
     }},
    {"blocks add partials into one sum with += and a __threadfence: still a lost update", "cross-block",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(split_row_sum, 4, 32, 0, nullptr, b.x.data(), &b.sum, 16u, true, fixed);
     }},
    {"a shared histogram with ++ instead of atomicAdd", "intra-block",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(shared_histogram_increment, 2, 128, 0, nullptr, b.values.data(), b.counts.data(),
                                   fixed);
     }},
    {"a tiled loop with one barrier per tile: the next store overwrites a slower thread's read", "intra-block",
     [](CorpusBuffers& b, bool fixed) {
       kverify::emu::launch_kernel(tiled_dot_single_barrier, 1, 64, 0, nullptr, b.x.data(), b.out.data(), 4u, fixed);
     }},
    {"the last block reads the others' partials without a __threadfence after their writes", "cross-block",
     [](CorpusBuffers& b, bool fixed) {
       b.ticket[0] = 0;
       kverify::emu::launch_kernel(last_block_combines, 8, 32, 0, nullptr, b.x.data(), b.ticket.data(), &b.sum, fixed);
     }},
};

// --- accesses out of bounds ------------------------------------------------------------------------

// Each thread reads its element and the next one, the last thread one past the row (a prefetch whose
// value a select then drops: the output is right, the read is not).
__global__ void next_element_prefetch(const float* x, float* out, unsigned n, bool fixed) {
  const unsigned t = threadIdx.x;
  const float next = fixed && t + 1 == n ? 0.0f : (KV_MARK(line_a), x[t + 1]);
  out[t] = t + 1 < n ? x[t] + next : x[t];
}

// Row r's elements are x[r * stride + c], c < cols: a kernel that reads stride elements per row
// reads the gap.
__global__ void row_sum_over_stride(const float* x, float* out, unsigned cols, unsigned stride, bool fixed) {
  float sum = 0.0f;
  const unsigned width = fixed ? cols : stride;
  for (unsigned c = 0; c < width; ++c) KV_MARK(line_a), sum += x[threadIdx.x * stride + c];
  out[threadIdx.x] = sum;
}

// Dynamic shared memory sized in elements where the launch takes bytes.
__global__ void dynamic_shared_elements_for_bytes(float* out) {
  extern __shared__ float tile[];
  KV_MARK(line_a), tile[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

// A static array one element short of the block.
__global__ void static_shared_one_short(float* out, bool fixed) {
  __shared__ float short_tile[31];
  __shared__ float full_tile[32];
  float* tile = fixed ? full_tile : short_tile;
  KV_MARK(line_a), tile[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

// --- a vector access at an address its type's alignment does not divide ----------------------------

__global__ void float4_sum_at(const float* x, float* out, unsigned offset) {
  KV_MARK(line_a);
  const float4 v = *reinterpret_cast<const float4*>(x + offset);  // 16-byte aligned only when offset % 4 == 0
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

// --- a block that never ends ------------------------------------------------------------------------

__global__ void spin_on_flag(volatile int* flag) {
  while (*flag == 0) {  // nothing sets it, and no __nanosleep yields
  }
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

// The detector measured as a detector: its recall on the corpus's racy kernels and its false alarms
// on their twins, printed, and each racy kernel's report naming the kind of race.
TEST_F(EmuRaceDetector, CorpusRecallAndFalseAlarms) {
  int found = 0, false_alarms = 0;
  const int entries = static_cast<int>(std::size(kRaceCorpus));
  std::printf("%-96s %-8s %s\n", "race corpus: pattern", "racy", "twin");
  for (const CorpusEntry& e : kRaceCorpus) {
    for (std::uint64_t seed : {0, 1}) {  // the default order and a shuffled one
      const kverify::emu::ScheduleScope schedule(seed);
      CorpusBuffers racy, twin;
      const std::string report = race_of([&] { e.launch(racy, false); });
      const std::string twin_report = race_of([&] { e.launch(twin, true); });
      EXPECT_NE(report.find(e.kind), std::string::npos) << e.pattern << " (schedule " << seed << "): " << report;
      EXPECT_EQ(twin_report, "") << e.pattern << " (twin, schedule " << seed << ")";
      if (seed != 0) continue;
      found += !report.empty();
      false_alarms += !twin_report.empty();
      std::printf("%-96s %-8s %s\n", e.pattern, report.empty() ? "MISSED" : "found",
                  twin_report.empty() ? "clean" : "FALSE ALARM");
    }
  }
  std::printf("race corpus: recall %d of %d racy kernels (%.0f %%), false alarms on %d of %d twins\n", found, entries,
              100.0 * found / entries, false_alarms, entries);
  EXPECT_EQ(found, entries);
  EXPECT_EQ(false_alarms, 0);
}

// Reads outside a tensor's elements, past the end or in a gap, with the element map the pipeline
// registers for its images; shared memory past what was declared, statically or at the launch.
TEST_F(EmuRaceDetector, ReportsReadsOutsideATensorsElements) {
  std::vector<float> x(64 + 8, 1.0f), out(64);  // 8 elements of canary after the row
  auto dense = std::make_shared<kverify::emu::race::ElementSlots>();
  dense->origin = reinterpret_cast<std::uintptr_t>(x.data());
  dense->slot_bytes = 4;
  dense->slots = 64;
  {
    const kverify::emu::race::GlobalRegion rx(x.data(), x.size() * 4, "tensor x", dense), rout(out.data(), 256, "out");
    const std::string report = race_of([&] {
      kverify::emu::launch_kernel(next_element_prefetch, 1, 64, 0, nullptr, x.data(), out.data(), 64u, false);
    });
    EXPECT_NE(report.find("out-of-bounds read: in device memory of tensor x"), std::string::npos) << report;
    EXPECT_NE(report.find("thread (63,0,0) of block (0,0,0) read 4 bytes at "), std::string::npos) << report;
    EXPECT_NE(report.find(at_line(line_a)), std::string::npos) << report;
    EXPECT_NE(report.find("past its last element"), std::string::npos) << report;
    EXPECT_EQ(race_of([&] {
                kverify::emu::launch_kernel(next_element_prefetch, 1, 64, 0, nullptr, x.data(), out.data(), 64u, true);
              }),
              "");
  }
  // 8 rows of 5 elements, 8 apart: slots 5, 6, 7 of each row are the gap.
  auto gapped = std::make_shared<kverify::emu::race::ElementSlots>();
  gapped->origin = reinterpret_cast<std::uintptr_t>(x.data());
  gapped->slot_bytes = 4;
  gapped->slots = 7 * 8 + 5;
  gapped->bits.assign(1, 0);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 5; ++c) gapped->bits[0] |= std::uint64_t{1} << (r * 8 + c);
  const kverify::emu::race::GlobalRegion rx(x.data(), x.size() * 4, "tensor x", gapped), rout(out.data(), 256, "out");
  const std::string report = race_of(
      [&] { kverify::emu::launch_kernel(row_sum_over_stride, 1, 8, 0, nullptr, x.data(), out.data(), 5u, 8u, false); });
  EXPECT_NE(report.find("out-of-bounds read"), std::string::npos) << report;
  EXPECT_NE(report.find("in a gap between its elements (element slot 5 "), std::string::npos) << report;
  EXPECT_EQ(race_of([&] {
              kverify::emu::launch_kernel(row_sum_over_stride, 1, 8, 0, nullptr, x.data(), out.data(), 5u, 8u, true);
            }),
            "");
}

TEST_F(EmuRaceDetector, ReportsSharedMemoryAccessesPastWhatWasDeclared) {
  std::vector<float> out(64);
  const kverify::emu::race::GlobalRegion region(out.data(), out.size() * 4, "out");
  // 8 bytes asked for, 64 floats written: thread 2's store is the first past them.
  std::string report =
      race_of([&] { kverify::emu::launch_kernel(dynamic_shared_elements_for_bytes, 1, 64, 8, nullptr, out.data()); });
  EXPECT_NE(report.find("out-of-bounds write: in shared memory extern __shared__"), std::string::npos) << report;
  EXPECT_NE(report.find("past the 8 bytes of dynamic shared memory the launch asked for"), std::string::npos) << report;
  EXPECT_NE(report.find(at_line(line_a)), std::string::npos) << report;
  EXPECT_EQ(race_of([&] {
              kverify::emu::launch_kernel(dynamic_shared_elements_for_bytes, 1, 64, 64 * 4, nullptr, out.data());
            }),
            "");
  report = race_of([&] { kverify::emu::launch_kernel(static_shared_one_short, 1, 32, 0, nullptr, out.data(), false); });
  EXPECT_NE(report.find("out-of-bounds write: in shared memory 'short_tile' (static __shared__, 124 bytes), byte 124"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("thread (31,0,0)"), std::string::npos) << report;
  EXPECT_EQ(race_of([&] { kverify::emu::launch_kernel(static_shared_one_short, 1, 32, 0, nullptr, out.data(), true); }),
            "");
}

// A spin-wait that never yields never returns to the scheduler: the block watch ends the process
// after KVERIFY_EMU_BLOCK_SECONDS with the block, the running thread and its source line.
TEST(EmuBlockWatch, ABlockThatNeverEndsEndsTheProcessSayingWhereItSpins) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process, which reads the limit anew
  EXPECT_EXIT(
      {
        setenv("KVERIFY_EMU_BLOCK_SECONDS", "1", 1);
        int flag = 0;
        kverify::emu::launch_kernel(spin_on_flag, 2, 64, 0, nullptr, &flag);
      },
      ::testing::ExitedWithCode(1),
      "kverify emu: time limit: block \\(0,0,0\\) of a launch of grid \\(2,1,1\\) x block \\(64,1,1\\) \\(thread "
      "\\(0,0,0\\) running, 0 waiting at a barrier or warp collective, 0 ended\\) has run [0-9.]+ s without ending "
      "\\(the limit: 1 s, KVERIFY_EMU_BLOCK_SECONDS\\); the running thread is at [^ ]*race_test.cu:[0-9]+");
}

// A float4 read from an address that is 4- but not 16-byte aligned: the GPU stops the kernel
// ("misaligned address"); on x86 it may run (four scalar loads) or fault, so emu checks the type.
TEST(EmuAlignment, AFloat4AtAFourByteAddressFailsTheLaunchAsTheGpuDoes) {
  if (!kverify::emu::race::instrumented())
    GTEST_SKIP() << "this build's kernels are not instrumented: " << kverify::emu::race::status_text();
  alignas(16) float x[16] = {};
  float out[32] = {};
  try {
    kverify::emu::launch_kernel(float4_sum_at, 1, 32, 0, nullptr, x, out, 1u);
    ADD_FAILURE() << "the misaligned float4 launched without an error";
  } catch (const LaunchError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), LaunchError::Kind::misaligned_address) << what;
    EXPECT_NE(what.find("misaligned address: block (0,0,0) thread (0,0,0): "), std::string::npos) << what;
    EXPECT_NE(what.find("float4' (16-byte aligned) at "), std::string::npos) << what;
    EXPECT_NE(what.find(at_line(line_a + 1)), std::string::npos) << what;
    EXPECT_NE(what.find("is not a multiple of 16"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(kverify::emu::launch_kernel(float4_sum_at, 1, 32, 0, nullptr, x, out, 4u));
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
