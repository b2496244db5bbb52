// float64 reference and tolerance policy for gelu_tanh.
#pragma once

#include <cstdint>
#include <memory>

#include "core/dtype.hpp"
#include "core/tensor_view.hpp"
#include "reference/expectation.hpp"
#include "reference/tolerance.hpp"

namespace kverify {

Expectations gelu_tanh_reference(const TensorView& x);
std::unique_ptr<Tolerance> gelu_tanh_tolerance(DType dtype);

}  // namespace kverify
