// scale, a toy op: y = 2 x elementwise over a rank-2 strided tensor (docs/extending.md, "Adding an
// op"). Doubling is exact in every storage dtype until it overflows to the infinity rounding gives,
// so every element is an exact expectation: a correct kernel matches bit for bit.
#pragma once

#include <vector>

#include "core/tensor_view.hpp"
#include "core/op_spec.hpp"
#include "core/expectation.hpp"

namespace kverify {

Expectations scale_reference(const TensorView& x);
std::vector<double> scale_eager(const TensorView& x, DType storage);

namespace ops::scale {
extern const OpSpec spec;  // spec.cpp
}

}  // namespace kverify
