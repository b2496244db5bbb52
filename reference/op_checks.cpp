#include "reference/op_checks.hpp"

#include "core/error.hpp"
#include "reference/gelu_tanh.hpp"
#include "reference/matmul_relu.hpp"
#include "reference/row_sum.hpp"
#include "reference/softmax.hpp"

namespace kverify {

Expectations reference_for(const Case& c, std::span<const TensorView> in) {
  const std::string_view op = c.op->name;
  if (op == "softmax") return softmax_reference(in[0]);
  if (op == "gelu_tanh") return gelu_tanh_reference(in[0]);
  if (op == "row_sum") return row_sum_reference(in[0], c.dtype);
  if (op == "matmul_relu") return matmul_relu_reference(in[0], in[1]);
  throw InputError("no reference for op '" + std::string(op) + "'");
}

std::unique_ptr<Tolerance> tolerance_for(const Case& c) {
  const std::string_view op = c.op->name;
  if (op == "softmax") return softmax_tolerance(c.dtype, c.shape[1]);
  if (op == "gelu_tanh") return gelu_tanh_tolerance(c.dtype);
  if (op == "row_sum") return row_sum_tolerance(c.dtype, c.shape[1]);
  if (op == "matmul_relu") return matmul_relu_tolerance(c.dtype, c.shape[2]);
  throw InputError("no tolerance policy for op '" + std::string(op) + "'");
}

}  // namespace kverify
