// The reference on sampled rows, for Cases too big for a full host reference (the bench's gate on
// the timed shapes, `kverify huge`): the guards still cover every element, the reference covers the
// rows chosen here. The sample always holds the first two rows, the middle row, the last four, and
// the rows holding element 2^31 and the 2^31- and 2^32-byte offsets of every tensor whose rows are
// the output's rows (where 32-bit index arithmetic breaks), plus seeded random rows.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/verdict.hpp"
#include "pipeline/guarded_image.hpp"
#include "reference/tolerance.hpp"

namespace kverify {

struct SampleOptions {
  // Reference work (output elements times the reduction length) done in full: a Case within it
  // has every row checked. 0: always sample.
  std::uint64_t reference_budget = 1ull << 24;
  int random_rows = 8;     // at least this many random rows in a sample
  std::uint64_t seed = 1;  // which random rows
};

// The output rows whose reference is checked, sorted and unique; `how` says how they were chosen.
std::vector<std::int64_t> sampled_rows(const Case& c, const SampleOptions& options, std::string* how = nullptr);

// The stored values of a block of consecutive output rows [r0, r0 + n): the op's input tensors in
// tensor order (a tensor whose rows are the output's gives those rows, any other is whole) and the
// output's rows. Where they come from is the caller's: host images, or rows copied off a device.
struct RowBlock {
  std::vector<TensorView> inputs;
  TensorView output;
};
using RowBlockSource = std::function<RowBlock(std::int64_t r0, std::int64_t n)>;

// Reference and eager baseline on `rows` of the output, from the pristine inputs, compared with
// the output: the Verdict's statistics, first mismatches, failed rows and the baseline guard, as
// run_case gives them for the rows checked (positions in the Case's own rows). Host work over
// `threads` threads; the result is the same for any count.
void check_sampled_rows(const Case& c, const std::vector<std::int64_t>& rows, const RowBlockSource& source,
                        const std::string& output_name, const Tolerance& tolerance, unsigned threads, Verdict& verdict);
// The same, from the Case's host images (`inputs`: every tensor's image, outputs unused).
void check_sampled_rows(const Case& c, const std::vector<std::int64_t>& rows, const std::vector<GuardedImage>& inputs,
                        const GuardedImage& output, const Tolerance& tolerance, unsigned threads, Verdict& verdict);

// Whether tensor t's rows are the output's rows (an elementwise op's x, matmul's A; not matmul's B).
bool follows_output_rows(const Case& c, int t);

}  // namespace kverify
