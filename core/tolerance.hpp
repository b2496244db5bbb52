// A tolerance policy: the largest error against the reference that a correct kernel may have,
// per element. Each op's policy is code with its reasoning beside it (ops/<op>/reference.cpp).
#pragma once

#include <string>

#include "core/dtype.hpp"
#include "core/expectation.hpp"

namespace kverify {

class Tolerance {
 public:
  virtual ~Tolerance() = default;
  // The largest |got - expected| allowed for this element (Expected::Kind::approx).
  virtual double bound(const Expected& e) const = 0;
  virtual std::string describe() const = 0;
  // The natural size of one rounding error at this element, the unit of the baseline-relative
  // rule: an ulp of the output dtype at the expected value; reductions override it with one f32
  // rounding of the sum of magnitudes, since under cancellation any two summation orders differ
  // by many ulps of the (small) result.
  virtual double error_unit(const Expected& e, DType out) const { return ulp(out, e.value); }
  // Error the policy grants beyond what the eager composition makes, from approximations it does
  // not make (a fast-math policy's __expf); the baseline rule judges only the error past it.
  virtual double approximation_allowance(const Expected&) const { return 0; }

  // The accuracy-note tier. An element outside bound() but within framework_bound() is as accurate
  // as the formula eager frameworks compute for this op: the Verdict passes with an accuracy note
  // (a FAIL under --strict). framework_formula() names that formula and its source; empty (the
  // default) when the framework's formula is the policy's own arithmetic, so no element is noted.
  virtual double framework_bound(const Expected& e) const { return bound(e); }
  virtual std::string framework_formula() const { return ""; }
};

}  // namespace kverify
