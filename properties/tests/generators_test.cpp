// The Case generators cover the Case table: every field of kCaseFields is drawn by case_of or given
// by the property and pinning, exactly once, so a new Case field cannot be left out of the
// property catalogue's Cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "properties/generators.hpp"

TEST(Generators, EveryCaseFieldIsDrawnOrGivenOnce) {
  std::vector<std::string> table, drawn;
  for (const auto& f : kverify::kCaseFields) table.emplace_back(f.key);
  for (auto key : kverify::properties::generator_fields()) drawn.emplace_back(key);
  std::sort(table.begin(), table.end());
  std::sort(drawn.begin(), drawn.end());
  EXPECT_EQ(drawn, table);
}

// Far layouts are drawn for tensors of few rows (or few columns): some row (column) stride past
// 2^31 elements, so a 32-bit offset is caught by the catalogue on emu.
TEST(Generators, FarLayoutsAreDrawnOnTensorsOfFewRowsOrColumns) {
  using kverify::properties::kFarStride;
  const auto far_draws = [](std::int64_t rows, std::int64_t cols) {
    int far = 0;
    const auto gen = kverify::properties::placement(rows, cols, true);
    for (int i = 0; i < 400; ++i) {
      const auto p = gen(rc::Random(static_cast<std::uint64_t>(i) + 1), rc::kNominalSize).value();
      far += p.strides && ((*p.strides)[0] >= kFarStride || (*p.strides)[1] >= kFarStride);
    }
    return far;
  };
  EXPECT_GT(far_draws(3, 5), 20);
  EXPECT_GT(far_draws(1000, 2), 20);
  EXPECT_EQ(far_draws(1000, 1000), 0) << "no far layout where every line would cost 8 GiB of address space";
}
