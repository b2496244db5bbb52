// `kverify bench`: timing gated behind correctness (docs/bench.md).
#pragma once

#include <cstdint>
#include <string>

#include "bench/plan.hpp"

namespace kverify {

struct BenchOptions {
  bench::PlanOptions plan;
  int reps = 50, warmup = 3;
  std::string json_path, md_path;  // "": the defaults (on a GPU: reports/<device>/bench.*)
  bool seed_given = false;         // else the seed comes from the clock (printed)
  std::uint64_t reference_budget = 1ull << 24;
};
// Returns the exit code: 0 all timed, 1 a gate failed, 2 bad input, 3 not timed here (no GPU).
int run_bench(const BenchOptions& options);

}  // namespace kverify
