#include "bench/gate.hpp"

#include <algorithm>
#include <chrono>

#include "pipeline/execute.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/memory_plan.hpp"
#include "pipeline/run_case.hpp"  // materialize, guarded_run, compare_runs, decide_outcome, subject_of
#include "pipeline/sampled_check.hpp"

namespace kverify::bench {

std::vector<std::int64_t> reference_rows(const Case& c, const GateOptions& o, std::string* how) {
  return sampled_rows(c, SampleOptions{o.reference_budget, 8, o.sample_seed}, how);
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
  const auto tolerance = tolerance_of(c, v);
  verdict.tolerance = tolerance->describe();
  const std::vector<std::int64_t> rows = reference_rows(c, o, &result.coverage);
  result.rows_checked = static_cast<std::int64_t>(rows.size());
  result.rows_total = c.layout(c.op->output_tensor()).rows;
  const MemoryNeed need = memory_need(c, 2, result.rows_checked * c.layout(c.op->output_tensor()).cols);
  if (const auto refusal = memory_refusal(need, c.backend)) {
    verdict.outcome = Outcome::skipped;
    verdict.reason = "the gate " + *refusal;
    return finish();
  }

  std::vector<GuardedImage> first = materialize(c, threads);
  std::vector<GuardedImage> second = first;  // pristine inputs for the reference and run 2
  if (guarded_run(c, v, first, Poison::nan, verdict, threads)) {
    const int out = c.op->output_tensor();
    check_sampled_rows(c, rows, second, first[out], *tolerance, threads, verdict);
    const Case run2 = second_run_of(c);
    if (guarded_run(run2, v, second, Poison::random_finite, verdict, threads))
      compare_runs(first[out], second[out], verdict, threads, &c, &run2);
  }
  decide_outcome(verdict);
  return finish();
}

}  // namespace kverify::bench
