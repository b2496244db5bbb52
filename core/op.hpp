// The ops kverify knows, their tensors, and how each tensor's logical shape follows from the
// Case's shape. One table: the Case parser, the pipeline and the CLI all read it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace kverify {

struct TensorRole {
  std::string_view name;
  bool output;
  int rows_dim;  // index into the Case shape; -1 means a size of 1
  int cols_dim;
};

struct OpInfo {
  std::string_view name;
  std::string_view shape_form;  // how the shape token is written
  int shape_rank;
  std::array<TensorRole, 3> tensor_table;
  int tensor_count;
  std::string_view summary;

  std::span<const TensorRole> tensors() const { return {tensor_table.data(), static_cast<std::size_t>(tensor_count)}; }
};

inline constexpr OpInfo kOps[] = {
    {"softmax", "RxC", 2, {{{"x", false, 0, 1}, {"y", true, 0, 1}}}, 2,
     "row-wise softmax of an R x C tensor"},
    {"gelu_tanh", "RxC", 2, {{{"x", false, 0, 1}, {"y", true, 0, 1}}}, 2,
     "elementwise GELU, tanh approximation"},
    {"row_sum", "RxC", 2, {{{"x", false, 0, 1}, {"y", true, 0, -1}}}, 2,
     "sum of each row of an R x C tensor into R x 1"},
    {"matmul_relu", "MxNxK", 3, {{{"a", false, 0, 2}, {"b", false, 2, 1}, {"c", true, 0, 1}}}, 3,
     "C = relu(A B), A M x K, B K x N, C M x N"},
};

inline const OpInfo* find_op(std::string_view name) {
  for (const auto& op : kOps)
    if (op.name == name) return &op;
  return nullptr;
}

}  // namespace kverify
