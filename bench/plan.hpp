// Which Cases the bench gates and times: each op's bench shapes (OpSpec::bench_shapes) by default,
// a small set with --quick (and on emu, where the default shapes are far too big), filtered by
// --op/--variant/--dtype/--shape; each timed Case comes with a few extra random-value Cases of the
// same shape, dtype and variant for the gate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "kernels/registry.hpp"

namespace kverify::bench {

struct PlanOptions {
  std::string op;                // empty: every op
  std::string variant = "auto";  // auto, all (every production variant), or a name
  std::optional<DType> dtype;
  std::string shape;  // the op's sizes text (RxC, MxNxK, or NAME:N,...); empty: the op's default shapes
  bool quick = false;
  int gate_extra = 2;      // extra random-value Cases per timed Case
  std::uint64_t seed = 1;  // seeds of the extra Cases
  Backend backend = Backend::cuda;
};

struct PlannedCase {
  Case c;  // backend resolved, variant named
  const Variant* variant = nullptr;
  int group = 0;       // index of the timed Case it gates
  bool timed = false;  // the timed Case itself (else an extra gate Case)
};

// The goal of a timed Case (OpSpec::bench_goal): a fraction of the copy ceiling, or of the
// baseline's speed (matmul_relu: ours over cuBLASLt). None for a shape outside the op's bench shapes.
using Goal = BenchGoal;
std::optional<Goal> bench_goal(const OpSpec& op, DType dtype, const std::vector<std::int64_t>& shape);

// --shape's text, RxC or MxNxK (an op with a shape form) or NAME:N,... (any op: its dims), checked
// for its form (the op checks the sizes); throws InputError naming it.
std::string parse_bench_shape(std::string_view text);

// Throws InputError on a bad combination (unknown variant, a shape of the wrong rank, ...).
// `skipped` collects Cases no chosen variant can take, with the reason.
std::vector<PlannedCase> plan_cases(const PlanOptions& o, std::vector<std::string>* skipped);

}  // namespace kverify::bench
