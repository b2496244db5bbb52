// The register-resident and vectorized variants (softmax rows_vec / block_regs / cluster_bulk, row_sum rows_vec /
// split_vec): every template instantiation a launcher can pick (lanes per row G, vectors per
// thread P, cluster size C) is reached by some width here, each on the 16-byte vector path (dense,
// aligned rows) and on the any-layout V = 1 path (offsets, column strides, misaligned row
// strides), in every dtype; auto picks them where reports/h200/perf.md says; the launchers' vector-path
// test and split plan are checked directly. The cluster variant runs only on cuda (skipped here
// with the reason; KVERIFY_REQUIRE_GPU=1 makes that a failure).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/common/backend_launch.hpp"
#include "kernels/registry.hpp"
#include "kernels/row_sum/launchers.inl"  // split_vec_plan; no KV_BACKEND: host helpers only
#include "kernels/softmax/launchers.inl"  // softmax_vector_path, regs_per_thread
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"
#include "pipeline/tests/require_backend.hpp"

namespace {

// The asan flavor runs a subset (this file's full run took 6 minutes under ASan on a 2-core CI
// machine): at most 9 rows (still a partial last block), widths up to 4096 and the first three
// layouts (the vector path, padded rows, the V = 1 path); the plain flavor runs all of them.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif
constexpr long long kAsanWidestRow = 4096, kAsanRows = 9;
constexpr std::size_t kLayouts = 5, kAsanLayouts = 3;

using kverify::Backend;
using kverify::Outcome;

// Layout suffixes: the first two keep the vector path, the others take the V = 1 path.
std::vector<std::string> layouts_for(long long rows, long long cols) {
  const long long padded = (cols + 8) / 8 * 8 + 8;  // a row stride that keeps 16-byte rows for every dtype
  return {
      "",
      " x.strides=" + std::to_string(padded) + ",1 y.strides=" + std::to_string(padded) + ",1 x.offset=8 y.offset=16",
      " x.offset=1", " x.strides=" + std::to_string(cols + 1) + ",1 y.offset=3",
      " x.strides=1," + std::to_string(rows)};  // column-major input
}

int run_widths(const char* op, const char* variant, const std::vector<long long>& widths, long long rows,
               Backend backend, const char* values = "normal:3") {
  int ran = 0;
  if (kUnderAsan && backend == Backend::emu) rows = std::min(rows, kAsanRows);
  for (const char* dtype : {"f32", "f16", "bf16"})
    for (long long w : widths) {
      if (kUnderAsan && backend == Backend::emu && w > kAsanWidestRow) continue;
      const auto layouts = layouts_for(rows, w);
      for (std::size_t l = 0; l < layouts.size(); ++l) {
        const std::string& layout = layouts[l];
        if (kUnderAsan && backend == Backend::emu && l >= kAsanLayouts) continue;
        // The column-major input only at narrow widths, where emu stays quick.
        if (layout.starts_with(" x.strides=1,") && w > 4096) continue;
        const std::string line = std::string("op=") + op + " dtype=" + dtype + " values=" + values +
                                 " shape=" + std::to_string(rows) + "x" + std::to_string(w) + layout;
        auto c = kverify::parse_case(line);
        c.variant = variant;
        c.backend = backend;
        const auto* v = kverify::find_variant(op, variant);
        EXPECT_NE(v, nullptr) << op << "/" << variant;
        if (!v) return ran;
        if (auto problem = kverify::unsupported(*v, c, backend)) {
          ADD_FAILURE() << "the test asked for a Case " << variant << " should take: " << *problem;
          continue;
        }
        const auto verdict = kverify::run_case(c);
        EXPECT_EQ(verdict.outcome, Outcome::pass) << format(verdict);
        EXPECT_TRUE(verdict.guards.empty()) << format(verdict);
        ++ran;
      }
    }
  return ran;
}

// rows_vec: G = 1, 2, 4, 8, 16 (P = 1) and G = 32 with P = 1 .. 32 / V; 37 rows leave dead groups
// in the last block for every G < 32.
const std::vector<long long> kRowsVecWidths = {1,   2,   3,   5,   8,   9,   16,  17,  31,   33,   64,  65,
                                               127, 128, 129, 255, 257, 511, 512, 513, 1000, 1023, 1024};
// block_regs: P from 1 to 32 / V (and 16, 32 on the V = 1 path), 32 to 1024 threads.
const std::vector<long long> kBlockRegsWidths = {1, 100, 1024, 2049, 4096, 8193, 16384, 20000, 32768};

TEST(SoftmaxRegisterVariants, RowsVecEveryGroupWidthAndDepthOnEmu) {
  EXPECT_EQ(run_widths("softmax", "rows_vec", kRowsVecWidths, 37, Backend::emu),
            3 * 23 * (kUnderAsan ? kAsanLayouts : kLayouts));
}

TEST(SoftmaxRegisterVariants, BlockRegsEveryDepthOnEmu) {
  EXPECT_GT(run_widths("softmax", "block_regs", kBlockRegsWidths, 3, Backend::emu), 0);
}

TEST(SoftmaxRegisterVariants, OutOfDomainRowsAtVectorWidths) {
  // values=special: a NaN row, a +inf row, an all -inf row, every third -inf, masked rows (vec_io pads with
  // -inf for the max and 0 for the sum; the rows must still come out as the contract says).
  for (const char* variant : {"rows_vec", "block_regs"})
    EXPECT_GT(run_widths("softmax", variant, {7, 128, 1024}, 8, Backend::emu, "special"), 0);
}

TEST(SoftmaxRegisterVariants, AllVariantsOnCuda) {
  KV_REQUIRE_BACKEND(Backend::cuda);
  run_widths("softmax", "rows_vec", kRowsVecWidths, 37, Backend::cuda);
  run_widths("softmax", "block_regs", kBlockRegsWidths, 3, Backend::cuda);
  // cluster_bulk: clusters of 1 to 16 blocks, 1 to 16 vectors per thread, rows' partial last
  // vectors, slices that get no columns (33: one vector per block is the most a 16-block
  // cluster could take, the plan gives it one block), the widest 786432 (one stage of 192 KiB).
  run_widths("softmax", "cluster_bulk", {1, 33, 1024, 8193, 32768, 32769, 65536, 100003, 262144, 262147, 786432}, 3,
             Backend::cuda);
  run_widths("softmax", "cluster_bulk", {5, 1024, 65536, 262144}, 8, Backend::cuda, "special");
  // Parts of a row far below its max (a later slice of a falling ramp, threads of widely spread
  // values): the kept exps' rescale exp(m - M) times 2^-64 / S leaves the f32 range while the
  // outputs are still in bf16's.
  run_widths("softmax", "cluster_bulk", {65536, 262144}, 2, Backend::cuda, "ramp:-0.002");
  run_widths("softmax", "cluster_bulk", {257, 1024, 65536}, 3, Backend::cuda, "negative:300");
}

// cluster_bulk's plans (host only): the bench widths take the plans the H200 sweeps chose
// (reports/h200/perf.md Versions 5, 10 and 12), all with their exps kept; KVERIFY_BULK_PLAN takes
// one the launcher can run or fails with the accepted form.
TEST(ClusterBulkPlan, BenchWidthsTakeTheirMeasuredPlansWithKeptExps) {
  using kverify::kernels::softmax::bulk_plan;
  unsetenv("KVERIFY_BULK_PLAN");
  struct Expected {
    long long cols;
    std::size_t bytes;
    int cluster, threads, stages;
  };
  for (const Expected& e :
       {Expected{16384, 2, 1, 256, 3}, Expected{65536, 2, 2, 512, 2}, Expected{262144, 2, 16, 256, 2},
        Expected{65536, 4, 4, 512, 2}, Expected{262144, 4, 16, 256, 1}}) {
    const auto plan = bulk_plan(e.cols, e.bytes);
    EXPECT_EQ(plan.cluster, e.cluster) << e.cols << " x " << e.bytes << " bytes";
    EXPECT_EQ(plan.threads, e.threads) << e.cols << " x " << e.bytes << " bytes";
    EXPECT_EQ(plan.stages, e.stages) << e.cols << " x " << e.bytes << " bytes";
    EXPECT_TRUE(plan.keep_exps) << e.cols << " x " << e.bytes << " bytes";
  }
  // 786432 f32 columns: 16 slices of 192 KiB, 16 vectors per thread of 768 threads: recomputed.
  EXPECT_FALSE(bulk_plan(786432, 4).keep_exps);
}

TEST(ClusterBulkPlan, AForcedPlanIsOneTheLauncherCanRunOrAnError) {
  using kverify::kernels::softmax::bulk_plan;
  const auto forced = [](const char* value, long long cols, std::size_t bytes) {
    setenv("KVERIFY_BULK_PLAN", value, 1);
    const auto plan = bulk_plan(cols, bytes);
    unsetenv("KVERIFY_BULK_PLAN");
    return plan;
  };
  const auto two = forced("2,128,1", 16384, 2);
  EXPECT_EQ(two.cluster, 2);
  EXPECT_EQ(two.threads, 128);
  EXPECT_EQ(two.stages, 1);
  EXPECT_TRUE(two.keep_exps);                             // left out: kept where the plan allows
  EXPECT_FALSE(forced("1,256,3,0", 16384, 2).keep_exps);  // recomputed on request
  EXPECT_FALSE(forced("1,1024,1", 32768, 2).keep_exps);   // 1024 threads: more than kept exps allow
  for (const char* malformed : {"", "1,256", "1,256,2,2", "17,256,1", "1,16,1", "1,256,5", "1,256,2,1x", "a,b,c"}) {
    setenv("KVERIFY_BULK_PLAN", malformed, 1);
    try {
      bulk_plan(16384, 2);
      ADD_FAILURE() << "KVERIFY_BULK_PLAN='" << malformed << "' was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("expected cluster,threads,stages[,keep]"), std::string::npos) << e.what();
    }
  }
  // Kept exps asked of a plan that cannot hold them: the reason, not a silent recompute.
  setenv("KVERIFY_BULK_PLAN", "1,1024,1,1", 1);
  try {
    bulk_plan(32768, 2);
    ADD_FAILURE() << "kept exps in blocks of 1024 threads were taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot keep the exps"), std::string::npos) << e.what();
  }
  unsetenv("KVERIFY_BULK_PLAN");
}

