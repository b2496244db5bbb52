// What kverify knows about one op, in one struct: every consumer (the Case parser, the pipeline,
// check, the property generators, the fuzz decoder and seeds, the tolerance report, the bench and
// the huge Cases) reads the op's OpSpec instead of testing its name. Each op defines its spec in
// ops/<op>/spec.cpp; ops/ops.def lists the ops and ops/ops.cpp is the table.
//
// An OpSpec is constant data (string views, spans over constant arrays, function pointers), so it
// is usable during static initialisation of any translation unit.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/dtype.hpp"
#include "core/tensor_view.hpp"
#include "core/values.hpp"
#include "reference/expectation.hpp"
#include "reference/tolerance.hpp"

namespace kverify {

struct Case;

struct TensorRole {
  std::string_view name;
  bool output;
  int rows_dim;  // index into the Case shape; -1 means a size of 1
  int cols_dim;
};

// Parameters the fuzz decoder draws for one value recipe (beside the recipe's default).
struct RecipeParams {
  std::string_view recipe;
  std::span<const double> params;
};

// A bench goal: a fraction of the device copy ceiling, or of the baseline's speed.
struct BenchGoal {
  bool of_baseline = false;
  double value = 0;
};

struct OpSpec {
  // --- what the op is: the Case's shape and tensors --------------------------------------------
  std::string_view name;
  std::string_view summary;
  std::string_view shape_form;     // how the shape token is written, e.g. "RxC"
  std::string_view shape_example;  // e.g. "4x1000"
  int shape_rank;
  std::array<TensorRole, 3> tensor_table;
  int tensor_count;

  // --- how a Case is checked (ops/<op>/reference.cpp) ------------------------------------------
  // `inputs` are the op's input tensors in tensor order, as stored for the kernel.
  Expectations (*reference)(const Case& c, std::span<const TensorView> inputs);
  std::unique_ptr<Tolerance> (*tolerance)(const Case& c);
  // The policy of a kernel built with nvcc's --use_fast_math (POLICY fast_math): __expf and the
  // other fast intrinsics, __fdividef, flush-to-zero; null when the op has none derived yet.
  std::unique_ptr<Tolerance> (*fast_math_tolerance)(const Case& c) = nullptr;
  // The eager composition in the storage precision (reference/baseline.hpp: the baseline rule),
  // row-major over the output tensor.
  std::vector<double> (*eager_baseline)(const Case& c, std::span<const TensorView> inputs);
  bool rows_sum_to_one;  // each output row is a distribution: the Verdict reports max |row sum - 1|

  // --- what the suites draw (ops/<op>/spec.cpp) -------------------------------------------------
  // Boundary Cases of `kverify check` and the fuzz seeds: Case lines without op=, run in every
  // storage dtype; a line that starts with dtype= (a costly one) runs once, in that dtype, last.
  std::vector<std::string> (*boundary_cases)();
  // In-domain value recipes for the property generators (the first is the shrink target).
  std::vector<ValueRecipe> (*in_domain_values)(DType dtype);
  // The fuzz decoder: parameters per recipe, and recipes whose default leaves the op's domain.
  std::span<const RecipeParams> fuzz_params;
  std::span<const std::string_view> fuzz_excluded_recipes;
  // The tolerance report: recipes per cell (an ordinary one first; --quick takes two), the shape
  // of a cell of a given width, and the widest width swept per backend.
  std::span<const std::string_view> report_recipes;
  std::string (*report_shape)(std::int64_t width, bool quick);
  std::int64_t report_widest_emu, report_widest_cuda;
  // The bench: dtypes and shapes timed by default and with --quick, the goal of a default shape,
  // the extra gate recipes (each aimed at a bug class plain values miss), the arithmetic of a
  // compute-bound op (null: memory-bound, timed against the copy ceiling; the bytes an ideal
  // kernel moves are every tensor read or written once), and the name of its GPU baseline
  // (ops/<op>/bench_baseline.cu).
  std::span<const DType> bench_dtypes;
  std::span<const std::string_view> bench_shapes, bench_quick_shapes;
  std::optional<BenchGoal> (*bench_goal)(DType dtype, std::span<const std::int64_t> shape);
  std::span<const std::string_view> bench_gate_recipes;
  double (*bench_flops)(std::span<const std::int64_t> shape);
  std::string_view bench_baseline_name;
  // `kverify huge`: Cases past 2^31 elements and 4 GiB offsets (full Case lines).
  std::span<const std::string_view> huge_cases;
  // The KernelBench-style check of `kverify mutants`: its one power-of-two shape.
  std::string_view kernelbench_shape;

  std::span<const TensorRole> tensors() const { return {tensor_table.data(), static_cast<std::size_t>(tensor_count)}; }
  int output_tensor() const { return tensor_count - 1; }  // every op has one output, its last tensor
};

// Every op, in ops/ops.def order.
std::span<const OpSpec* const> all_ops();
const OpSpec* find_op(std::string_view name);
// The op names, comma-separated, for messages that list what is accepted.
std::string op_names();
// The op's boundary Cases as full Case lines, every storage dtype in turn, then those of one dtype
// (check, agree, fuzz seeds).
std::vector<std::string> boundary_case_lines(const OpSpec& op);

}  // namespace kverify
