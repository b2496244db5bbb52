// A Case whose launch failed checked nothing: every property of the catalogue must fail on a variant
// whose launcher refuses every Case (row_sum's mutant_refuses_every_case), the guard-only ones
// (canaries, poison, inputs, determinism) included, and none may count such a Case as passed.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <string>

#include "properties/catalogue.hpp"

namespace {

using kverify::properties::Context;

TEST(FailedLaunch, FailsEveryPropertyOfItsOp) {
  int checked = 0;
  for (const auto& p : kverify::properties::all_properties()) {
    if (p.op->name != std::string_view("row_sum")) continue;
    {
      std::map<std::string, Context::Tally> tally;
      const Context ctx{kverify::Backend::emu, std::string("mutant_refuses_every_case"), std::nullopt, &tally};
      const bool held = rc::check(p.name, [&] { p.run(ctx); });
      EXPECT_FALSE(held) << p.name << " passed a variant whose every launch failed";
      for (const auto& [variant, t] : tally)
        EXPECT_EQ(t.passed, 0) << p.name << " counted " << t.passed << " of " << t.cases
                               << " failed launches as passed";
      ++checked;
    }
  }
  EXPECT_GE(checked, 8) << "row_sum has the 8 generic properties at least";
}

}  // namespace
