// matmul_relu, C = relu(A B): the op's contract, reference, tolerance policy and eager baseline
// (reference.cpp), its Cases, value domain and bench plan (spec.cpp), its properties
// (properties.cpp).
//
// Contract (every matmul_relu variant implements it the same way):
//   A is M x K, B is K x N, C is M x N, each with its own row and column strides and offset (row-major,
//   column-major, padded); any M, N, K >= 1.
//   C[m][n] = relu(sum_k A[m][k] B[k][n]), with relu applied ONCE, to the full K sum (never per K
//   tile or per partial sum).
//   Arithmetic: f32 storage: f32 with IEEE fused multiply-add (fmaf; no TF32). f16/bf16 storage:
//   inputs widened exactly to f32, products and accumulation in f32, the result rounded once (to
//   nearest even) to the storage dtype.
//   relu(v) = v for v > 0, +0 for v <= 0 (including -0), and NaN for NaN: NaN propagates (CUDA's
//   fmaxf(NaN, 0) returns 0, so a kernel must not use it for the ReLU).
//   Non-finite inputs propagate as IEEE arithmetic gives: a NaN in A's row m or B's column n, an
//   inf times 0, or +inf and -inf products in one sum make C[m][n] NaN; otherwise an infinite sum
//   is +inf (kept) or -inf (ReLU gives 0).
//   Domain: every product and partial sum finite in f32 (a finite f64 sum whose f32 evaluation
//   overflows is outside it). A result whose correctly rounded value overflows the output dtype is
//   required to be that infinity (after the ReLU); results within the tolerance of the output
//   dtype's overflow threshold are outside the domain.
//
// The reference (matmul_relu_reference) reads the stored inputs (widened exactly) and gives, per
// element of C:
//   - Kind::nan where the f64 sum is NaN;
//   - Kind::exact, value relu(+-inf), where the sum is infinite or its rounding to the output dtype
//     overflows;
//   - Kind::exact, value round(relu(sum)) to the output dtype ("exact mode"), where every A[m][k]
//     and B[k][n] of the dot product is an integer and sum_k |A[m][k] B[k][n]| <= 2^24: every
//     product and every partial sum, in any order, is then an integer of magnitude <= 2^24, exact
//     in f32, so the f32 result is the exact sum and the single rounding to f16/bf16 (round to
//     nearest even) is determined: a correct kernel's output is bitwise predictable;
//   - Kind::approx otherwise, value relu(sum) in f64, condition = sum_k |A[m][k] B[k][n]|, the
//     magnitude that bounds the rounding error (matmul_relu_tolerance).
// The output dtype is the inputs' dtype (a Case has one storage dtype).
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

Expectations matmul_relu_reference(const TensorView& a, const TensorView& b);
std::unique_ptr<Tolerance> matmul_relu_tolerance(DType dtype, std::int64_t k);
std::unique_ptr<Tolerance> matmul_relu_fast_math_tolerance(DType dtype, std::int64_t k);  // POLICY fast_math
// The eager composition in the storage precision (reference/baseline.hpp): f32 fma chains over K
// (in sequence, and K cut into 2 and 4 ranges: per element the worst of these orders), the sum
// stored in the storage dtype, then the ReLU.
std::vector<double> matmul_relu_eager(const TensorView& a, const TensorView& b, DType storage);

// The contract's ReLU on the f64 reference value: NaN stays NaN, v <= 0 gives +0.
inline double relu_keep_nan(double v) { return v > 0 ? v : (v != v ? v : 0.0); }

namespace ops::matmul_relu {
extern const OpSpec spec;  // spec.cpp
}

}  // namespace kverify
