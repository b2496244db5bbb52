// The check catalogue: the Cases `kverify check` runs on every production variant. It grows with
// the property suites; here it covers the foundation's op (softmax) across the tails, dtypes,
// layouts, value recipes and schedule seeds that break kernels.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/case.hpp"

namespace kverify {

struct CheckOptions {
  std::vector<Backend> backends;  // empty: emu, plus cuda when a GPU is present
  bool backends_requested = false;
  std::optional<std::string> op;
};

std::vector<std::string> check_catalogue_lines(const std::string& op);

// Prints progress and a summary table; returns the exit code (0, 1 or 3).
int run_check_catalogue(const CheckOptions& options);

}  // namespace kverify
