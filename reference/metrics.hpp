// Error metrics per element, in the output dtype.
//
// ULP distance counts the representable values of the dtype between two values: floats are mapped
// to integers in order (the sign-magnitude bits turned into a monotonic integer, -0 and +0 both 0),
// so the distance is right across zero, through subnormals and up to the infinities (the largest
// finite value and +inf are 1 apart). NaN has no distance (returns NaN).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/dtype.hpp"

namespace kverify {

// The position of a (rounded-to-dtype) value on the dtype's number line; NaN -> nullopt-like.
std::int64_t ordinal(DType d, double value_in_dtype);
// Representable steps between a and b after rounding each to the dtype (NaN if either is NaN).
double ulp_distance(DType d, double a, double b);

enum class ValueClass : std::uint8_t { zero, subnormal, normal, infinite, nan };
ValueClass classify(DType d, double v);
std::string_view name(ValueClass c);

// |got - expected| / |expected|, with 0/0 = 0 and x/0 = inf.
double relative_error(double got, double expected);

}  // namespace kverify
