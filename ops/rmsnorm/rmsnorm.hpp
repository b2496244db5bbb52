// rmsnorm: the op's contract, reference, tolerance policy and eager baseline (reference.cpp), its
// Cases, value domain and bench plan (spec.cpp), its properties (properties.cpp).
//
// Contract, for x[R, C] and w[C] (strided, the storage dtype) and a parameter eps in [1e-12, 1]:
//   rstd[r]  = 1 / sqrt(mean_c x[r, c]^2 + eps)        f32, one per row
//   y[r, c]  = x[r, c] * rstd[r] * w[c]                 the storage dtype
// The squares are accumulated in f32 for every storage dtype; rstd is stored as it is computed and
// y rounded once to the storage dtype. Finite inputs have |x| <= 1e15, so that C x^2 stays far
// below f32's range for every width the op takes (C <= 2^24). NaN and +-inf inputs give what IEEE
// arithmetic gives: a NaN in a row makes the whole row NaN (its rstd too); an infinity makes its
// row's rstd 0, so the row's finite elements become +-0 and its infinities NaN (inf * 0).
#pragma once

#include <cstdint>
#include <memory>

#include "core/dtype.hpp"
#include "core/expectation.hpp"
#include "core/op_spec.hpp"
#include "core/tensor_view.hpp"
#include "core/tolerance.hpp"

namespace kverify {

// A row's statistics as the reference computes them (float64 decides: every term of the sum is
// positive, so its relative error is at most C 2^-53, far below any f32 bound).
struct RmsRow {
  double mean_square = 0;
  double rstd = 0;
};
RmsRow rmsnorm_row(const TensorView& x, std::int64_t row, double eps);

// y and rstd for every row (Expectations in tensor order: y, then rstd).
OutputExpectations rmsnorm_reference(const TensorView& x, const TensorView& w, double eps);
// `output`: 0 for y (in `dtype`), 1 for rstd (f32); `width` is C.
std::unique_ptr<Tolerance> rmsnorm_tolerance(DType dtype, std::int64_t width, int output);
// PyTorch's RMSNorm as LlamaRMSNorm writes it (transformers' modeling_llama.py), in the storage
// precision: the row in f32, its mean square and rsqrt in f32, x * rstd rounded to the storage
// dtype, then times the weight in it.
OutputValues rmsnorm_eager(const TensorView& x, const TensorView& w, double eps, DType storage);

namespace ops::rmsnorm {
extern const OpSpec spec;  // spec.cpp
}

}  // namespace kverify
