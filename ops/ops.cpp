// The table of ops, from ops/ops.def.
#include "ops/op_spec.hpp"

#define KVERIFY_OP(op)         \
  namespace kverify::ops::op { \
  extern const OpSpec spec;    \
  }
#include "ops/ops.def"
#undef KVERIFY_OP

namespace kverify {

std::span<const OpSpec* const> all_ops() {
  static constexpr const OpSpec* kTable[] = {
#define KVERIFY_OP(op) &ops::op::spec,
#include "ops/ops.def"
#undef KVERIFY_OP
  };
  return kTable;
}

const OpSpec* find_op(std::string_view name) {
  for (const OpSpec* op : all_ops())
    if (op->name == name) return op;
  return nullptr;
}

std::vector<std::string> boundary_case_lines(const OpSpec& op) {
  std::vector<std::string> lines;
  const std::vector<std::string> cases = op.boundary_cases();
  const std::string prefix = "op=" + std::string(op.name) + " ";
  for (const char* dtype : {"f32", "f16", "bf16"})
    for (const auto& line : cases)
      if (!line.starts_with("dtype=")) lines.push_back(prefix + "dtype=" + dtype + " " + line);
  for (const auto& line : cases)
    if (line.starts_with("dtype=")) lines.push_back(prefix + line);
  return lines;
}

std::string op_names() {
  std::string s;
  for (const OpSpec* op : all_ops()) s += (s.empty() ? "" : ", ") + std::string(op->name);
  return s;
}

}  // namespace kverify
