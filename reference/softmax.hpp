// float64 reference and tolerance policy for row softmax.
//
// Contract (every softmax variant implements it the same way):
//   in-domain: finite inputs, |x| <= 1e30: y = exp(x - max) / sum(exp(x - max)) per row;
//   an element equal to -inf among finite ones: exactly 0;
//   out-of-domain, the whole output row is NaN: a NaN anywhere in the row, a +inf anywhere in the
//   row, or a row whose elements are all -inf. (This is what IEEE arithmetic gives for the
//   max-subtract-exp-sum formulation, and what torch.softmax returns.)
#pragma once

#include <cstdint>
#include <memory>

#include "core/dtype.hpp"
#include "core/tensor_view.hpp"
#include "reference/expectation.hpp"
#include "reference/tolerance.hpp"

namespace kverify {

Expectations softmax_reference(const TensorView& x);
std::unique_ptr<Tolerance> softmax_tolerance(DType dtype, std::int64_t row_length);

}  // namespace kverify
