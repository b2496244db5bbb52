// float64 reference and tolerance policy for row_sum.
#pragma once

#include <cstdint>
#include <memory>

#include "core/dtype.hpp"
#include "core/tensor_view.hpp"
#include "reference/expectation.hpp"
#include "reference/tolerance.hpp"

namespace kverify {

Expectations row_sum_reference(const TensorView& x);
std::unique_ptr<Tolerance> row_sum_tolerance(DType dtype, std::int64_t row_length);

}  // namespace kverify
