#include "reference/gelu_tanh.hpp"

#include "core/error.hpp"

namespace kverify {

// Placeholder until the gelu_tanh reference lands (issue 3/4 work in progress): refuses clearly.
Expectations gelu_tanh_reference(const TensorView&) { throw InputError("no reference for op 'gelu_tanh' yet"); }
std::unique_ptr<Tolerance> gelu_tanh_tolerance(DType) { throw InputError("no tolerance policy for op 'gelu_tanh' yet"); }

}  // namespace kverify
