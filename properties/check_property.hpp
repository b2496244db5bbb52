// One property run through RapidCheck with kverify's seed and budget, and its result in kverify's
// terms: `kverify check` and the mutation self-test both run properties through this.
#pragma once

#include <cstdint>
#include <string>

#include "properties/catalogue.hpp"

namespace kverify::properties {

struct PropertyRun {
  bool passed = true;
  int cases = 0;        // RapidCheck's test cases run (the failing one included)
  std::string failure;  // the shrunk failure: our Verdict, with its reproduce line
};

PropertyRun check_property(const Property& p, const Context& ctx, std::uint64_t seed, int cases);

}  // namespace kverify::properties
