// layernorm: the op's contract, reference, tolerance policy and eager baseline (reference.cpp), its
// Cases, value domain and bench plan (spec.cpp), its properties (properties.cpp).
//
// Contract, for x[R, C], w[C], b[C] (strided, the storage dtype) and a parameter eps in [1e-12, 1]:
//   mean[r] = sum_c x[r, c] / C                                  f32, one per row
//   rstd[r] = 1 / sqrt(sum_c (x[r, c] - mean[r])^2 / C + eps)    f32 (the biased variance)
//   y[r, c] = (x[r, c] - mean[r]) * rstd[r] * w[c] + b[c]        the storage dtype
// f32 arithmetic for every storage dtype, y rounded once. Inputs are finite with |x| <= 1e15, so
// that C (x - mean)^2 stays far below f32's range for every width the op takes (C <= 2^24).
// NaN and +-inf inputs are outside the contract: a row's mean with an infinity in it is +-inf for
// a two-pass kernel and NaN for a Welford kernel, and both are right by IEEE arithmetic.
#pragma once

#include <cstdint>
#include <memory>

#include "core/dtype.hpp"
#include "core/expectation.hpp"
#include "core/op_spec.hpp"
#include "core/tensor_view.hpp"
#include "core/tolerance.hpp"

namespace kverify {

// A row's statistics as the reference computes them: the mean from a compensated sum, or the exact
// sum where that cannot certify it (reference/exact.hpp), then the variance as the sum of squared
// deviations from that mean (positive terms: float64 decides). Never sum x^2 - C mean^2: for a
// row with a large mean and a small spread it cancels to nothing, in float64 too.
struct LayernormRow {
  double mean = 0;
  double variance = 0;  // biased: the mean of the squared deviations
  double rstd = 0;
  double mean_magnitude = 0;  // sum |x| / C: the scale of the f32 sum's rounding errors
};
LayernormRow layernorm_row(const TensorView& x, std::int64_t row, double eps);

// y, mean and rstd for every row (Expectations in tensor order: y, mean, rstd). Each element's
// `condition` is its error budget in units of f32's unit roundoff, derived from its row's
// statistics (reference.cpp: the derivation); the tolerance policy scales it and adds the storage
// rounding.
OutputExpectations layernorm_reference(const TensorView& x, const TensorView& w, const TensorView& b, double eps);
// `output`: 0 for y (in `dtype`), 1 for mean, 2 for rstd (f32); `width` is C.
std::unique_ptr<Tolerance> layernorm_tolerance(DType dtype, std::int64_t width, int output);
// torch.nn.functional.layer_norm as its CPU kernel computes it for f32, f16 and bf16 inputs (f32
// opmath): the row's mean, its biased variance about that mean, rstd = 1 / sqrt(var + eps), and
// y = (x - mean) * rstd * w + b in f32, rounded once to the storage dtype. Sums in sequence.
OutputValues layernorm_eager(const TensorView& x, const TensorView& w, const TensorView& b, double eps, DType storage);

namespace ops::layernorm {
extern const OpSpec spec;  // spec.cpp
}

}  // namespace kverify
