// The Case: everything needed to reproduce one check, with one canonical one-line text form.
//
//   op=softmax dtype=f32 shape=4x1000 values=normal seed=7 backend=emu
//
// Every field is a row of kCaseFields (key, form, default, meaning); the parser, the printer,
// `kverify help case` and the README's field list all come from that table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "core/layout.hpp"
#include "core/values.hpp"
#include "ops/op_spec.hpp"

namespace kverify {

enum class Backend : std::uint8_t { automatic, emu, cuda };
std::string_view name(Backend b);

// Where one tensor lives in its buffer; absent strides mean contiguous row-major.
struct Placement {
  std::optional<std::pair<std::int64_t, std::int64_t>> strides;
  std::int64_t offset = 0;
  friend bool operator==(const Placement&, const Placement&) = default;
};

struct Case {
  const OpSpec* op = nullptr;
  std::string variant = "auto";
  DType dtype = DType::f32;
  std::vector<std::int64_t> shape;
  std::array<Placement, 3> placement;  // indexed like op->tensors()
  ValueRecipe values;
  std::uint64_t seed = 0;
  Backend backend = Backend::automatic;
  std::uint64_t schedule = 0;

  // Logical rows x cols of tensor `t` and its layout (placement applied).
  Layout2D layout(int t) const;
  std::string to_text() const;
  // This Case on backend `b`: a thread order (schedule) is emu's to choose, so elsewhere it is 0.
  void run_on(Backend b) {
    backend = b;
    if (b != Backend::emu) schedule = 0;
  }

  friend bool operator==(const Case&, const Case&) = default;
};

// Parses a Case line; throws InputError with one line naming the bad token.
Case parse_case(std::string_view line);

struct CaseField {
  std::string_view key;  // "<t>" stands for a tensor name of the op (x, y, a, b, c)
  std::string_view form;
  std::string_view default_text;
  std::string meaning;
};
extern const std::vector<CaseField> kCaseFields;

// The field table as Markdown (README) or plain text (--help).
std::string case_fields_help(bool markdown);

}  // namespace kverify
