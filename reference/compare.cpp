#include "reference/compare.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "reference/baseline.hpp"
#include "reference/metrics.hpp"

namespace kverify {

Comparison compare_output(const TensorView& out, std::string_view tensor, const Expectations& want,
                          const Tolerance& tol, bool rows_sum_to_one, std::vector<ElementError>* elements) {
  Comparison result;
  ErrorStats& s = result.stats;
  const DType dtype = out.dtype;
  std::int64_t last_failed_row = -1;
  std::vector<Mismatch> noted_mismatches;  // listed after the failing ones, where there is room
  for (std::int64_t r = 0; r < out.rows(); ++r) {
    double row_sum = 0;
    bool row_finite = true;
    for (std::int64_t col = 0; col < out.cols(); ++col) {
      const double got = out.at(r, col);
      Expected e = want.at(r, col);
      // A result past the storage dtype's range is stored as +-inf (IEEE rounding), whatever the op.
      if (e.kind == Expected::Kind::approx && std::isinf(round_to(dtype, e.value)))
        e = {round_to(dtype, e.value), Expected::Kind::exact, e.condition};
      ++s.checked;
      bool ok = true, noted = false;
      double abs_err = 0;
      double margin = -1;  // |error| / bound, for approx expectations
      double bound = -1;
      switch (e.kind) {
        case Expected::Kind::nan:
          ok = std::isnan(got);
          break;
        case Expected::Kind::exact:  // the sign of an exact zero is part of the contract
          ok = (got == e.value && std::signbit(got) == std::signbit(e.value)) ||
               (std::isnan(got) && std::isnan(e.value));
          break;
        case Expected::Kind::approx: {
          bound = tol.bound(e);
          abs_err = std::isnan(got) ? INFINITY : std::fabs(got - e.value);
          ok = abs_err <= bound;
          noted = !ok && abs_err <= tol.framework_bound(e);
          margin = bound > 0 ? abs_err / bound : (abs_err > 0 ? INFINITY : 0);
          s.worst_margin = std::max(s.worst_margin, margin);
          break;
        }
      }
      double ulp_err = 0;
      if (e.kind != Expected::Kind::nan) {
        if (e.kind == Expected::Kind::exact) abs_err = got == e.value ? 0 : std::fabs(got - e.value);
        ulp_err = std::isnan(got) ? INFINITY : ulp_distance(dtype, got, e.value);
        row_sum += got;
        s.max_abs = std::max(s.max_abs, abs_err);
        const double rel_err = std::isnan(got) ? INFINITY : relative_error(got, e.value);
        s.max_rel = std::max(s.max_rel, rel_err);
        if (elements) {
          const double signed_ulps = std::isfinite(got) && std::isfinite(e.value)
                                         ? (got - e.value) / ulp(dtype, e.value)
                                         : std::numeric_limits<double>::quiet_NaN();
          elements->push_back({r, col, abs_err, rel_err, ulp_err, margin, dtype, e.value, signed_ulps, bound});
        }
        if (ulp_err > s.max_ulp || s.worst_row < 0) {
          s.max_ulp = std::max(s.max_ulp, ulp_err);
          s.worst_row = r;
          s.worst_col = col;
        }
      } else {
        row_finite = false;
      }
      if (std::isnan(got)) ++s.nan_outputs;
      if (std::isinf(got)) ++s.inf_outputs;
      if (noted) ++s.noted;
      if (!ok && !noted) ++s.failed;
      if (!ok) {
        std::vector<Mismatch>& list = noted ? noted_mismatches : result.first_mismatches;
        if (list.size() < Verdict::kMaxListed) {
          Mismatch m{std::string(tensor),
                     r,
                     col,
                     "",
                     got,
                     e.value,
                     abs_err,
                     ulp_err,
                     std::string(name(classify(dtype, got))),
                     e.kind == Expected::Kind::nan ? std::string("NaN")
                                                   : std::string(name(classify(dtype, round_to(dtype, e.value))))};
          if (out.layout.rank != 2) m.index = index_text(out.layout, r, col);
          m.noted = noted;
          list.push_back(std::move(m));
        }
        if (!noted && r != last_failed_row) {
          ++s.failed_rows;
          if (result.failed_rows.size() < Verdict::kMaxListed) result.failed_rows.push_back(r);
          last_failed_row = r;
        }
      }
    }
    if (rows_sum_to_one && row_finite)
      s.max_row_sum_deviation = std::max(s.max_row_sum_deviation, std::fabs(row_sum - 1.0));
  }
  for (auto& m : noted_mismatches)
    if (result.first_mismatches.size() < Verdict::kMaxListed) result.first_mismatches.push_back(std::move(m));
  return result;
}

BaselineCheck check_against_baseline(const TensorView& out, const std::vector<double>& baseline,
                                     const Expectations& want, const Tolerance& tol) {
  BaselineCheck check;
  for (std::int64_t r = 0; r < out.rows(); ++r)
    for (std::int64_t c = 0; c < out.cols(); ++c) {
      const Expected& e = want.at(r, c);
      if (e.kind != Expected::Kind::approx || std::isinf(round_to(out.dtype, e.value))) continue;
      const double unit = tol.error_unit(e, out.dtype);
      const double got = out.at(r, c);
      const double base = baseline[static_cast<std::size_t>(r * out.cols() + c)];
      const double beyond = std::max(0.0, std::fabs(got - e.value) - tol.approximation_allowance(e));
      check.kernel_max_ulps = std::max(check.kernel_max_ulps, std::isnan(got) ? INFINITY : beyond / unit);
      if (!std::isnan(base))
        check.baseline_max_ulps = std::max(check.baseline_max_ulps, std::fabs(base - e.value) / unit);
    }
  check.allowed_ulps = kBaselineFactor * check.baseline_max_ulps + kBaselineSlack;  // baseline_rule_violation's
  check.ok = check.kernel_max_ulps <= check.allowed_ulps;
  return check;
}

std::string baseline_rule_violation(double kernel_units, double eager_units) {
  const double allowed = kBaselineFactor * eager_units + kBaselineSlack;
  if (kernel_units <= allowed) return "";
  char detail[200];
  std::snprintf(detail, sizeof detail,
                "max error %.4g units exceeds %.3g x the eager baseline's %.4g + slack = %.4g units", kernel_units,
                kBaselineFactor, eager_units, allowed);
  return detail;
}

}  // namespace kverify
