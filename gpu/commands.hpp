// `kverify huge` (Cases past 2^31 elements and 4 GiB offsets) and `kverify agree` (the same Cases
// on emu and the GPU): GPU-side verification beside the check catalogue (docs/gpu.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/case.hpp"

namespace kverify {

struct HugeOptions {
  Backend backend = Backend::cuda;
  std::optional<std::string> op, variant;  // filters
  std::vector<std::string> cases;          // instead of every op's huge Cases
  bool plan_only = false;                  // print the plan, run nothing
};
// Returns the exit code (0, 1, 3).
int run_huge(const HugeOptions& options);

struct AgreeOptions {
  std::optional<std::string> op;
  std::optional<DType> dtype;
  int budget = 20;  // random Cases per op and dtype
  std::uint64_t seed = 2026;
  std::string out_dir;  // "": reports/<device>/
};
int run_agree(const AgreeOptions& options);

}  // namespace kverify
