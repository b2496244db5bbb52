// The property catalogue (../shared/DESIGN.md "Property catalogue"): each property is named, says
// what it checks, applies to one op or to all, and runs on every production variant of that op and
// every dtype it takes. The same bodies run as RC_GTEST_PROP tests (properties/tests/) and from
// `kverify check`.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/case.hpp"

namespace kverify::properties {

// Where and on what a property runs, and what it saw.
struct Context {
  Backend backend = Backend::emu;
  std::optional<std::string> variant;  // only this variant
  std::optional<DType> dtype;          // only this dtype
  struct Tally {
    long cases = 0, passed = 0;
    double worst_margin = 0;
  };
  std::map<std::string, Tally>* tally = nullptr;  // by variant name
};

struct Property {
  std::string_view name;  // e.g. "softmax.shift_invariance"
  std::string_view op;    // "" for every op
  std::string_view checks;
  void (*body)(const Context&);  // a RapidCheck property body (uses *gen and RC_ macros)
};

std::span<const Property> all_properties();
const Property* find_property(std::string_view name);

}  // namespace kverify::properties
