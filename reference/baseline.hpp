// The baseline-relative rule (as in FlashAttention's tests): a kernel's largest error against the
// reference must be at most c times the largest error of a plain composed implementation computed
// in the same storage precision, op by op the way an eager framework would (each intermediate
// rounded to the storage dtype, reductions accumulated in f32). It bounds the error relative to
// what the precision itself costs, where the worst-case ULP policies are necessarily loose. Each
// op's eager composition is OpSpec::eager_baseline (ops/<op>/reference.cpp).
#pragma once

#include <string>

#include "core/dtype.hpp"

namespace kverify {

// The rule: kernel max error <= kBaselineFactor * baseline max error + kBaselineSlack, in the
// policy's error units (Tolerance::error_unit). The slack absorbs rounding-level luck: on a Case
// of a few elements the eager composition can be exactly right while a correct kernel is an ulp
// or two off (the GPU's expf differs from the host's by up to 2 ulp). Calibration: docs/tolerance.md.
inline constexpr double kBaselineFactor = 2.0;
inline constexpr double kBaselineSlack = 2.0;

// The rule applied to the two largest errors: empty when it holds, else what a guard line says.
std::string baseline_rule_violation(double kernel_units, double eager_units);

// What an eager framework stores after each op: an f32 value rounded to the storage dtype.
struct StorageRounding {
  DType dtype;
  float operator()(float v) const { return static_cast<float>(round_to(dtype, v)); }
};
// The references' "rounding": none (f64 keeps every intermediate).
struct NoRounding {
  double operator()(double v) const { return v; }
};

}  // namespace kverify
