// RapidCheck generators for Cases, small ones composed into bigger ones (RapidCheck's own style):
// sizes biased toward the tails that break kernels, placements (contiguous, padded, transposed,
// strided, offset), value recipes per op and dtype, schedule seeds. Every generator shrinks toward
// the simplest choice: size 1, contiguous, offset 0, normal values, schedule 0.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <iosfwd>
#include <string_view>
#include <vector>

#include "core/case.hpp"

namespace kverify::properties {

// Sizes 1, 2, 3, 31, 32, 33, ... up to max (warp and block boundaries, powers of two +-1, primes),
// or anything in [1, max].
rc::Gen<std::int64_t> tail_size(std::int64_t max);
// Only the tail list (for the tail-width property).
rc::Gen<std::int64_t> tail_size_exactly(std::int64_t max);
// A long side: tail_size(max), or as often one of the tail sizes in the top quarter up to max.
rc::Gen<std::int64_t> long_size(std::int64_t max);

// far: rows (or, for a tensor of many rows and few columns, columns) 2^31 + a few elements apart,
// on tensors of at most kFarMaxLines of them: every row past 2^31 elements and 4 GiB, at the cost
// of a few mapped pages (pipeline/guarded_image.hpp), so a 32-bit offset shows on emu.
enum class PlacementKind { contiguous, padded_rows, column_major, strided_columns, far };
inline constexpr std::int64_t kFarStride = std::int64_t{1} << 31;
inline constexpr std::int64_t kFarMaxLines = 16;
// The placement of one rows x cols tensor; `any_kind` false forces a non-contiguous one.
rc::Gen<Placement> placement(std::int64_t rows, std::int64_t cols, bool any_kind);
// The placement of a tensor of any rank (a rank-2 one: placement(rows, cols)); the kinds, read for
// its dimensions: innermost rows padded, dimensions in reverse order (column-major) with padding,
// the innermost dimension strided, the outermost far apart (when it has at most kFarMaxLines).
rc::Gen<Placement> placement(const Layout& shape, bool any_kind);

// In-domain value recipes for the op and dtype (softmax |x| <= 1e30, matmul products finite, ...).
rc::Gen<ValueRecipe> in_domain_values(const OpSpec& op, DType dtype);  // OpSpec::in_domain_values
rc::Gen<std::uint64_t> schedule_seed();

// The limits of a drawn Case's sizes (core/op_spec.hpp: DimDraw): the tail dimensions up to
// max_width (and each its own draw_max), the count dimensions up to max_rows, fewer when the tails
// make the Case large (an element budget of 65536). Unless tails_only or a minimum is set, one Case
// in four is a long one instead: one dimension up to its DimSpec::long_max, the others 1..3.
struct CaseShape {
  std::int64_t max_rows = 9;
  std::int64_t max_width = 4097;
  bool tails_only = false;
  std::int64_t min_rows = 1;   // every count dimension drawn in [min_rows, its cap] (above 1: no long side)
  std::int64_t min_width = 1;  // every tail dimension drawn in [min_width, its cap] (above 1: no long side)
};

enum class Placements { contiguous, any, not_contiguous };

// The Case fields case_of gives (kCaseFields keys): drawn, or given by the property and pinning.
std::vector<std::string_view> generator_fields();

// A Case for op and dtype with generated shape, placements, values and seeds.
rc::Gen<Case> case_of(const OpSpec& op, DType dtype, CaseShape shape, Placements placements,
                      rc::Gen<ValueRecipe> values);

// Another Case of c's op and dtype with the same last tail dimension (a row's width, a reduction's
// length) and every other dimension larger, its placements, values, seed and schedule drawn anew:
// what a cache keyed by that dimension alone mistakes for c.
rc::Gen<Case> sibling_of(const Case& c, rc::Gen<ValueRecipe> values);

// Another Case of c's shape and placements with its values, seed and schedule drawn anew (the seed
// always another): what a second caller at the same time gives the same launcher.
rc::Gen<Case> other_values_of(const Case& c, rc::Gen<ValueRecipe> values);

}  // namespace kverify::properties

namespace kverify {
// How RapidCheck prints a counterexample: the Case line, replayable with `kverify run`.
void showValue(const Case& c, std::ostream& os);
void showValue(const ValueRecipe& r, std::ostream& os);
}  // namespace kverify
