#include "pipeline/sampled_check.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <random>
#include <set>
#include <tuple>

#include "core/parallel.hpp"
#include "pipeline/run_case.hpp"  // note_accuracy
#include "reference/baseline.hpp"
#include "reference/compare.hpp"

namespace kverify {

bool rows_checked_apart(const OpSpec& op) {
  if (op.rows_dim < 0) return false;
  for (const int t : op.outputs())
    if (!op.follows_rows(t)) return false;
  return true;
}

std::int64_t op_rows(const Case& c) {
  return c.op->rows_dim >= 0 ? c.shape[static_cast<std::size_t>(c.op->rows_dim)] : 1;
}

std::pair<std::int64_t, std::int64_t> logical_rows(const Case& c, int t, std::int64_t r0, std::int64_t n) {
  const Layout l = c.layout(t);
  if (!c.op->follows_rows(t)) return {0, l.rows()};
  const std::int64_t per = l.rows() / std::max<std::int64_t>(1, l.sizes[0]);
  return {r0 * per, n * per};
}

TensorView rows_of(const Case& c, int t, const TensorView& whole, std::int64_t r0, std::int64_t n) {
  if (!c.op->follows_rows(t)) return whole;
  TensorView s = whole;
  s.base =
      whole.base + static_cast<std::size_t>(whole.layout.offset + r0 * whole.layout.strides[0]) * size_of(whole.dtype);
  s.layout.sizes[0] = n;
  s.layout.offset = 0;
  return s;
}

std::vector<std::int64_t> sampled_rows(const Case& c, const SampleOptions& o, std::string* how) {
  const std::int64_t rows = op_rows(c);
  std::vector<std::int64_t> all;
  const auto every_row = [&] {
    all.resize(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r) all[static_cast<std::size_t>(r)] = r;
    if (how) *how = "reference on all " + std::to_string(rows) + " rows";
    return all;
  };
  if (!rows_checked_apart(*c.op)) return every_row();
  // Reference work per op row: every dimension but the rows' (a row of a rank-2 op: its columns;
  // of a matmul: N * K multiply-adds).
  std::uint64_t per_row = 1;
  for (std::size_t d = 0; d < c.shape.size(); ++d)
    if (static_cast<int>(d) != c.op->rows_dim) per_row *= static_cast<std::uint64_t>(c.shape[d]);
  const std::uint64_t affordable = std::max<std::uint64_t>(1, o.reference_budget / std::max<std::uint64_t>(1, per_row));
  if (o.reference_budget > 0 && static_cast<std::uint64_t>(rows) <= affordable) return every_row();
  std::set<std::int64_t> pick;
  for (std::int64_t r = 0; r < std::min<std::int64_t>(2, rows); ++r) pick.insert(r);
  pick.insert(rows / 2);
  for (std::int64_t r = std::max<std::int64_t>(0, rows - 4); r < rows; ++r) pick.insert(r);
  int wrap_rows = 0;
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    if (!c.op->follows_rows(t)) continue;
    const Layout l = c.layout(t);
    const std::int64_t row_stride = l.strides[0];
    if (row_stride <= 0) continue;
    const std::int64_t es = static_cast<std::int64_t>(size_of(tensor_dtype(c, t)));
    for (const std::int64_t element :
         {std::int64_t{1} << 31, (std::int64_t{1} << 31) / es, (std::int64_t{1} << 32) / es}) {
      if (l.footprint() <= element || element < l.offset) continue;
      const std::int64_t r = std::min(rows - 1, (element - l.offset) / row_stride);
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
                        const std::vector<GuardedImage>& outputs, std::span<const Tolerance* const> tolerances,
                        unsigned threads, Verdict& verdict) {
  const RowBlockSource from_images = [&](std::int64_t r0, std::int64_t n) {
    RowBlock block;
    for (int t = 0; t < c.op->tensor_count(); ++t) {
      const bool output = c.op->tensors[static_cast<std::size_t>(t)].output;
      (output ? block.outputs : block.inputs).push_back(rows_of(c, t, (output ? outputs : inputs)[t].view(), r0, n));
    }
    return block;
  };
  check_sampled_rows(c, rows, from_images, tolerances, threads, verdict);
}

void check_sampled_rows(const Case& c, const std::vector<std::int64_t>& rows, const RowBlockSource& source,
                        std::span<const Tolerance* const> tolerances, unsigned threads, Verdict& verdict) {
  // (first row, count): runs of consecutive rows, at most 64 rows each, and few enough rows that
  // every thread gets several blocks (16 rows of 2^24 columns are 16 blocks, not one); an op whose
  // rows are not checked apart: one block of them all.
  const std::size_t most = rows_checked_apart(*c.op)
                               ? std::clamp<std::size_t>(rows.size() / (4 * std::max(1u, threads)), 1, 64)
                               : std::max<std::size_t>(1, rows.size());
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t j = i + 1;
    while (j < rows.size() && rows[j] == rows[j - 1] + 1 && j - i < most) ++j;
    blocks.emplace_back(rows[i], static_cast<std::int64_t>(j - i));
    i = j;
  }
  const std::vector<int> outputs = c.op->outputs();
  std::mutex m;
  std::vector<ErrorStats> totals(outputs.size());
  std::vector<double> kernel_units(outputs.size(), 0), eager_units(outputs.size(), 0);
  std::vector<Mismatch> mismatches;
  std::vector<std::int64_t> failed_rows;
  parallel_for(static_cast<std::int64_t>(blocks.size()), threads, [&](std::int64_t b0, std::int64_t b1) {
    for (auto b = b0; b < b1; ++b) {
      const auto [r0, n] = blocks[static_cast<std::size_t>(b)];
      Case sub = c;  // the Case of these rows: the references read its shape
      if (c.op->rows_dim >= 0) sub.shape[static_cast<std::size_t>(c.op->rows_dim)] = n;
      const RowBlock block = source(r0, n);
      const OutputExpectations want = c.op->reference(sub, block.inputs);
      const OutputValues eager = c.op->eager_baseline(sub, block.inputs);
      for (std::size_t k = 0; k < outputs.size(); ++k) {
        const int t = outputs[k];
        const TensorView& view = block.outputs.at(k);
        Comparison cmp = compare_output(view, c.op->tensors[static_cast<std::size_t>(t)].name, want.at(k),
                                        *tolerances[k], c.op->tensors[static_cast<std::size_t>(t)].rows_sum_to_one);
        const BaselineCheck base = check_against_baseline(view, eager.at(k), want.at(k), *tolerances[k]);
        const std::int64_t row0 = logical_rows(c, t, r0, n).first;
        std::lock_guard lock(m);
        merge_into(totals[k], cmp.stats, row0);
        kernel_units[k] = std::max(kernel_units[k], base.kernel_max_ulps);
        eager_units[k] = std::max(eager_units[k], base.baseline_max_ulps);
        for (auto& mm : cmp.first_mismatches) {
          mm.row += row0;
          if (!mm.index.empty()) mm.index = index_text(c.layout(t), mm.row, mm.col);
          mismatches.push_back(mm);
        }
        for (auto r : cmp.failed_rows) failed_rows.push_back(r + row0);
      }
    }
  });
  std::sort(mismatches.begin(), mismatches.end(), [](const Mismatch& a, const Mismatch& b) {
    return std::tie(a.noted, a.tensor, a.row, a.col) < std::tie(b.noted, b.tensor, b.row, b.col);  // failing first
  });
  if (mismatches.size() > Verdict::kMaxListed) mismatches.resize(Verdict::kMaxListed);
  std::sort(failed_rows.begin(), failed_rows.end());
  failed_rows.erase(std::unique(failed_rows.begin(), failed_rows.end()), failed_rows.end());
  if (failed_rows.size() > Verdict::kMaxListed) failed_rows.resize(Verdict::kMaxListed);
  ErrorStats total;
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    totals[k].baseline_kernel_ulps = kernel_units[k];
    totals[k].baseline_eager_ulps = eager_units[k];
    const std::string name(c.op->tensors[static_cast<std::size_t>(outputs[k])].name);
    // The baseline rule over the sampled elements.
    if (std::string broken = baseline_rule_violation(kernel_units[k], eager_units[k]); !broken.empty())
      verdict.guards.push_back({"baseline", name, std::move(broken)});
    note_accuracy(verdict, name, totals[k].noted, *tolerances[k]);
    if (k == 0)
      total = totals[k];
    else
      merge_into(total, totals[k]);
    if (outputs.size() > 1) verdict.outputs.push_back({name, totals[k], tolerances[k]->describe()});
  }
  for (const auto& k : totals) total.failed_rows = std::max(total.failed_rows, k.failed_rows);  // rows of the op
  verdict.stats = total;
  verdict.first_mismatches = std::move(mismatches);
  verdict.failed_rows = std::move(failed_rows);
}

}  // namespace kverify
