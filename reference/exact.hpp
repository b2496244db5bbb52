// Exact arithmetic for the references, with Boost.Multiprecision on the MPFR backend.
//
// exact_sum and exact_dot accumulate in 665 bits: every sum of values representable in f32 (and of
// products of two such values, which span 2^-298 .. 2^256) is held exactly for up to 2^50 terms,
// so the one rounding is the final one to f64: the results are correctly rounded, whatever the
// cancellation (exact_sum of [1e30, 1, -1e30] is 1; plain float64 gives 0).
// The float64 references call these where float64 cannot decide (see certified_f64_sum).
#pragma once

#include <cstdint>
#include <span>

namespace kverify {

double exact_sum(std::span<const double> terms);
double exact_dot(std::span<const double> a, std::span<const double> b);

// A float64 sum is certified when its worst-case rounding error, (n-1) * 2^-53 * sum|x|, is below
// 2^-8 of an f32 ulp of the result: then the metrics in f32/f16/bf16 ulps are right to 1/256 ulp.
bool certified_f64_sum(double sum, double magnitude, std::int64_t terms);

}  // namespace kverify
