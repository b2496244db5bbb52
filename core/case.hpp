// The Case: everything needed to reproduce one check, with one canonical one-line text form.
//
//   op=softmax dtype=f32 shape=4x1000 values=normal seed=7 backend=emu
//   op=layernorm dims=N:4,C:1000 x.strides=1024,1 eps=1e-05 values=normal:100 backend=emu
//
// Every field is a row of kCaseFields (key, form, default, meaning); the parser, the printer,
// `kverify help case` and the README's field list all come from that table.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "core/layout.hpp"
#include "core/op_spec.hpp"
#include "core/values.hpp"

namespace kverify {

enum class Backend : std::uint8_t { automatic, emu, cuda };
std::string_view name(Backend b);

// A tensor's strides in elements, one per dimension (a rank-2 tensor's: row stride, column stride).
struct Strides {
  std::array<std::int64_t, kMaxRank> v{};
  int rank = 0;
  Strides() = default;
  Strides(std::initializer_list<std::int64_t> s) {
    for (const std::int64_t x : s) v[static_cast<std::size_t>(rank++)] = x;
  }
  std::int64_t operator[](int d) const { return v[static_cast<std::size_t>(d)]; }
  std::int64_t& operator[](int d) { return v[static_cast<std::size_t>(d)]; }
  friend bool operator==(const Strides&, const Strides&) = default;
};

// Where one tensor lives in its buffer; absent strides mean contiguous row-major.
struct Placement {
  std::optional<Strides> strides;
  std::int64_t offset = 0;
  friend bool operator==(const Placement&, const Placement&) = default;
};

struct Case {
  const OpSpec* op = nullptr;
  std::string variant = "auto";
  DType dtype = DType::f32;
  std::vector<std::int64_t> shape;                       // one size per dimension, in op->dims order
  std::array<Placement, kMaxTensors> placement;          // indexed like op->tensors
  std::array<std::optional<double>, kMaxParams> params;  // indexed like op->params; absent: the default
  ValueRecipe values;
  std::uint64_t seed = 0;
  Backend backend = Backend::automatic;
  std::uint64_t schedule = 0;

  // Tensor t's sizes (from the op's dimensions) and its placement in its buffer.
  Layout layout(int t) const;
  // Parameter p's value (its default when the Case does not give it).
  double param(int p) const;
  // The size of the op's dimension named `dim` (throws std::out_of_range for a name it lacks).
  std::int64_t size(std::string_view dim) const;
  std::string to_text() const;
  // This Case on backend `b`: a thread order (schedule) is emu's to choose, so elsewhere it is 0.
  void run_on(Backend b) {
    backend = b;
    if (b != Backend::emu) schedule = 0;
  }

  friend bool operator==(const Case&, const Case&) = default;
};

// How the elements of input tensor t are drawn: the Case's recipe, or the tensor's declared draw
// (indices into a dimension, masks). Set row and col of the result to an element's logical
// position; recipe_math::value gives its value, on the host and on the device alike.
recipe_math::Draw input_draw(const Case& c, int t);

// Tensor t's element type in this Case (the storage dtype, or the one the op fixes).
inline DType tensor_dtype(const Case& c, int t) {
  return element_dtype(c.op->tensors[static_cast<std::size_t>(t)].element, c.dtype);
}
// Every output's elements, added.
std::int64_t output_elements(const Case& c);
// Whether a dimension of the Case is past 65535, the most blocks grid.y (and a grid a launcher
// caps) holds: the Cases that find a missing grid-stride loop, and the ones emu runs block by block
// for seconds (65537 rows of a block-per-row kernel are 65537 blocks).
bool past_grid_limits(const Case& c);

// Parses a Case line; throws InputError with one line naming the bad token. The ops it knows are
// the op table's, or `ops` (a test's own declarations).
Case parse_case(std::string_view line);
Case parse_case(std::string_view line, std::span<const OpSpec* const> ops);

struct CaseField {
  std::string_view key;  // "<t>" stands for a tensor name of the op (x, y, a, b, c), "<p>" for a parameter
  std::string_view form;
  std::string_view default_text;
  std::string meaning;
};
extern const std::vector<CaseField> kCaseFields;

// The field table as Markdown (README) or plain text (--help).
std::string case_fields_help(bool markdown);

}  // namespace kverify
