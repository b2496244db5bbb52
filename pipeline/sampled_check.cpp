#include "pipeline/sampled_check.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <random>
#include <set>
#include <tuple>

#include "core/parallel.hpp"
#include "reference/baseline.hpp"
#include "reference/compare.hpp"

namespace kverify {
namespace {

TensorView rows_of(const TensorView& v, std::int64_t r0, std::int64_t n) {
  TensorView s = v;
  s.base = v.bytes_at(r0, 0);
  s.layout.rows = n;
  s.layout.offset = 0;
  return s;
}

void merge(ErrorStats& into, const ErrorStats& s, std::int64_t row0) {
  into.checked += s.checked;
  into.failed += s.failed;
  into.failed_rows += s.failed_rows;
  into.max_abs = std::max(into.max_abs, s.max_abs);
  into.max_rel = std::max(into.max_rel, s.max_rel);
  if (s.worst_row >= 0 && (s.max_ulp > into.max_ulp || into.worst_row < 0)) {
    into.max_ulp = s.max_ulp;
    into.worst_row = s.worst_row + row0;
    into.worst_col = s.worst_col;
  }
  into.worst_margin = std::max(into.worst_margin, s.worst_margin);
  into.nan_outputs += s.nan_outputs;
  into.inf_outputs += s.inf_outputs;
  into.max_row_sum_deviation = std::max(into.max_row_sum_deviation, s.max_row_sum_deviation);
}

}  // namespace

bool follows_output_rows(const Case& c, int t) {
  const int out = c.op->output_tensor();
  return c.op->tensors()[t].rows_dim == c.op->tensors()[out].rows_dim;
}

std::vector<std::int64_t> sampled_rows(const Case& c, const SampleOptions& o, std::string* how) {
  const std::int64_t rows = c.layout(c.op->output_tensor()).rows;
  // Reference work per output row: every shape dimension but the rows' (a row of a rank-2 op: its
  // columns; of a matmul: N * K multiply-adds).
  std::uint64_t per_row = 1;
  for (std::size_t d = 1; d < c.shape.size(); ++d) per_row *= static_cast<std::uint64_t>(c.shape[d]);
  const std::uint64_t affordable = std::max<std::uint64_t>(1, o.reference_budget / std::max<std::uint64_t>(1, per_row));
  std::vector<std::int64_t> all;
  if (o.reference_budget > 0 && static_cast<std::uint64_t>(rows) <= affordable) {
    all.resize(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r) all[static_cast<std::size_t>(r)] = r;
    if (how) *how = "reference on all " + std::to_string(rows) + " rows";
    return all;
  }
  std::set<std::int64_t> pick;
  for (std::int64_t r = 0; r < std::min<std::int64_t>(2, rows); ++r) pick.insert(r);
  pick.insert(rows / 2);
  for (std::int64_t r = std::max<std::int64_t>(0, rows - 4); r < rows; ++r) pick.insert(r);
  int wrap_rows = 0;
  const std::int64_t es = static_cast<std::int64_t>(size_of(c.dtype));
  for (int t = 0; t < c.op->tensor_count; ++t) {
    if (!follows_output_rows(c, t)) continue;
    const Layout2D l = c.layout(t);
    if (l.row_stride <= 0) continue;
    for (const std::int64_t element :
         {std::int64_t{1} << 31, (std::int64_t{1} << 31) / es, (std::int64_t{1} << 32) / es}) {
      if (l.footprint() <= element || element < l.offset) continue;
      const std::int64_t r = std::min(rows - 1, (element - l.offset) / l.row_stride);
      pick.insert(r);
      if (r + 1 < rows) pick.insert(r + 1);
      ++wrap_rows;
    }
  }
  std::mt19937_64 rng(o.seed ^ static_cast<std::uint64_t>(rows));
  std::uniform_int_distribution<std::int64_t> any(0, rows - 1);
  const std::size_t target = std::max<std::size_t>(pick.size() + static_cast<std::size_t>(o.random_rows),
                                                   o.reference_budget > 0 ? static_cast<std::size_t>(affordable) : 0);
  for (int tries = 0; pick.size() < target && tries < 1000000; ++tries) pick.insert(any(rng));
  all.assign(pick.begin(), pick.end());
  if (how)
    *how = "reference on sampled " + std::to_string(all.size()) + " of " + std::to_string(rows) +
           " rows (first 2, middle, last 4, " +
           (wrap_rows ? "the rows at element 2^31 and the 2^31/2^32-byte offsets, " : "") + "random rows of seed " +
           std::to_string(o.seed) + "); guards, poison, inputs and determinism on every element";
  return all;
}

void check_sampled_rows(const Case& c, const std::vector<std::int64_t>& rows, const std::vector<GuardedImage>& inputs,
                        const GuardedImage& got, const Tolerance& tolerance, unsigned threads, Verdict& verdict) {
  const RowBlockSource from_images = [&](std::int64_t r0, std::int64_t n) {
    RowBlock block;
    for (int t = 0; t < c.op->tensor_count; ++t) {
      if (c.op->tensors()[t].output) continue;
      block.inputs.push_back(follows_output_rows(c, t) ? rows_of(inputs[t].view(), r0, n) : inputs[t].view());
    }
    block.output = rows_of(got.view(), r0, n);
    return block;
  };
  check_sampled_rows(c, rows, from_images, got.name(), tolerance, threads, verdict);
}

void check_sampled_rows(const Case& c, const std::vector<std::int64_t>& rows, const RowBlockSource& source,
                        const std::string& output_name, const Tolerance& tolerance, unsigned threads,
                        Verdict& verdict) {
  // (first row, count): runs of consecutive rows, at most 64 rows each, and few enough rows that
  // every thread gets several blocks (16 rows of 2^24 columns are 16 blocks, not one).
  const std::size_t most = std::clamp<std::size_t>(rows.size() / (4 * std::max(1u, threads)), 1, 64);
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t j = i + 1;
    while (j < rows.size() && rows[j] == rows[j - 1] + 1 && j - i < most) ++j;
    blocks.emplace_back(rows[i], static_cast<std::int64_t>(j - i));
    i = j;
  }
  const int out = c.op->output_tensor();
  const int rows_dim = c.op->tensors()[out].rows_dim;
  std::mutex m;
  ErrorStats total;
  double kernel_units = 0, eager_units = 0;
  std::vector<Mismatch> mismatches;
  std::vector<std::int64_t> failed_rows;
  parallel_for(static_cast<std::int64_t>(blocks.size()), threads, [&](std::int64_t b0, std::int64_t b1) {
    for (auto b = b0; b < b1; ++b) {
      const auto [r0, n] = blocks[static_cast<std::size_t>(b)];
      Case sub = c;  // the Case of these rows: the references read its shape
      sub.shape[static_cast<std::size_t>(rows_dim)] = n;
      const RowBlock block = source(r0, n);
      const TensorView& view = block.output;
      const Expectations want = c.op->reference(sub, block.inputs);
      Comparison cmp = compare_output(view, output_name, want, tolerance, c.op->rows_sum_to_one);
      const BaselineCheck base = check_against_baseline(view, c.op->eager_baseline(sub, block.inputs), want, tolerance);
      std::lock_guard lock(m);
      merge(total, cmp.stats, r0);
      kernel_units = std::max(kernel_units, base.kernel_max_ulps);
      eager_units = std::max(eager_units, base.baseline_max_ulps);
      for (auto& mm : cmp.first_mismatches) {
        mm.row += r0;
        mismatches.push_back(mm);
      }
      for (auto r : cmp.failed_rows) failed_rows.push_back(r + r0);
    }
  });
  std::sort(mismatches.begin(), mismatches.end(),
            [](const Mismatch& a, const Mismatch& b) { return std::tie(a.row, a.col) < std::tie(b.row, b.col); });
  if (mismatches.size() > Verdict::kMaxListed) mismatches.resize(Verdict::kMaxListed);
  std::sort(failed_rows.begin(), failed_rows.end());
  if (failed_rows.size() > Verdict::kMaxListed) failed_rows.resize(Verdict::kMaxListed);
  total.baseline_kernel_ulps = kernel_units;
  total.baseline_eager_ulps = eager_units;
  // The baseline rule over the sampled elements.
  if (std::string broken = baseline_rule_violation(kernel_units, eager_units); !broken.empty())
    verdict.guards.push_back({"baseline", output_name, std::move(broken)});
  verdict.stats = total;
  verdict.first_mismatches = std::move(mismatches);
  verdict.failed_rows = std::move(failed_rows);
}

}  // namespace kverify
