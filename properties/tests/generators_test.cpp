// The Case generators cover the Case table: every field of kCaseFields is drawn by case_of or given
// by the property and pinning, exactly once, so a new Case field cannot be left out of the
// property catalogue's Cases.
#include <gtest/gtest.h>

#include <algorithm>
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
