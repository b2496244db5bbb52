// row_sum: the op's contract, reference, tolerance policy and eager baseline (reference.cpp), its
// Cases, value domain and bench plan (spec.cpp), its properties (properties.cpp).
//
// Contract: y[r] = sum over c of x[r][c], for a rank-2 strided x; accumulation in f32 for every
// storage dtype, the result stored once in the storage dtype (y is R x 1, its own row stride).
// NaN or inf in a row propagate as IEEE addition gives (+inf and -inf together give NaN).
// Exact mode: when every input of a row is an integer and the sum of their magnitudes is below
// 2^24, every partial sum in any order is an exact f32 integer, so the kernel's result must equal
// the exact sum rounded once to the storage dtype, bit for bit.
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

// `out` is the storage dtype of y (exact-mode expectations are rounded to it).
Expectations row_sum_reference(const TensorView& x, DType out);
std::unique_ptr<Tolerance> row_sum_tolerance(DType dtype, std::int64_t row_length);
std::unique_ptr<Tolerance> row_sum_fast_math_tolerance(DType dtype, std::int64_t row_length);  // POLICY fast_math
// The eager composition in the storage precision (reference/baseline.hpp): an f32 sum, stored once.
std::vector<double> row_sum_eager(const TensorView& x, DType storage);

namespace ops::row_sum {
extern const OpSpec spec;  // spec.cpp
}

}  // namespace kverify
