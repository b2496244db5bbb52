// A variant's declared domain: the layouts, alignments and shapes it accepts (the tokens of
// kernels/preconditions.def). Three uses, one definition: why a Case is outside it (the reason a
// suite SKIPS it with), and moving a drawn Case inside it (the property generators and the fuzz
// decoder spend their whole budget on Cases the kernel claims to handle, and shrinking ends on one).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"

namespace kverify {

struct Domain {
  bool contiguous = false;
  bool unit_col_stride = false;
  bool column_major = false;
  std::int64_t row_stride_multiple = 1;
  std::int64_t aligned = 1;  // bytes
  bool int32_indexing = false;
  // Per dimension of the op (OpSpec::dims order); empty when the declaration names none.
  std::vector<std::int64_t> multiple, min, max;
  std::string text;  // the declaration, canonical (tokens in table order); empty: every Case

  bool declared() const { return !text.empty(); }
};

// Parses an ACCEPTS list (space-separated tokens) for the op: its <dim> tokens name the op's
// dimensions (rows, cols; m, n, k; N, C, ...); throws InputError naming the bad token and what is
// accepted.
Domain parse_domain(std::string_view tokens, const OpSpec& op);

// Why the Case is outside the domain (the token it breaks and the Case's value), or nullopt.
std::optional<std::string> outside_domain(const Domain& d, const Case& c);

// Moves the Case inside the domain, deterministically and as little as the tokens need: each
// dimension rounded up to its multiple (then clamped), strides made what the layout tokens ask,
// offsets rounded up to the alignment. False when no Case of this op is near enough (e.g. a
// dimension's min above its max); the Case is then unchanged.
bool fit_into(const Domain& d, Case& c);

// `kverify help accepts`: the token table, as text or Markdown. The layout tokens read each tensor
// as its logical rows x cols (core/layout.hpp): the row stride of a tensor of rank 3 and more is
// each stride but the last.
std::string preconditions_help(bool markdown);
// The launcher an op's SIGNATURE tensors (or tensors_strided) calls, as C++: "void launch(const T* x,
// ..., cudaStream_t stream)".
std::string launcher_prototype(const OpSpec& op, bool strided);
// `kverify help signatures`: the launcher signatures kverify_add_kernel adapts to (kernels/signatures.def).
std::string signatures_help(bool markdown);

}  // namespace kverify
