// The Case pipeline end to end on emu: the production softmax passes, and each guard fires on a
// kernel planted with the bug it exists for, naming the guard and the place.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "kernels/common/backend_launch.hpp"
#include "kernels/registry.hpp"
#include "kernels/softmax/launchers.inl"  // softmax_args, without KV_BACKEND: no launchers
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"

namespace {

using kverify::Outcome;
using kverify::parse_case;
using kverify::run_case;

bool has_guard(const kverify::Verdict& v, const std::string& guard, const std::string& detail_part = "") {
  for (const auto& g : v.guards)
    if (g.guard == guard && g.detail.find(detail_part) != std::string::npos) return true;
  return false;
}

TEST(RunCase, ProductionSoftmaxPassesAcrossDtypesWidthsAndLayouts) {
  for (const char* dtype : {"f32", "f16", "bf16"})
    for (const char* rest : {"shape=3x1000", "shape=5x1", "shape=2x33 values=negative", "shape=4x129 schedule=7",
                             "shape=3x40 x.strides=64,1 y.strides=1,3 x.offset=5 y.offset=2",
                             "shape=6x31 x.strides=1,6 values=uniform:30", "shape=2x300 values=int:2"}) {
      const std::string line = std::string("op=softmax backend=emu dtype=") + dtype + " " + rest;
      const auto v = run_case(parse_case(line));
      EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
      EXPECT_TRUE(v.guards.empty()) << format(v);
      EXPECT_GT(v.stats.checked, 0);
    }
}

TEST(RunCase, OutOfDomainRowsFollowTheContract) {
  // const:1e38 overflows f16/bf16? no: bf16 keeps it; a NaN/inf row comes from the recipe via f16.
  const auto v = run_case(parse_case("op=softmax backend=emu dtype=f16 shape=2x8 values=const:1e6"));
  // 1e6 rounds to +inf in f16: every row holds +inf, so every output must be NaN (and is checked so).
  EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
  EXPECT_EQ(v.stats.max_row_sum_deviation, -1) << "no finite row to sum";
}

TEST(RunCase, ReproduceLinePinsVariantAndBackend) {
  const auto c = parse_case("op=softmax shape=3x1000 backend=emu");
  std::string why;
  const auto* chosen = kverify::choose_variant(c, &why);
  ASSERT_NE(chosen, nullptr) << why;
  const auto v = run_case(c);
  // The line names the variant auto chose, so a replay runs the same kernel after auto changes.
  EXPECT_EQ(v.reproduce, "op=softmax variant=" + std::string(chosen->name) + " dtype=f32 shape=3x1000 backend=emu");
  EXPECT_EQ(parse_case(v.reproduce).to_text(), v.reproduce);
  EXPECT_NE(format(v).find("reproduce: ./kverify run '" + v.reproduce + "'"), std::string::npos);
}

TEST(RunCase, BadInputIsAnInputErrorNotAVerdict) {
  EXPECT_THROW(run_case(parse_case("op=softmax shape=3x10 variant=nosuch backend=emu")), kverify::InputError);
}

TEST(RunCase, ACaseTheVariantDoesNotTakeIsSkippedWithTheReason) {
  // warp_per_row holds a row in registers: at most 1024 columns. Never a pass, never a fail.
  const auto v = run_case(parse_case("op=softmax shape=3x5000 variant=warp_per_row backend=emu"));
  EXPECT_EQ(v.outcome, Outcome::skipped);
  EXPECT_NE(v.reason.find("takes at most 1024 columns"), std::string::npos) << v.reason;
}

TEST(RunCase, CudaWithoutAGpuIsSkippedWithTheReason) {
  std::string why;
  if (kverify::backend_available(kverify::Backend::cuda, &why)) GTEST_SKIP() << "a GPU is present: nothing to skip";
  const auto v = run_case(parse_case("op=softmax shape=3x10 backend=cuda"));
  EXPECT_EQ(v.outcome, Outcome::skipped);
  EXPECT_NE(v.reason.find("not available"), std::string::npos) << v.reason;
  EXPECT_EQ(v.stats.checked, 0) << "a skip checks nothing and says so";
  // Also in a build without CUDA (the fuzz tree's, the emu-only package's): the same line runs
  // where there is a GPU, so it is not bad input, whether the variant is chosen or named.
  const auto named = run_case(parse_case("op=softmax shape=3x10 variant=block_per_row backend=cuda"));
  EXPECT_EQ(named.outcome, Outcome::skipped) << named.reason;
}

// --- planted bugs (kernels/softmax/mutants): each guard must fire --------------------------------

kverify::Verdict run_mutant(const std::string& mutant, const std::string& line) {
  auto c = parse_case(line);
  c.variant = mutant;
  return run_case(c);
}

TEST(RunCaseGuards, WriteIntoARowGapIsACanaryViolationNamingTheRow) {
  const auto v = run_mutant("mutant_gap_write", "op=softmax backend=emu shape=3x10 y.strides=16,1");
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_TRUE(has_guard(v, "canary", "gap in row 0")) << format(v);
}

TEST(RunCaseGuards, WriteBeforeTheBufferHitsTheFrontCanary) {
  const auto v = run_mutant("mutant_write_before_buffer", "op=softmax backend=emu shape=3x10");
  EXPECT_TRUE(has_guard(v, "canary", "front canary")) << format(v);
}

TEST(RunCaseGuards, AnUnwrittenElementIsNamed) {
  const auto v = run_mutant("mutant_skip_last_column", "op=softmax backend=emu shape=2x7");
  EXPECT_TRUE(has_guard(v, "unwritten", "element (0,6)")) << format(v);
  EXPECT_TRUE(has_guard(v, "unwritten", "element (1,6)")) << format(v);
  EXPECT_EQ(v.outcome, Outcome::fail);
}

// Far layouts: rows 2^31 + 11 elements apart on a 3x5 tensor, a few pages mapped. Every production
// row_sum variant takes it; offsets computed in int wrap 2^32 elements back, into the reserved
// range before the buffer, which the canary check reports.
TEST(RunCaseGuards, FarLayoutsPassProductionKernelsAndCatch32BitOffsets) {
  const std::string far = "op=row_sum backend=emu shape=3x5 x.strides=2147483659,1";
  for (const auto& v : kverify::kernels::row_sum::variants()) {
    const auto verdict = run_case(parse_case(far + " variant=" + std::string(v.name)));
    EXPECT_EQ(verdict.outcome, Outcome::pass) << format(verdict);
  }
  const auto v = run_mutant("mutant_int32_offsets", far);
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_TRUE(has_guard(v, "canary", "bytes before the buffer")) << format(v);
}

TEST(RunCaseGuards, AWriteIntoTheInputIsCaught) {
  const auto v = run_mutant("mutant_writes_x0", "op=softmax backend=emu shape=2x7");
  EXPECT_TRUE(has_guard(v, "input-modified")) << format(v);
}

TEST(RunCaseGuards, ResultsThatDifferBetweenRunsAreNondeterministic) {
  const auto v = run_mutant("mutant_differs_per_run", "op=softmax backend=emu shape=2x7");
  EXPECT_TRUE(has_guard(v, "nondeterministic", "element (0,0)")) << format(v);
}

TEST(RunCaseGuards, ZeroPaddingFailsOnAllNegativeRowsAndNamesTheRows) {
  // Subtracting 0 instead of the max is harmless until exp(x - 0) underflows: rows of -200 do.
  const auto v = run_mutant("mutant_zero_padding", "op=softmax backend=emu shape=3x50 values=const:-200");
  EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
  EXPECT_GT(v.stats.failed, 0);
  EXPECT_EQ(v.stats.failed_rows, 3) << format(v);
  EXPECT_FALSE(v.first_mismatches.empty());
  // The same kernel on inputs whose max is positive passes: the bug needs the right values.
  const auto benign = run_mutant("mutant_zero_padding", "op=softmax backend=emu shape=3x50 values=const:2");
  EXPECT_EQ(benign.outcome, Outcome::pass) << format(benign);
}

TEST(RunCaseGuards, ATrapIsALaunchFailureWithTheThread) {
  const auto v = run_mutant("mutant_trap", "op=softmax backend=emu shape=2x7");
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_TRUE(has_guard(v, "launch", "__trap")) << format(v);
}

}  // namespace
