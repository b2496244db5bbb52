#include "reference/matmul_relu.hpp"

#include "core/error.hpp"

namespace kverify {

// Placeholder until the matmul_relu reference lands (issue 3/4 work in progress): refuses clearly.
Expectations matmul_relu_reference(const TensorView&, const TensorView&) {
  throw InputError("no reference for op 'matmul_relu' yet");
}
std::unique_ptr<Tolerance> matmul_relu_tolerance(DType, std::int64_t) {
  throw InputError("no tolerance policy for op 'matmul_relu' yet");
}

}  // namespace kverify
