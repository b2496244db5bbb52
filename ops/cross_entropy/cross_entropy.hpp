// cross_entropy: the op's contract, reference, tolerance policy and eager baseline (reference.cpp),
// its Cases, value domain and bench plan (spec.cpp), its properties (properties.cpp).
//
// Contract, for logits x[R, V] (strided, the storage dtype), targets t[R] (i64) and the parameters
// ignore_index (an integer) and reduction (mean or sum):
//   loss[r]  = logsumexp_c x[r, c] - x[r, t[r]]        f32; exactly 0 where t[r] == ignore_index
//   total    = sum of loss[r] over the rows not ignored  f32 (reduction=sum),
//              divided by their count                     (reduction=mean; NaN when every row is ignored)
// loss is torch.nn.functional.cross_entropy's reduction='none', total its 'mean' or 'sum', as
// PyTorch defines them (ignore_index rows give 0 and leave the mean's count). f32 arithmetic for
// every storage dtype. Finite logits have |x| <= 1e30, so that loss <= 2e30 + log V stays in f32's
// range. A -inf logit is a masked class (its exponential 0): a target at -inf has loss +inf, a row
// of -inf only NaN; a NaN or +inf logit makes its row's loss NaN, as PyTorch's. total is NaN or +inf
// when a loss it takes is. A target is ignore_index or a class in [0, V) (anything else is outside
// the contract: PyTorch asserts on the device).
#pragma once

#include <cstdint>
#include <memory>

#include "core/dtype.hpp"
#include "core/expectation.hpp"
#include "core/op_spec.hpp"
#include "core/tensor_view.hpp"
#include "core/tolerance.hpp"

namespace kverify {

inline constexpr int kCrossEntropyMean = 0, kCrossEntropySum = 1;  // the reduction parameter's choices

// One row as the reference computes it: m the row's largest logit, and the log of
// s = sum_c exp(x[c] - m) >= 1 as log1p of the terms other than one largest (every term is
// positive: float64 decides, to a few units of 2^-53). loss = (m - x[t]) + log s adds two
// non-negative terms, so it never cancels, whatever the size of the logits.
struct CrossEntropyRow {
  double max = 0;
  double log_sum = 0;       // log s, in [0, log V]
  double weighted_gap = 0;  // sum_c w_c |x[c] - m|, w the softmax of the row: the exponentials' error scale
  double lse() const { return max + log_sum; }
};
CrossEntropyRow cross_entropy_row(const TensorView& logits, std::int64_t row);

// loss and total (Expectations in tensor order). Each element's `condition` is its error budget in
// units of f32's unit roundoff, derived from its row (reference.cpp: the derivation).
OutputExpectations cross_entropy_reference(const TensorView& logits, const TensorView& targets,
                                           std::int64_t ignore_index, int reduction);
// `output`: 0 for loss, 1 for total.
std::unique_ptr<Tolerance> cross_entropy_tolerance(std::int64_t classes, std::int64_t rows, int output);
// torch.nn.functional.cross_entropy as its CPU kernels compute it: log_softmax in f32 (max,
// sum of exp, x - max - log(sum)) rounded to the storage dtype, nll_loss gathering -logp[t] in the
// storage dtype, the reduction summed in f32 and rounded to the storage dtype once.
OutputValues cross_entropy_eager(const TensorView& logits, const TensorView& targets, std::int64_t ignore_index,
                                 int reduction, DType storage);

namespace ops::cross_entropy {
extern const OpSpec spec;  // spec.cpp
}

}  // namespace kverify
