// expect_power_of_two_scaling (property_kit.hpp) must pass a correct normalisation and fail when an
// output does not scale as declared: layernorm's warp_per_row with its true powers (y 0, mean +1,
// rstd -1), then with rstd declared to scale like the mean (planted: no kernel can meet it).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <map>
#include <string>

#include "core/op_spec.hpp"
#include "properties/property_kit.hpp"

namespace {

using kverify::properties::Context;

bool holds(const int (&powers)[3]) {
  std::map<std::string, Context::Tally> tally;
  const Context ctx{kverify::Backend::emu, std::string("warp_per_row"), std::nullopt, &tally};
  return rc::check("scaling", [&] {
    kverify::properties::expect_power_of_two_scaling(ctx, *kverify::find_op("layernorm"), powers, 1e-12);
  });
}

TEST(PowerOfTwoScaling, PassesTheTruePowersAndFailsAPlantedOne) {
  setenv("RC_PARAMS", "max_success=5 seed=2026 verbose_progress=0 verbose_shrinking=0", 0);
  EXPECT_TRUE(holds({0, 1, -1}));
  EXPECT_FALSE(holds({0, 1, 1}));
}

}  // namespace
