// The planning of huge Cases (gpu/huge_plan.hpp): memory estimates, the refusal, the sampled rows
// (pipeline/sampled_check.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "core/dtype.hpp"
#include "gpu/huge_plan.hpp"
#include "pipeline/sampled_check.hpp"

namespace kverify {
namespace {

TEST(HugePlan, MemoryNeedCountsEveryGuardedBuffer) {
  const Case c = parse_case("op=softmax dtype=f32 shape=65536x32769");
  const MemoryNeed need = huge_memory_need(c, 0);
  const std::uint64_t tensor = std::uint64_t{65536} * 32769 * 4;  // x and y, 8 GiB each
  EXPECT_GE(need.device, 2 * tensor);
  EXPECT_LE(need.device, 2 * tensor + (128ull << 20));
  EXPECT_GE(need.host, 2 * tensor + 2 * (tensor / 4) / 8);  // + the element bitmaps
}

TEST(HugePlan, PaddedStridesCountTheirFootprint) {
  const Case dense = parse_case("op=gelu_tanh dtype=bf16 shape=1000x1000");
  const Case padded = parse_case("op=gelu_tanh dtype=bf16 shape=1000x1000 x.strides=4000,1");
  EXPECT_EQ(huge_memory_need(padded, 0).device,
            huge_memory_need(dense, 0).device + 2 * (999 * 4000 + 1000 - 1000 * 1000));
}

TEST(HugePlan, RefusesWhatDoesNotFitWithTheNumbers) {
  setenv("KVERIFY_MEMORY_LIMIT_GIB", "1", 1);
  const auto refusal =
      memory_refusal(huge_memory_need(parse_case("op=gelu_tanh dtype=bf16 shape=32768x65537"), 0), Backend::emu);
  unsetenv("KVERIFY_MEMORY_LIMIT_GIB");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("needs 8."), std::string::npos) << *refusal;
  EXPECT_NE(refusal->find("1.0 GiB available"), std::string::npos) << *refusal;
  EXPECT_FALSE(memory_refusal(huge_memory_need(parse_case("op=gelu_tanh shape=4x4"), 0), Backend::emu).has_value());
}

TEST(HugePlan, SampledRowsHoldTheEdgesAndTheWrapRows) {
  const Case c = parse_case("op=softmax dtype=f32 shape=65536x32769");
  const auto rows = sampled_rows(c, SampleOptions{0, 10, 1});
  ASSERT_FALSE(rows.empty());
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end());
  for (std::int64_t want : {0ll, 1ll, 32768ll, 65532ll, 65533ll, 65534ll, 65535ll})
    EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), want)) << want;
  // Element 2^31 and byte offset 2^32 (element 2^30 in f32) lie in these rows of 32769 columns.
  EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), (std::int64_t{1} << 31) / 32769));
  EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), (std::int64_t{1} << 30) / 32769));
  EXPECT_LE(rows.size(), 23u);                                // 2 + 1 + 4 edge rows, 6 wrap rows, 10 random
  EXPECT_EQ(rows, sampled_rows(c, SampleOptions{0, 10, 1}));  // seeded: the same rows every time
}

TEST(HugePlan, SampledRowsOfMatmulAreRowsOfC) {
  const Case c = parse_case("op=matmul_relu shape=524289x4096x8");
  const auto rows = sampled_rows(c, SampleOptions{0, 0, 1});
  EXPECT_EQ(rows.back(), 524288);
  EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), (std::int64_t{1} << 31) / 4096));
}

TEST(HugePlan, EveryHugeCaseIsPast2To31ElementsAndEveryOpHasOne) {
  std::set<std::string> ops;
  for (const auto& line : huge_case_lines()) {
    const Case c = parse_case(line);
    std::int64_t largest = 0;
    for (int t = 0; t < c.op->tensor_count(); ++t) largest = std::max(largest, c.layout(t).elements());
    EXPECT_GT(largest, std::int64_t{1} << 31) << line;
    ops.insert(std::string(c.op->name));
  }
  EXPECT_EQ(ops.size(), all_ops().size());
}

}  // namespace
}  // namespace kverify
