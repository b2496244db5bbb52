#include "gpu/huge_plan.hpp"

#include <algorithm>

#include "pipeline/sampled_check.hpp"

namespace kverify {

MemoryNeed huge_memory_need(const Case& c, std::int64_t sampled_rows) {
  return memory_need(c, 1, sampled_rows * (output_elements(c) / std::max<std::int64_t>(1, op_rows(c))));
}

std::vector<std::string> huge_case_lines() {
  std::vector<std::string> lines;
  for (const OpSpec* op : all_ops())
    for (std::string_view line : op->huge_cases) lines.emplace_back(line);
  return lines;
}

}  // namespace kverify
