// Compares a kernel's stored output with the reference's expectations under a tolerance policy:
// per element abs, rel and ULP error (ULP distance in the output dtype), NaN/inf classes, failed
// rows kept visible (never averaged), softmax's row sums, and how much of its bound the worst
// element used (the policy's margin).
#pragma once

#include <string_view>

#include "core/expectation.hpp"
#include "core/tensor_view.hpp"
#include "core/tolerance.hpp"
#include "core/verdict.hpp"

namespace kverify {

// One compared element's errors, for consumers that need distributions (the tolerance report's
// percentiles), not only the maxima in ErrorStats. Elements whose contract is NaN are not listed.
struct ElementError {
  std::int64_t row = 0, col = 0;
  double abs = 0, rel = 0, ulp = 0;  // inf where the kernel gave NaN
  double margin = -1;                // |error| / bound; -1 where the expectation is exact (no bound)
  // For the direction of the errors (rounding bias): the output's dtype, the expected value, the
  // signed error in ulps of that dtype at it (got - want; NaN where either is not finite), and
  // the policy's bound (-1 where the expectation is exact).
  DType dtype = DType::f32;
  double want = 0, signed_ulps = 0, bound = -1;
};

struct Comparison {
  ErrorStats stats;
  std::vector<Mismatch> first_mismatches;  // at most Verdict::kMaxListed
  std::vector<std::int64_t> failed_rows;   // at most Verdict::kMaxListed
};

// The baseline-relative rule over the elements with an approximate expectation, with errors in
// the policy's error unit (Tolerance::error_unit: an ulp of the output dtype, or one f32 rounding
// of the magnitude for reductions): the kernel's largest error <= kBaselineFactor * the
// baseline's largest error + kBaselineSlack units. The slack absorbs rounding-level luck: two
// correct f32 implementations differ by about an ulp either way, which would make a bare ratio of
// their maxima noise; an error of many units is no luck.
struct BaselineCheck {
  double kernel_max_ulps = 0;
  double baseline_max_ulps = 0;
  double allowed_ulps = 0;
  bool ok = true;
};
BaselineCheck check_against_baseline(const TensorView& got, const std::vector<double>& baseline,
                                     const Expectations& want, const Tolerance& tolerance);

Comparison compare_output(const TensorView& got, std::string_view tensor, const Expectations& want,
                          const Tolerance& tolerance, bool rows_sum_to_one,
                          std::vector<ElementError>* elements = nullptr);  // appended to when given

}  // namespace kverify
