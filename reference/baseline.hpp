// The baseline-relative rule (as in FlashAttention's tests): a kernel's largest error against the
// reference must be at most c times the largest error of a plain composed implementation computed
// in the same storage precision, op by op the way an eager framework would (each intermediate
// rounded to the storage dtype, reductions accumulated in f32). It bounds the error relative to
// what the precision itself costs, where the worst-case ULP policies are necessarily loose.
#pragma once

#include <vector>

#include "core/case.hpp"
#include "core/tensor_view.hpp"

namespace kverify {

// The baseline's output for the Case's inputs, row-major over the output tensor, widened to f64.
std::vector<double> baseline_output(const Case& c, std::span<const TensorView> inputs);

// The rule: kernel max error <= kBaselineFactor * baseline max error + kBaselineSlack, in the
// policy's error units (Tolerance::error_unit). The slack absorbs rounding-level luck: on a Case
// of a few elements the eager composition can be exactly right while a correct kernel is an ulp
// or two off (the GPU's expf differs from the host's by up to 2 ulp). Calibration: README.
inline constexpr double kBaselineFactor = 2.0;
inline constexpr double kBaselineSlack = 2.0;

}  // namespace kverify