TEST(RowSumVectorVariants, RowsVecAndSplitVecOnEmu) {
  EXPECT_EQ(run_widths("row_sum", "rows_vec", kRowsVecWidths, 37, Backend::emu),
            3 * 23 * (kUnderAsan ? kAsanLayouts : kLayouts));
  // split_vec: one split (narrow or many rows), several (few wide rows), chunk tails.
  EXPECT_GT(run_widths("row_sum", "split_vec", {1, 1000, 2047, 2048, 5000, 40000}, 3, Backend::emu), 0);
  if (!kUnderAsan) EXPECT_GT(run_widths("row_sum", "split_vec", {262144}, 1, Backend::emu), 0);
  // Integer values: exact mode, the result's bits must be the exact sum's.
  EXPECT_GT(run_widths("row_sum", "split_vec", {kUnderAsan ? 4000 : 40000}, 2, Backend::emu, "int:3"), 0);
  EXPECT_GT(run_widths("row_sum", "rows_vec", {1000}, 5, Backend::emu, "int:3"), 0);
}

TEST(RowSumVectorVariants, OnCuda) {
  KV_REQUIRE_BACKEND(Backend::cuda);
  run_widths("row_sum", "rows_vec", kRowsVecWidths, 37, Backend::cuda);
  run_widths("row_sum", "split_vec", {1, 1000, 2047, 2048, 5000, 40000}, 3, Backend::cuda);
  run_widths("row_sum", "split_vec", {262144, 1 << 22}, 1, Backend::cuda);
}

