// What several ops' specs share: the boundary Cases of every rank-2 (R x C) op, the in-domain value
// recipes common to every op, and the report's shape of an R x C cell.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/op_spec.hpp"
#include "core/values.hpp"

namespace kverify::ops {

// The dimensions of a rank-2 op over rows x cols: the rows are independent (drawn as a count), the
// columns are the row length kernels tile and reduce over (drawn at the tail widths).
inline constexpr DimSpec kRowwiseDims[] = {
    {.name = "rows", .meaning = "rows (independent)", .draw = DimDraw::count},
    {.name = "cols", .meaning = "columns: the row length", .draw = DimDraw::tail},
};
// x[rows, cols] -> y[rows, cols].
inline constexpr TensorSpec kRowwiseTensors[] = {
    {.name = "x", .dims = {0, 1}, .rank = 2, .meaning = "the input"},
    {.name = "y", .output = true, .dims = {0, 1}, .rank = 2, .meaning = "the output"},
};

// The fuzz decoder's sizes of a rank-2 row op: columns first, then rows within an element budget
// and a budget of emulated threads (a block-per-row variant runs up to 1024 threads per row);
// one or two columns may reach 65537 rows, past grid.y's 65535.
void rowwise_fuzz_sizes(FuzzSizes& choose, std::span<std::int64_t> sizes);

// Tail widths around warp and block sizes, primes and wide rows (fewer rows when wide), each plain
// and with negative values on another thread order; then padded, offset, column-major and strided
// layouts, integer and large values; last 65537 rows in f32. Lines without op= (OpSpec::boundary_cases).
std::vector<std::string> rowwise_boundary_cases();

// normal:1 first (the generators' shrink target), then recipes every op's domain holds.
std::vector<ValueRecipe> common_in_domain_values(DType dtype);
// The rank-2 elementwise and row ops' further recipes (large, heavy-tailed, constant, +-1e30).
void add_rowwise_in_domain_values(DType dtype, std::vector<ValueRecipe>& into);

// A tolerance-report cell of an R x C op: 8 rows up to width 1024 (a warp-per-row block holds 8),
// 2 beyond and with --quick.
std::string rowwise_report_shape(std::int64_t width, bool quick);

inline ValueRecipe recipe(const char* name, double param) { return {name, param, true}; }

}  // namespace kverify::ops

namespace kverify::ops {

// Fuzz parameters every op draws the same way (OpSpec::fuzz_params).
inline constexpr double kFuzzWholeParams[] = {0, 1, 2, 5, 100, 1000, 65536, 1e6, 16777216};  // int:K
inline constexpr double kFuzzTiesParams[] = {1, 2, 3, 32, 1000, 1e6};                        // ties:K
inline constexpr double kFuzzSubnormalExponents[] = {-149, -150, -140, -133, -127, -126, -25, -24, -15, -14, -1074, 0};

}  // namespace kverify::ops
