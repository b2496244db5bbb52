// The cells a shard of `report --gpus` hands to the merging process come back field for field and
// bit for bit, infinities, NaN, -0 and subnormals included: the merged report is the one a single
// process writes.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "report/writer.hpp"

namespace kverify {
namespace {

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

TEST(ReportExchange, CellsComeBackBitForBit) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  ReportCell c;
  c.op = "softmax";
  c.variant = "rows_vec";
  c.dtype = "bf16";
  c.width = 1025;
  c.shape = "3x1025";
  c.elements = 3075;
  c.abs = {0.1, 0x1p-1074, -0.0};
  c.rel = {inf, 1.0 / 3.0, 0};
  c.ulp = {nan, 7, 2.5};
  c.margin = inf;
  c.baseline_kernel = 5.83655;
  c.baseline_eager = 0;
  c.baseline_ratio = inf;
  c.baseline_share = 0.123456789012345678;
  c.policy = "softmax bf16: |err| <= ...\twith a tab";
  c.pass = false;
  c.worst_case = "op=softmax variant=rows_vec dtype=bf16 shape=3x1025 backend=emu";
  c.worst_row = 2;
  c.worst_col = 1024;
  c.cases = {{"op=softmax shape=3x1025", "normal", true, "", 7, 0.5},
             {"op=softmax shape=3x1025 values=special", "special", false, "\"quoted\" reason", inf, nan}};
  c.seconds = 0.75;
  const auto back = cells_from_exchange(cells_exchange_text({{17, c}, {3, c}}), "test");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].first, 17u);
  EXPECT_EQ(back[1].first, 3u);
  const ReportCell& d = back[0].second;
  EXPECT_EQ(d.op, c.op);
  EXPECT_EQ(d.variant, c.variant);
  EXPECT_EQ(d.dtype, c.dtype);
  EXPECT_EQ(d.width, c.width);
  EXPECT_EQ(d.shape, c.shape);
  EXPECT_EQ(d.elements, c.elements);
  for (auto [a, b] : {std::pair{d.abs, c.abs}, std::pair{d.rel, c.rel}, std::pair{d.ulp, c.ulp}}) {
    EXPECT_EQ(bits(a.max), bits(b.max));
    EXPECT_EQ(bits(a.p99), bits(b.p99));
    EXPECT_EQ(bits(a.median), bits(b.median));
  }
  for (auto [a, b] : {std::pair{d.margin, c.margin}, std::pair{d.baseline_kernel, c.baseline_kernel},
                      std::pair{d.baseline_eager, c.baseline_eager}, std::pair{d.baseline_ratio, c.baseline_ratio},
                      std::pair{d.baseline_share, c.baseline_share}, std::pair{d.seconds, c.seconds}})
    EXPECT_EQ(bits(a), bits(b));
  EXPECT_EQ(d.policy, c.policy);
  EXPECT_EQ(d.pass, c.pass);
  EXPECT_EQ(d.worst_case, c.worst_case);
  EXPECT_EQ(d.worst_row, c.worst_row);
  EXPECT_EQ(d.worst_col, c.worst_col);
  ASSERT_EQ(d.cases.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(d.cases[i].line, c.cases[i].line);
    EXPECT_EQ(d.cases[i].recipe, c.cases[i].recipe);
    EXPECT_EQ(d.cases[i].pass, c.cases[i].pass);
    EXPECT_EQ(d.cases[i].reason, c.cases[i].reason);
    EXPECT_EQ(bits(d.cases[i].max_ulp), bits(c.cases[i].max_ulp));
    EXPECT_EQ(bits(d.cases[i].margin), bits(c.cases[i].margin));
  }
}

TEST(ReportExchange, SomethingElseIsRefusedNamingTheFile) {
  try {
    cells_from_exchange("[{\"index\": 1}]", "shard-1.json");
    FAIL() << "accepted a cell-less entry";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("shard-1.json is not a shard's cells"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cells_from_exchange("not json", "x"), std::runtime_error);
}

}  // namespace
}  // namespace kverify
