// A KernelBench-style check, for comparison with the catalogue (it is what KernelBench's
// correctness check does): 5 trials of random normal inputs at one power-of-two shape per op,
// contiguous, output compared with allclose(atol = rtol = 1e-2 for f16/bf16, 1e-4 for f32) against
// the reference. No guards, no tails, no strides, no special values.
#pragma once

#include <string>

#include "core/case.hpp"
#include "kernels/registry.hpp"

namespace kverify::properties {

struct KernelBenchResult {
  bool applies = true;  // false: the variant does not take this dtype (nothing ran)
  bool caught = false;  // some trial failed allclose (or the launch failed)
  int trials = 0;
  std::string detail;  // what caught it
};

KernelBenchResult kernelbench_check(const Variant& variant, DType dtype, Backend backend);

}  // namespace kverify::properties
