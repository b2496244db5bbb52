// Tolerance policies per (op, dtype): what error against the reference a correct kernel may have.
// Each policy is code with its reasoning beside it (tolerance.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/dtype.hpp"
#include "reference/expectation.hpp"

namespace kverify {

struct ToleranceInput {
  std::int64_t reduction_length = 1;  // elements combined into each output (softmax: the row width)
};

class Tolerance {
 public:
  virtual ~Tolerance() = default;
  // The largest |got - expected| allowed for this element.
  virtual double bound(const Expected& e) const = 0;
  virtual std::string describe() const = 0;
};

// Throws InputError when no policy exists for the op.
std::unique_ptr<Tolerance> tolerance_for(std::string_view op, DType dtype, const ToleranceInput& in);

}  // namespace kverify
