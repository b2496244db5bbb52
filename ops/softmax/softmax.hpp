// softmax: the op's contract, reference, tolerance policy and eager baseline (reference.cpp), its
// Cases, value domain and bench plan (spec.cpp), its properties (properties.cpp).
//
// Contract (every softmax variant implements it the same way):
//   in-domain: finite inputs, |x| <= 1e30: y = exp(x - max) / sum(exp(x - max)) per row;
//   an element equal to -inf among finite ones: exactly 0;
//   out-of-domain, the whole output row is NaN: a NaN anywhere in the row, a +inf anywhere in the
//   row, or a row whose elements are all -inf. (This is what IEEE arithmetic gives for the
//   max-subtract-exp-sum formulation, and what torch.softmax returns.)
#pragma once

#include <cstdint>
#include <memory>

#include <vector>

#include "core/dtype.hpp"
#include "core/expectation.hpp"
#include "core/op_spec.hpp"
#include "core/tensor_view.hpp"
#include "core/tolerance.hpp"

namespace kverify {

Expectations softmax_reference(const TensorView& x);
std::unique_ptr<Tolerance> softmax_tolerance(DType dtype, std::int64_t row_length);
std::unique_ptr<Tolerance> softmax_fast_math_tolerance(DType dtype, std::int64_t row_length);
// The eager composition in the storage precision (reference/baseline.hpp), row-major.
std::vector<double> softmax_eager(const TensorView& x, DType storage);
// The same contract with the in-domain values in 166-bit MPFR arithmetic (exp correctly rounded at
// that precision), rounded to f64 at the end: to test softmax_reference against.
Expectations softmax_reference_exact(const TensorView& x);

namespace ops::softmax {
extern const OpSpec spec;  // spec.cpp
}

}  // namespace kverify