std::string auto_choice(const std::string& line) {
  const auto c = kverify::parse_case(line);
  std::string why;
  const auto* v = kverify::choose_variant(c, &why);
  return v ? std::string(v->name) : "none: " + why;
}

TEST(VectorVariantsAuto, PicksThemWhereThePerfLogSays) {
  for (const char* dtype : {" dtype=f32", " dtype=bf16"}) {
    const std::string e = std::string(" backend=emu") + dtype;
    EXPECT_EQ(auto_choice("op=softmax shape=4x32" + e), "rows_vec");
    EXPECT_EQ(auto_choice("op=softmax shape=4x1024" + e), "rows_vec");
    EXPECT_EQ(auto_choice("op=softmax shape=4x4096" + e), "block_regs");
    EXPECT_EQ(auto_choice("op=softmax shape=4x32768" + e), "block_regs");
    EXPECT_EQ(auto_choice("op=softmax shape=4x16384" + e), "block_regs") << "cluster_bulk cannot run on emu";
    EXPECT_EQ(auto_choice("op=softmax shape=4x65536" + e), "online") << "cluster_bulk cannot run on emu";
    EXPECT_EQ(auto_choice("op=row_sum shape=4x32" + e), "rows_vec");
    EXPECT_EQ(auto_choice("op=row_sum shape=4x1000" + e), "rows_vec");
    EXPECT_EQ(auto_choice("op=row_sum shape=1x262144" + e), "split_vec");
    EXPECT_EQ(auto_choice("op=row_sum shape=1024x262144" + e), "split_vec");
  }
  if (kverify::backend_available(Backend::cuda, nullptr)) {
    EXPECT_EQ(auto_choice("op=softmax shape=4x16384 backend=cuda"), "block_regs");
    EXPECT_EQ(auto_choice("op=softmax shape=4x16384 dtype=bf16 backend=cuda"), "cluster_bulk");
    EXPECT_EQ(auto_choice("op=softmax shape=4x8192 dtype=f16 backend=cuda"), "block_regs");
    EXPECT_EQ(auto_choice("op=softmax shape=4x65536 backend=cuda"), "cluster_bulk");
    EXPECT_EQ(auto_choice("op=softmax shape=4x786432 backend=cuda"), "cluster_bulk");
    EXPECT_EQ(auto_choice("op=softmax shape=4x786433 backend=cuda"), "online");
  }
}

