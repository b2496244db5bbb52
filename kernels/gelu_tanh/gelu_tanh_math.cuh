// GELU, tanh approximation, for one f32 value: the arithmetic every gelu_tanh variant shares.
//
// Contract (ops/gelu_tanh/gelu_tanh.hpp states it too; both sides are tested):
//   y = 0.5 x (1 + tanh(u)),  u = sqrt(2/pi) (x + 0.044715 x^3)   (never erf)
//   storage f32/f16/bf16, arithmetic in f32; elementwise.
//   Every finite x gives a finite y (x = 11, x = 3.4e38 included); y has the sign of x:
//   +0 -> +0, -0 -> -0, and large negative x, whose GELU underflows, gives -0.
//   NaN -> NaN, +inf -> +inf, -inf -> -0.
//
// Written so that nothing overflows, nothing cancels, and no warp diverges on the sign of x:
//   0.5 (1 + tanh(u)) = sigmoid(2u), so y = x * sigmoid(t) with t = 2u = sqrt(8/pi) x (1 + 0.044715 x^2)
//   (t has the sign of x). With e = exp(-|t|) <= 1 (no overflow) and d = x e / (1 + e):
//     t <  0:  y = d                 = x e / (1 + e)   (no 1 + tanh(u) that cancels to 0 long
//                                                       before the true value underflows);
//     t >= 0:  y = x - d             = x / (1 + e)     (d <= x / 2: no cancellation);
//   one expf and one IEEE division for either sign (the two-branch form ran both branches in every
//   warp of mixed signs: half the lanes idle, ncu on the H200, reports/h200/perf.md). The sign of x is
//   copied onto y: +0 -> +0, -0 -> -0 (x - d would give +0), the underflowed negative tail is -0.
//   (The textbook tanh(u) = (e^2u - 1) / (e^2u + 1) overflows to inf/inf = NaN for x >= ~10.9, and
//   1 + tanhf(u) cancels for x <= ~-3; ops/gelu_tanh/tests/pipeline_test.cpp plants both and fails them.)
//   |x| >= 16: y = x for x > 0 and -0 for x < 0, which is what the formula rounds to in f32 there
//   (t >= 318: 1 + exp(-t) rounds to 1; t <= -318: |x| exp(t) < 2^-400 underflows), selected
//   explicitly because the formula's x^3 overflows f32 beyond 7e12 and infinities must land on
//   their limits. NaN fails |x| >= 16 and propagates through the formula.
//
// Error (ops/gelu_tanh/reference.cpp turns this into the tolerance): t carries <= 6 roundings (the two
// constants, x*0.0447f, the fma, the two products), ~3 eps32 relative, which exp turns into a relative
// error of e of |t| * 3 eps32; expf <= 2 ulp (CUDA's documented bound; the host libm used on emu is
// within 1). Call δ the relative error of e. d = x e / (1 + e) is off by δ / (1 + e) + 1.5 eps32
// (x e, 1 + e, the IEEE division). t < 0: y = d, so δ + 1.5 eps32 <= 3.5 eps32 + the t term.
// t >= 0: y = x - d with d / y = e, so e (δ / (1 + e) + 1.5 eps32) + 0.5 eps32 (the subtraction)
// <= δ / 2 + 2 eps32 <= 3 eps32 + half the t term. Both: 3.5 eps32 + |t| (1 - sigmoid(|t|)) 3 eps32.
// expf, not __expf: __expf's error grows with |t| (2 + floor(1.173 |t|) ulp).
#pragma once

#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

__device__ __forceinline__ float gelu_tanh_f32(float x) {
  constexpr float kSqrt8OverPi = 1.5957691216057308f;  // 2 sqrt(2/pi): t = 2u
  constexpr float kCubic = 0.044715f;
  constexpr float kSaturated = 16.0f;
  if (fabsf(x) >= kSaturated) return x > 0.0f ? x : -0.0f;  // NaN falls through
  const float t = kSqrt8OverPi * (x * fmaf(kCubic * x, x, 1.0f));
  const float e = expf(-fabsf(t));
  const float d = (x * e) / (1.0f + e);
  return copysignf(t >= 0.0f ? x - d : d, x);  // NaN: t, e, d NaN, and copysign keeps NaN
}

}  // namespace kverify::kernels
