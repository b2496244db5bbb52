// Exact arithmetic for the references, with Boost.Multiprecision on the MPFR backend.
//
// exact_sum and exact_dot accumulate in 665 bits: every sum of values representable in f32 (and of
// products of two such values, which span 2^-298 .. 2^256) is held exactly for up to 2^50 terms,
// so the one rounding is the final one to f64: the results are correctly rounded, whatever the
// cancellation (exact_sum of [1e30, 1, -1e30] is 1; plain float64 gives 0).
// The float64 references call these where float64 cannot decide (see CompensatedSum).
#pragma once

#include <cstdint>
#include <span>

namespace kverify {

double exact_sum(std::span<const double> terms);
double exact_dot(std::span<const double> a, std::span<const double> b);
// log(sum_i exp(x_i)) - minus for finite x, in 665-bit MPFR arithmetic (the largest x taken out
// first, so that no exponential overflows), rounded once to f64: a cross-entropy is
// exact_log_sum_exp(row, row[target]).
double exact_log_sum_exp(std::span<const double> x, double minus = 0);

// A float64 sum with its rounding errors carried along: Sum2 of Ogita, Rump and Oishi ("Accurate
// sum and dot product", SIAM J. Sci. Comput. 26, 2005), each addition's error recovered exactly by
// TwoSum and added into a second float64. Their Proposition 4.5 bounds the result as if summed in
// twice the precision: |sum + error - exact| <= u |exact| + gamma(n-1)^2 sum|x|, u = 2^-53,
// gamma(k) = k u / (1 - k u). The products of two f32 values that a dot product adds are exact in
// float64, so a dot product is such a sum of its products. `sum` alone is the plain float64 sum
// (a NaN or an infinity among the terms shows there; `error` is then meaningless).
inline void compensated_add(double& sum, double& error, double x) {
  const double s = sum + x;
  const double z = s - sum;
  error += (sum - (s - z)) + (x - z);
  sum = s;
}
// Whether a compensated sum `value` (= sum + error) of `terms` finite terms whose magnitudes add to
// `magnitude` is certainly within 2^-8 of an f32 ulp of the exact sum (the metrics in f32/f16/bf16
// ulps are then right to 1/256 ulp); where not, the exact sum decides.
bool compensated_sum_certified(double value, double magnitude, std::int64_t terms);

struct CompensatedSum {
  double sum = 0, error = 0, magnitude = 0;
  std::int64_t terms = 0;

  void add(double x) {
    compensated_add(sum, error, x);
    magnitude += x < 0 ? -x : x;
    ++terms;
  }
  double value() const { return sum + error; }
  bool certified() const { return compensated_sum_certified(value(), magnitude, terms); }
};

}  // namespace kverify
