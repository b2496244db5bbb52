// What the pipeline needs from reference/ for a Case: the expected output computed from the
// stored inputs, and the tolerance policy in force. One entry per op (op_checks.cpp); each op's
// reference and policy live together in reference/<op>.hpp/.cpp.
#pragma once

#include <memory>
#include <span>

#include "core/case.hpp"
#include "core/tensor_view.hpp"
#include "reference/expectation.hpp"
#include "reference/tolerance.hpp"

namespace kverify {

// `inputs` are the op's input tensors in op order (core/op.hpp), as stored for the kernel.
Expectations reference_for(const Case& c, std::span<const TensorView> inputs);
std::unique_ptr<Tolerance> tolerance_for(const Case& c);

}  // namespace kverify
