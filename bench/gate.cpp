#include "bench/gate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <random>
#include <set>

#include "core/parallel.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/run_case.hpp"  // materialize, guarded_run, compare_runs, decide_outcome, subject_of
#include "reference/baseline.hpp"
#include "reference/compare.hpp"
#include "reference/op_checks.hpp"

namespace kverify::bench {
namespace {

bool is_output(const Case& c, int t) { return c.op->tensors()[t].output; }
int output_index(const Case& c) { return c.op->tensor_count - 1; }  // every op's output is its last tensor

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
  if (s.max_ulp > into.max_ulp || into.worst_row < 0) {
    if (s.worst_row >= 0 && (s.max_ulp > into.max_ulp || into.worst_row < 0)) {
      into.max_ulp = s.max_ulp;
      into.worst_row = s.worst_row + row0;
      into.worst_col = s.worst_col;
    }
  }
  into.worst_margin = std::max(into.worst_margin, s.worst_margin);
  into.nan_outputs += s.nan_outputs;
  into.inf_outputs += s.inf_outputs;
  into.max_row_sum_deviation = std::max(into.max_row_sum_deviation, s.max_row_sum_deviation);
}

// Reference agreement on the chosen output rows, in blocks of consecutive rows over threads:
// reference and eager baseline from `inputs` (pristine), compared with `got`.
void check_rows(const Case& c, const std::vector<std::int64_t>& rows, const std::vector<GuardedImage>& inputs,
                const GuardedImage& got, const Tolerance& tolerance, unsigned threads, Verdict& verdict) {
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;  // (first row, count), at most 64 rows each
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t j = i + 1;
    while (j < rows.size() && rows[j] == rows[j - 1] + 1 && j - i < 64) ++j;
    blocks.emplace_back(rows[i], static_cast<std::int64_t>(j - i));
    i = j;
  }
  const bool matmul = c.op->name == "matmul_relu";
  std::mutex m;
  ErrorStats total;
  double kernel_units = 0, eager_units = 0;
  std::vector<Mismatch> mismatches;
  std::vector<std::int64_t> failed_rows;
  parallel_for(static_cast<std::int64_t>(blocks.size()), threads, [&](std::int64_t b0, std::int64_t b1) {
    for (auto b = b0; b < b1; ++b) {
      const auto [r0, n] = blocks[b];
      Case sub = c;
      sub.shape[0] = n;
      std::vector<TensorView> in;
      for (int t = 0; t < c.op->tensor_count; ++t) {
        if (is_output(c, t)) continue;
        // matmul: rows of C need the same rows of A and all of B.
        in.push_back(matmul && t == 1 ? inputs[t].view() : rows_of(inputs[t].view(), r0, n));
      }
      const TensorView out = rows_of(got.view(), r0, n);
      const Expectations want = reference_for(sub, in);
      Comparison cmp = compare_output(out, got.name(), want, tolerance, c.op->name == "softmax");
      const BaselineCheck base = check_against_baseline(out, baseline_output(sub, in), want, tolerance);
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
  // The baseline rule over the sampled elements, as check_against_baseline states it.
  const double allowed = kBaselineFactor * eager_units + kBaselineSlack;
  if (kernel_units > allowed) {
    char detail[200];
    std::snprintf(detail, sizeof detail, "max error %.4g units exceeds %.3g x the eager baseline's %.4g + slack = %.4g units",
                  kernel_units, kBaselineFactor, eager_units, allowed);
    verdict.guards.push_back({"baseline", got.name(), detail});
  }
  verdict.stats = total;
  verdict.first_mismatches = std::move(mismatches);
  verdict.failed_rows = std::move(failed_rows);
}

}  // namespace

std::vector<std::int64_t> reference_rows(const Case& c, const GateOptions& o, std::string* how) {
  const Layout2D out = c.layout(output_index(c));
  const std::int64_t rows = out.rows;
  // Reference work per output row: its elements, or N*K multiply-adds for matmul.
  const std::uint64_t per_row = c.op->name == "matmul_relu"
                                    ? static_cast<std::uint64_t>(c.shape[1]) * static_cast<std::uint64_t>(c.shape[2])
                                    : static_cast<std::uint64_t>(c.layout(0).cols);
  const std::uint64_t affordable = std::max<std::uint64_t>(1, o.reference_budget / std::max<std::uint64_t>(1, per_row));
  std::vector<std::int64_t> all;
  if (static_cast<std::uint64_t>(rows) <= affordable) {
    all.resize(rows);
    for (std::int64_t r = 0; r < rows; ++r) all[r] = r;
    if (how) *how = "reference on all " + std::to_string(rows) + " rows";
    return all;
  }
  std::set<std::int64_t> pick;
  for (std::int64_t r = 0; r < std::min<std::int64_t>(2, rows); ++r) pick.insert(r);
  for (std::int64_t r = std::max<std::int64_t>(0, rows - 4); r < rows; ++r) pick.insert(r);  // the tail rows
  // The rows holding the elements at byte offsets 2^31 and 2^32 (and the next row) of every
  // tensor: 32-bit index arithmetic breaks there.
  std::int64_t big = 0;
  for (int t = 0; t < c.op->tensor_count; ++t) {
    const Layout2D l = c.layout(t);
    const std::int64_t es = static_cast<std::int64_t>(size_of(c.dtype));
    for (std::int64_t bytes : {std::int64_t{1} << 31, std::int64_t{1} << 32}) {
      if (l.footprint() * es <= bytes || l.row_stride <= 0) continue;
      // Output rows only follow tensors whose rows are the output's rows (not matmul's B).
      if (c.op->name == "matmul_relu" && t == 1) continue;
      const std::int64_t r = std::min(rows - 1, (bytes / es - l.offset) / std::max<std::int64_t>(1, l.row_stride));
      pick.insert(r);
      if (r + 1 < rows) pick.insert(r + 1);
      ++big;
    }
  }
  std::mt19937_64 rng(o.sample_seed ^ static_cast<std::uint64_t>(rows));
  std::uniform_int_distribution<std::int64_t> any(0, rows - 1);
  const std::size_t target = std::max<std::size_t>(pick.size() + 8, static_cast<std::size_t>(affordable));
  for (int guard = 0; pick.size() < target && guard < 1000000; ++guard) pick.insert(any(rng));
  all.assign(pick.begin(), pick.end());
  if (how)
    *how = "reference on sampled " + std::to_string(all.size()) + " of " + std::to_string(rows) +
           " rows (first 2, last 4, " + (big ? "the rows at the 2^31/2^32-byte offsets, " : "") +
           "random rows of seed " + std::to_string(o.sample_seed) + "); guards, poison, inputs and determinism on every element";
  return all;
}

GateResult gate_case(const Case& c, const Variant& v, const GateOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  GateResult result;
  Verdict& verdict = result.verdict;
  verdict.reproduce = c.to_text();
  verdict.subject = subject_of(c);
  const auto finish = [&]() -> GateResult& {
    verdict.seconds = result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  if (std::string why; !backend_available(c.backend, &why)) {
    verdict.outcome = Outcome::skipped;
    verdict.reason = "backend " + std::string(name(c.backend)) + " is not available here: " + why;
    return finish();
  }
  const unsigned threads = std::max(1u, o.threads);
  const auto tolerance = tolerance_for(c);
  verdict.tolerance = tolerance->describe();
  const std::vector<std::int64_t> rows = reference_rows(c, o, &result.coverage);
  result.rows_checked = static_cast<std::int64_t>(rows.size());
  result.rows_total = c.layout(output_index(c)).rows;

  std::vector<GuardedImage> first = materialize(c, threads);
  std::vector<GuardedImage> second = first;  // pristine inputs for the reference and run 2
  if (guarded_run(c, v, first, Poison::nan, verdict, threads)) {
    check_rows(c, rows, second, first[output_index(c)], *tolerance, threads, verdict);
    if (guarded_run(c, v, second, Poison::random_finite, verdict, threads))
      compare_runs(first[output_index(c)], second[output_index(c)], verdict, threads);
  }
  decide_outcome(verdict);
  return finish();
}

}  // namespace kverify::bench
