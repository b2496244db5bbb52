// The fuzz targets by name: one libFuzzer binary each (build-fuzz/fuzz/fuzz_<name>), one corpus
// folder each (corpus/<name>/). Header-only: the kverify command line reads it to find them.
#pragma once

#include <string_view>

namespace kverify::fuzz {

struct TargetName {
  std::string_view name;
  std::string_view summary;
  bool production;  // false: the planted-bug demo, not run by OSS-Fuzz or `kverify fuzz` by default
};

inline constexpr TargetName kTargetNames[] = {
    {"softmax", "softmax variants on emu: shapes, strides, values and schedules decoded from the input", true},
    {"gelu_tanh", "gelu_tanh variants on emu, likewise", true},
    {"row_sum", "row_sum variants on emu, likewise", true},
    {"matmul_relu", "matmul_relu on emu, likewise (M*N*K <= 2^19)", true},
    {"case_parser", "the Case text parser: any text parses to a Case that round-trips, or gives a one-line InputError",
     true},
    {"cli", "the command line's argument handling (one argument per input line)", true},
    {"softmax_planted", "softmax with a planted tail bug (0 padding of the max): must be found in seconds", false},
};

inline const TargetName* find_target_name(std::string_view name) {
  for (const auto& t : kTargetNames)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace kverify::fuzz
