// float64 reference and tolerance policy for matmul_relu: C = relu(A B).
#pragma once

#include <cstdint>
#include <memory>

#include "core/dtype.hpp"
#include "core/tensor_view.hpp"
#include "reference/expectation.hpp"
#include "reference/tolerance.hpp"

namespace kverify {

Expectations matmul_relu_reference(const TensorView& a, const TensorView& b);
std::unique_ptr<Tolerance> matmul_relu_tolerance(DType dtype, std::int64_t k);

}  // namespace kverify
