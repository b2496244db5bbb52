// A tolerance policy: the largest error against the reference that a correct kernel may have,
// per element. Each op's policy is code with its reasoning beside it (reference/<op>.cpp).
#pragma once

#include <string>

#include "reference/expectation.hpp"

namespace kverify {

class Tolerance {
 public:
  virtual ~Tolerance() = default;
  // The largest |got - expected| allowed for this element (Expected::Kind::approx).
  virtual double bound(const Expected& e) const = 0;
  virtual std::string describe() const = 0;
};

}  // namespace kverify
