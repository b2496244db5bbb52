// The fuzz targets by name: one libFuzzer binary each (build-fuzz/fuzz/fuzz_<name>), one corpus
// folder each (corpus/<name>/): a target per op of the op table, then the text targets and the
// planted-bug demo. The kverify command line reads this list to find them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/op_spec.hpp"

namespace kverify::fuzz {

struct TargetName {
  std::string name;
  std::string summary;
  bool production;      // false: the planted-bug demo, not run by OSS-Fuzz or `kverify fuzz` by default
  std::string options;  // its libFuzzer options: fuzz/options/<options>.options
};

inline const std::vector<TargetName>& target_names() {
  static const std::vector<TargetName> names = [] {
    std::vector<TargetName> out;
    for (const OpSpec* op : all_ops())
      out.push_back(
          {std::string(op->name),
           std::string(op->name) + " variants on emu: shapes, strides, values and schedules decoded from the input",
           true, "op"});
    out.push_back({"case_parser",
                   "the Case text parser: any text parses to a Case that round-trips, or gives a one-line InputError",
                   true, "text"});
    out.push_back({"cli", "the command line's argument handling (one argument per input line)", true, "text"});
    out.push_back({"report_json",
                   "the report.json reader of `kverify report --compare`: a report's cells, or a one-line InputError",
                   true, "text"});
    out.push_back({"softmax_planted",
                   "softmax with a planted tail bug (0 padding of the max): must be found in seconds", false, "op"});
    return out;
  }();
  return names;
}

inline const TargetName* find_target_name(std::string_view name) {
  for (const auto& t : target_names())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace kverify::fuzz
