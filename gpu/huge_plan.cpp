#include "gpu/huge_plan.hpp"

namespace kverify {

MemoryNeed huge_memory_need(const Case& c, std::int64_t sampled_rows) {
  return memory_need(c, 1, sampled_rows * c.layout(c.op->output_tensor()).cols);
}

std::vector<std::string> huge_case_lines() {
  std::vector<std::string> lines;
  for (const OpSpec* op : all_ops())
    for (std::string_view line : op->huge_cases) lines.emplace_back(line);
  return lines;
}

}  // namespace kverify
