// gelu_tanh: the op's contract, reference, tolerance policy and eager baseline (reference.cpp), its
// Cases, value domain and bench plan (spec.cpp), its properties (properties.cpp).
//
// Contract (every gelu_tanh variant implements it the same way; kernels/gelu_tanh/gelu_tanh_math.cuh):
//   elementwise y = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3): the tanh approximation,
//   compared with the same approximation, never with the erf GELU. Storage f32/f16/bf16,
//   arithmetic in f32; x and y rank-2 with their own strides and offsets.
//   - Every finite x gives a finite y: x = 11 is 11 (to the last bit), x = 3.4e38 is 3.4e38; for
//     large positive x y ~ x, for large negative x y underflows.
//   - Sign of zero: y always has the sign of x (y = x sigmoid(2u), sigmoid > 0), so +0 -> +0,
//     -0 -> -0, and a negative x whose GELU underflows gives -0.
//   - NaN -> NaN; +inf -> +inf; -inf -> -0 (the limits, with the sign rule above).
//   ±0, ±inf are Expected::Kind::exact, NaN is Kind::nan, every other finite x Kind::approx with
//   condition = |t| (1 - sigmoid(t)), t = 2u: the relative change of y per relative change of t, by
//   which a kernel's rounding of u in f32 shows in y (|t| for x << 0, ~0 for x >> 0).
//   (The pipeline compares exact values including the sign of zero, reference/compare.cpp.)
#pragma once

#include <memory>
#include <vector>

#include "core/dtype.hpp"
#include "core/expectation.hpp"
#include "core/op_spec.hpp"
#include "core/tensor_view.hpp"
#include "core/tolerance.hpp"

namespace kverify {

// The expectation for one input value (what gelu_tanh_reference stores per element).
Expected gelu_tanh_expected(double x);

Expectations gelu_tanh_reference(const TensorView& x);
std::unique_ptr<Tolerance> gelu_tanh_tolerance(DType dtype);
std::unique_ptr<Tolerance> gelu_tanh_fast_math_tolerance(DType dtype);  // POLICY fast_math
// The eager composition in the storage precision (reference/baseline.hpp), row-major: the tanh
// formula op by op, each intermediate rounded to the storage dtype (the reference evaluates the
// same function in a form that does not cancel, so the two cannot be one routine: in f64 the
// composed 1 + tanh(u) loses every digit of the negative tail).
std::vector<double> gelu_tanh_eager(const TensorView& x, DType storage);

namespace ops::gelu_tanh {
extern const OpSpec spec;  // spec.cpp
}

}  // namespace kverify
