// The reference on sampled rows, for Cases too big for a full host reference (the bench's gate on
// the timed shapes, `kverify huge`): the guards still cover every element, the reference covers the
// rows chosen here. A row is one index of the op's rows dimension (OpSpec::rows_dim: softmax's
// rows, matmul's m, layernorm's N): the tensors whose first dimension it is are cut with it, the
// others read whole. The sample always holds the first two rows, the middle row, the last four, and
// the rows holding element 2^31 and the 2^31- and 2^32-byte offsets of every tensor cut with them
// (where 32-bit index arithmetic breaks), plus seeded random rows. An op without such a dimension,
// or with an output not cut with it (a loss reduced over every row), is checked on all its rows at
// once.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/tolerance.hpp"
#include "core/verdict.hpp"
#include "pipeline/guarded_image.hpp"

namespace kverify {

struct SampleOptions {
  // Reference work (output elements times the reduction length) done in full: a Case within it
  // has every row checked. 0: always sample.
  std::uint64_t reference_budget = 1ull << 24;
  int random_rows = 8;     // at least this many random rows in a sample
  std::uint64_t seed = 1;  // which random rows
};

// The op's rows whose reference is checked, sorted and unique; `how` says how they were chosen.
std::vector<std::int64_t> sampled_rows(const Case& c, const SampleOptions& options, std::string* how = nullptr);

// The stored values of a block of consecutive op rows [r0, r0 + n): the op's input tensors and its
// outputs, each in tensor order (a tensor cut with the rows gives those rows, any other is whole).
// Where they come from is the caller's: host images, or rows copied off a device.
struct RowBlock {
  std::vector<TensorView> inputs;
  std::vector<TensorView> outputs;
};
using RowBlockSource = std::function<RowBlock(std::int64_t r0, std::int64_t n)>;

// Reference and eager baseline on `rows` of the op, from the pristine inputs, compared with the
// outputs: the Verdict's statistics, first mismatches, failed rows and the baseline guard, as
// run_case gives them for the rows checked (positions in the Case's own rows). `tolerances`: one
// per output. Host work over `threads` threads; the result is the same for any count.
void check_sampled_rows(const Case& c, const std::vector<std::int64_t>& rows, const RowBlockSource& source,
                        std::span<const Tolerance* const> tolerances, unsigned threads, Verdict& verdict);
// The same from host images: `inputs` holds every tensor's pristine image, `outputs` the run's
// images of the outputs' tensors (indexed like the Case's tensors; others unused).
void check_sampled_rows(const Case& c, const std::vector<std::int64_t>& rows, const std::vector<GuardedImage>& inputs,
                        const std::vector<GuardedImage>& outputs, std::span<const Tolerance* const> tolerances,
                        unsigned threads, Verdict& verdict);

// Whether the op's rows can be checked apart (a rows dimension that cuts every output).
bool rows_checked_apart(const OpSpec& op);
// The op's rows: the size of its rows dimension (1 without one).
std::int64_t op_rows(const Case& c);
// Tensor t's logical rows (core/layout.hpp) that hold op rows [r0, r0 + n): the tensor's rows per op
// row times them; a tensor not cut with the rows: all of its rows.
std::pair<std::int64_t, std::int64_t> logical_rows(const Case& c, int t, std::int64_t r0, std::int64_t n);
// Tensor t's view of op rows [r0, r0 + n) (a tensor not cut with the rows: the whole view).
TensorView rows_of(const Case& c, int t, const TensorView& whole, std::int64_t r0, std::int64_t n);

}  // namespace kverify
