// What several ops' specs share: the boundary Cases of every rank-2 (R x C) op, the in-domain value
// recipes common to every op, and the report's shape of an R x C cell.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/values.hpp"

namespace kverify::ops {

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