// The launchers' own test on the device pointers: only unit-stride rows that all start on a
// 16-byte boundary take vectors.
TEST(VectorVariantsPlan, VectorPathNeedsUnitStrideAndAlignedRows) {
  using kverify::Layout2D;
  using kverify::kernels::vector_rows_ok;
  EXPECT_TRUE(vector_rows_ok(Layout2D{3, 10, 12, 1, 0}, 256, 4));       // 48-byte rows
  EXPECT_FALSE(vector_rows_ok(Layout2D{3, 10, 10, 1, 0}, 256, 4));      // 40-byte rows: row 1 misaligned
  EXPECT_TRUE(vector_rows_ok(Layout2D{1, 10, 10, 1, 0}, 256, 4));       // one row: its stride never used
  EXPECT_FALSE(vector_rows_ok(Layout2D{3, 10, 24, 2, 0}, 256, 4));      // column stride 2
  EXPECT_TRUE(vector_rows_ok(Layout2D{3, 1, 8, 5, 0}, 256, 2));         // one column: its stride never used
  EXPECT_FALSE(vector_rows_ok(Layout2D{3, 16, 16, 1, 0}, 256 + 8, 4));  // start 8 bytes off
  EXPECT_TRUE(vector_rows_ok(Layout2D{3, 16, 24, 1, 0}, 256, 2));       // 48-byte bf16 rows
}

// split_vec's plan: chunks are whole 16-byte vectors for every dtype, the splits cover the row
// exactly, and each element's addition depth stays within ops/row_sum/reference.cpp's allowance
// (ceil(n/256) + 16 beyond 1024 columns, more below): ceil(chunk / 256) per-thread additions
// (V = 1, the worst), 3 for the pairwise vector sum, 5 + 3 for the block, and ceil(S/32) + 5 for
// the combine when there are S > 1 splits. The bench shapes fill 132 SMs with >= 1056 blocks.
TEST(VectorVariantsPlan, SplitVecPlanCoversRowsWithinTheDepthBound) {
  using kverify::kernels::row_sum::split_vec_plan;
  for (long long rows : {1LL, 2LL, 16LL, 100LL, 1024LL, 300000LL})
    for (long long cols :
         {1LL, 7LL, 1024LL, 1025LL, 2047LL, 2048LL, 4097LL, 65536LL, 1000003LL, 1LL << 24, 1LL << 28}) {
      const auto plan = split_vec_plan(rows, cols);
      EXPECT_EQ(plan.chunk % 8, 0) << rows << "x" << cols;
      EXPECT_GE(plan.splits, 1);
      EXPECT_LE(plan.splits, 1024);
      EXPECT_GE(plan.splits * plan.chunk, cols);
      EXPECT_LT((plan.splits - 1) * plan.chunk, cols) << "an empty split";
      // No term of a sum of n passes through more than n - 1 additions, whatever the tree.
      const double depth =
          std::min(static_cast<double>(cols - 1),
                   std::ceil(plan.chunk / 256.0) + 3 + 8 + (plan.splits > 1 ? std::ceil(plan.splits / 32.0) + 5 : 0));
      const double narrow = std::ceil(cols / 32.0) + 5, wide = std::ceil(cols / 256.0) + 16;
      const double allowed = std::min(static_cast<double>(cols), cols <= 1024 ? std::max(narrow, wide) : wide);
      EXPECT_LE(depth, allowed) << rows << "x" << cols;
    }
  for (auto [rows, cols] : {std::pair{1LL, 1LL << 28}, {16LL, 1LL << 24}, {1024LL, 1LL << 18}})
    EXPECT_GE(rows * split_vec_plan(rows, cols).splits, 1024) << rows << "x" << cols;
}

}  // namespace
