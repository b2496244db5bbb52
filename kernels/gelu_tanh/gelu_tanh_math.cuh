// GELU, tanh approximation, for one f32 value: the arithmetic every gelu_tanh variant shares.
//
// Contract (reference/gelu_tanh.hpp states it too; both sides are tested):
//   y = 0.5 x (1 + tanh(u)),  u = sqrt(2/pi) (x + 0.044715 x^3)   (never erf)
//   storage f32/f16/bf16, arithmetic in f32; elementwise.
//   Every finite x gives a finite y (x = 11, x = 3.4e38 included); y has the sign of x:
//   +0 -> +0, -0 -> -0, and large negative x, whose GELU underflows, gives -0.
//   NaN -> NaN, +inf -> +inf, -inf -> -0.
//
// Written so that nothing overflows and nothing cancels:
//   0.5 (1 + tanh(u)) = sigmoid(2u), so y = x * sigmoid(t) with t = 2u = sqrt(8/pi) x (1 + 0.044715 x^2):
//     t >= 0:  y = x / (1 + e), e = exp(-t)   e <= 1: no overflow (as x - x e / (1 + e) once
//                                              e <= 1/4, which keeps y within ~1 ulp for x >~ 1);
//     t <  0:  y = (x e) / (1 + e), e = exp(t) e <= 1: no overflow, and no 1 + tanh(u) that cancels
//                                              to 0 long before the true value underflows.
//   (The textbook tanh(u) = (e^2u - 1) / (e^2u + 1) overflows to inf/inf = NaN for x >= ~10.9, and
//   1 + tanhf(u) cancels for x <= ~-3; pipeline/tests/gelu_tanh_test.cpp plants both and fails them.)
//   |x| >= 16: y = x for x > 0 and -0 for x < 0, which is what the formula rounds to in f32 there
//   (t >= 318: 1 + exp(-t) rounds to 1; t <= -318: |x| exp(t) < 2^-400 underflows), taken
//   explicitly so that x^2 and x^3 are never formed for large |x| (x^3 overflows f32 beyond 7e12)
//   and infinities land on their limits. NaN fails |x| >= 16 and propagates through the formula.
//
// Error (reference/gelu_tanh.cpp turns this into the tolerance): t carries <= 6 roundings (the two
// constants, x*0.0447f, the fma, the two products), ~3 eps32 relative, which exp turns into a relative
// error of y of |t| (1 - sigmoid(t)) * 3 eps32; expf <= 2 ulp (CUDA's documented bound; the
// host libm used on emu is within 1), weighted by 1 - sigmoid(t) <= 1; the add, multiply, IEEE
// division (and subtraction) 1.5 eps32 more; 3.5 eps32 in all for either sign of t.
// expf, not __expf: __expf's error grows with |t| (2 + floor(1.173 |t|) ulp).
#pragma once

#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

__device__ __forceinline__ float gelu_tanh_f32(float x) {
  constexpr float kSqrt8OverPi = 1.5957691216057308f;  // 2 sqrt(2/pi): t = 2u
  constexpr float kCubic = 0.044715f;
  constexpr float kSaturated = 16.0f;
  if (fabsf(x) >= kSaturated) return x > 0.0f ? x : -0.0f;
  const float t = kSqrt8OverPi * (x * fmaf(kCubic * x, x, 1.0f));
  if (t >= 0.0f) {  // -0 lands here (t = -0): -0 / 2 = -0
    const float e = expf(-t);
    // For e <= 1/4 (t >= ln 4), y = x - x e / (1 + e): the rounding of 1 + e, the largest error of
    // x / (1 + e), then only touches the correction, which is at most e y.
    return e <= 0.25f ? x - (x * e) / (1.0f + e) : x / (1.0f + e);
  }
  const float e = expf(t);
  return (x * e) / (1.0f + e);  // x e first: e / (1 + e) alone could go subnormal and lose bits
}

}  // namespace kverify::kernels
