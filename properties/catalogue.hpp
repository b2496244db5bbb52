// The property catalogue (docs/properties.md): each property is named, says what it checks, belongs
// to one op, and runs on every production variant of that op and every dtype it takes. Every op
// has the generic properties (reference agreement, tail widths, layouts, each guard, determinism,
// schedule independence: catalogue.cpp); its own come from ops/<op>/properties.cpp. The same bodies
// run as GoogleTest tests (properties/tests/) and from `kverify check`.
#pragma once

#include <map>
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
    // Cases pinned to the variant, those moved inside its declared domain, those it could not take.
    long pinned = 0, moved = 0, outside = 0;
    // Cases that passed with an accuracy note, and the first of them: "<subject>: <note>", its line.
    long noted = 0;
    std::string first_note, first_note_case;
  };
  std::map<std::string, Tally>* tally = nullptr;  // by variant name
};

using PropertyBody = void (*)(const Context& ctx, const OpSpec& op);  // a RapidCheck property body

// A property as an op's folder declares it: the name after "<op>.", what it checks, its body.
struct OpProperty {
  std::string_view name;
  std::string_view checks;
  PropertyBody body;
};

struct Property {
  std::string name;  // "<op>.<property>"
  const OpSpec* op;
  std::string_view checks;
  PropertyBody body;

  void run(const Context& ctx) const { body(ctx, *op); }
};

std::span<const Property> all_properties();
// An op's own properties (generated from the PROPERTIES of kverify_add_op; none: empty).
std::span<const OpProperty> op_own_properties(const OpSpec& op);
const Property* find_property(std::string_view name);

}  // namespace kverify::properties
