// What a reference says about one output element: a value to approach within the tolerance, a
// value to match exactly, or a NaN the contract requires.
#pragma once

#include <cstdint>
#include <vector>

namespace kverify {

struct Expected {
  enum class Kind : std::uint8_t { approx, exact, nan };
  double value = 0;
  Kind kind = Kind::approx;
  // How badly conditioned this element is, in the op's own terms (softmax: |x - max|), for the
  // tolerance policy. 0 when not applicable.
  double condition = 0;
  // The magnitude of the term of this element that a policy's allowance scales with (gelu_tanh:
  // its input |x|, as its framework formula 0.5 x (1 + tanhf(u)) carries tanhf's absolute error
  // times 0.5 |x|; layernorm: its normalised term |(x - mean) rstd w|, which carries rsqrtf's
  // error). 0 where no policy reads it.
  float input_magnitude = 0;
};

// Row-major rows x cols expectations for one output tensor.
struct Expectations {
  std::int64_t rows = 0, cols = 0;
  std::vector<Expected> values;
  const Expected& at(std::int64_t r, std::int64_t c) const { return values[static_cast<std::size_t>(r * cols + c)]; }
};

}  // namespace kverify
