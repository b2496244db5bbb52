// What kverify knows about one op, in one struct: every consumer (the Case parser, the pipeline,
// check, the property generators, the fuzz decoder and seeds, the tolerance report, the bench and
// the huge Cases) reads the op's OpSpec instead of testing its name or rank. An op is declared
// once, by kverify (ops/<op>/) or by a user's project (kverify_add_op), in the same terms:
//
//   named dimensions with their domains          softmax: rows, cols; layernorm: N, C; attention: B, H, T, D
//   tensors, any number, inputs and outputs       each with a shape in those dimensions and a dtype:
//                                                 the Case's storage dtype, or fixed (f32 statistics,
//                                                 i32/i64 indices, u8 masks)
//   scalar parameters with domains                eps, scale, causal, ignore_index (part of the Case line)
//   the reference of every output, its tolerance, the eager baseline, the Cases and draws, bench facts
//
// The table of ops (all_ops) is generated from the kverify_add_op calls of kverify and of the
// user's project (cmake/KverifyOps.cmake); nothing below the op folders includes them.
//
// An OpSpec is constant data (string views, spans over constant arrays, function pointers), so it
// is usable during static initialisation of any translation unit.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/dtype.hpp"
#include "core/expectation.hpp"
#include "core/tensor_view.hpp"
#include "core/tolerance.hpp"
#include "core/values.hpp"

namespace kverify {

struct Case;

// --- dimensions --------------------------------------------------------------------------------

// How the property generators draw a dimension.
enum class DimDraw : std::uint8_t {
  // Tail sizes (1, 2, 3, 31, 32, 33, ... powers of two +-1, primes) up to the property's width
  // limit and the dimension's own draw_max, in declaration order: a width, a reduction length.
  tail,
  // 1 .. the property's count limit (fewer when the tails already make the Case large), after the
  // tails: rows, batch, heads.
  count,
};

struct DimSpec {
  std::string_view name;     // dims=<name>:<size>; ACCEPTS <name>_multiple=N, min_<name>=N, max_<name>=N
  std::string_view meaning;  // one line, for `kverify help case` and the op's page
  // The contract's domain: a Case outside it is bad input (a kernel's narrower one is ACCEPTS).
  std::int64_t min = 1;
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
  std::int64_t multiple = 1;
  DimDraw draw = DimDraw::tail;
  std::int64_t draw_max = std::numeric_limits<std::int64_t>::max();  // the generators' cap on this dimension
  // One generated Case in four makes one dimension long: tail sizes up to long_max (past draw_max,
  // within the domain), every other dimension 1..3, so the sizes a kernel switches at along it
  // (warp, block and tile multiples, 65535 grid blocks, a reduction's promotion interval) are
  // reached at a small Case's cost. 0: never long. The default, 257, is past a warp's and a block's
  // worth of rows at a cost a block of 256 threads per row affords on emu (4097 made `kverify
  // check` about 3x slower there); a dimension whose step is cheap goes further (matmul's K).
  std::int64_t long_max = 257;
};

// The most tensors and scalar parameters one op declares (a Case holds a placement per tensor and a
// value per parameter).
inline constexpr int kMaxTensors = 16;
inline constexpr int kMaxParams = 8;

// A tensor dimension of size 1 that is no dimension of the op (row_sum's y is rows x 1).
inline constexpr std::int8_t kUnitDim = -1;

// --- tensors -----------------------------------------------------------------------------------

// The element type of a tensor: the Case's storage dtype (dtype=), or one the op fixes.
enum class ElementType : std::uint8_t { storage, f32, f64, i32, i64, u8 };
DType element_dtype(ElementType e, DType storage);
std::string_view name(ElementType e);  // "storage", "f32", ...

// How an input's values are drawn.
enum class TensorValues : std::uint8_t {
  case_recipe,  // the Case's values= recipe (the default)
  index,        // whole numbers uniform in [0, size of index_dim): gather indices, class targets
  mask,         // 1 with probability values_param (0: one half), else 0: u8 masks
  near_one,     // 1 + values_param * normal (0: 0.1): weights, gains, scales
};

struct TensorSpec {
  std::string_view name;  // <name>.strides=..., <name>.offset=...
  bool output = false;
  ElementType element = ElementType::storage;
  std::array<std::int8_t, kMaxRank> dims{};  // indices into OpSpec::dims, or kUnitDim
  std::int8_t rank = 0;
  TensorValues values = TensorValues::case_recipe;
  std::int8_t index_dim = -1;  // TensorValues::index: the dimension the values index
  // TensorValues::index: the integer parameter whose value replaces a values_param share of the
  // indices (cross_entropy's ignore_index: rows that must contribute nothing); -1: none.
  std::int8_t ignored_param = -1;
  double values_param = 0;  // TensorValues::mask: its density; near_one: its spread; index: the ignored share
  // The `halves` recipe flips signs along a reduction index of the first factor; the other factor
  // of a product (matmul's b) stays positive, so the partial sums of the product change sign.
  bool positive_in_halves = false;
  bool rows_sum_to_one = false;  // an output whose rows are distributions: the Verdict reports max |row sum - 1|
  std::string_view meaning;

  std::span<const std::int8_t> shape() const { return {dims.data(), static_cast<std::size_t>(rank)}; }
};

// --- scalar parameters -------------------------------------------------------------------------

enum class ParamKind : std::uint8_t { real, integer, boolean, choice };

struct ParamSpec {
  std::string_view name;  // <name>=<value> in the Case line
  ParamKind kind = ParamKind::real;
  double default_value = 0;  // choice: the index of the default choice; boolean: 0 or 1
  double min = -std::numeric_limits<double>::max(), max = std::numeric_limits<double>::max();
  std::span<const std::string_view> choices = {};  // ParamKind::choice: the values, in index order
  std::string_view meaning;
  // Values the generators and the fuzz decoder draw besides the default (the domain's edges, the
  // values a kernel switches on); empty: the default only.
  std::span<const double> draws = {};
};

// --- what the suites draw ----------------------------------------------------------------------

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

// The fuzz decoder's size choices (fuzz/case_decoder.cpp implements them): an op whose sizes need
// budgets of their own (matmul: M x N outputs and M x N x K work) draws them through this,
// in its own order; without one, the decoder draws every dimension from its DimSpec.
class FuzzSizes {
 public:
  virtual ~FuzzSizes() = default;
  // A size in [1, max] drawn the way columns are (tails likely), within `soft` on most draws.
  virtual std::int64_t extent(std::int64_t max, std::int64_t soft, int dim) = 0;
  // A size in [1, max] drawn the way rows are; `past_limit` (0: none) is what the limit way gives
  // in its full range instead of max.
  virtual std::int64_t count(std::int64_t max, std::int64_t soft, std::int64_t past_limit, int dim) = 0;
  // The variant's limits on the first tensor's rows and columns (INT64_MAX: none).
  std::int64_t max_rows = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_cols = std::numeric_limits<std::int64_t>::max();
};

// One output's expectations per output tensor, in tensor order (OpSpec::outputs()).
using OutputExpectations = std::vector<Expectations>;
// One output's eager composition, row-major over its logical rows and columns, per output.
using OutputValues = std::vector<std::vector<double>>;
// An op of one output: its result moved in (a braced list would copy every element).
inline OutputExpectations one_output(Expectations e) {
  OutputExpectations out;
  out.push_back(std::move(e));
  return out;
}
inline OutputValues one_output(std::vector<double> v) {
  OutputValues out;
  out.push_back(std::move(v));
  return out;
}

struct OpSpec {
  // --- what the op is --------------------------------------------------------------------------
  std::string_view name;
  std::string_view summary;
  std::span<const DimSpec> dims;
  std::span<const TensorSpec> tensors;
  std::span<const ParamSpec> params = {};
  // The shape= spelling of the ops that have one ("RxC", "MxNxK": every dimension in order, joined
  // by 'x'); empty: the Case line gives dims=<name>:<size>,...
  std::string_view shape_form = {};
  std::string_view shape_example;  // a small Case's sizes: "4x1000", or "N:4,C:1000"
  // The dimension whose rows are independent (a Case with it cut to a range is the same op on those
  // rows: softmax's rows, matmul's m, layernorm's N); the tensors whose first dimension it is are
  // cut with it. The sampled reference of the bench's gate and of `kverify huge` checks rows of it;
  // -1: none (every output needs every input; such an op is checked in full only).
  int rows_dim = 0;

  // --- how a Case is checked (ops/<op>/reference.cpp) ------------------------------------------
  // `inputs` are the op's input tensors in tensor order, as stored for the kernel; one result per
  // output, in tensor order.
  OutputExpectations (*reference)(const Case& c, std::span<const TensorView> inputs);
  std::unique_ptr<Tolerance> (*tolerance)(const Case& c, int output);  // output: an index into outputs()
  // The policy of a kernel built with nvcc's --use_fast_math (POLICY fast_math): __expf and the
  // other fast intrinsics, __fdividef, flush-to-zero; null when the op has none derived yet.
  std::unique_ptr<Tolerance> (*fast_math_tolerance)(const Case& c, int output) = nullptr;
  // The eager composition in the storage precision (reference/baseline.hpp: the baseline rule).
  OutputValues (*eager_baseline)(const Case& c, std::span<const TensorView> inputs);

  // --- what the suites draw (ops/<op>/spec.cpp) -------------------------------------------------
  // Boundary Cases of `kverify check` and the fuzz seeds: Case lines without op=, run in every
  // storage dtype; a line that starts with dtype= (a costly one) runs once, in that dtype, last.
  // Null: boundary Cases from the dimensions' domains (generic_boundary_cases).
  std::vector<std::string> (*boundary_cases)() = nullptr;
  // In-domain value recipes for the property generators (the first is the shrink target).
  std::vector<ValueRecipe> (*in_domain_values)(DType dtype);
  // The fuzz decoder: parameters per recipe, recipes whose default leaves the op's domain, and the
  // sizes (null: from the DimSpecs).
  std::span<const RecipeParams> fuzz_params = {};
  std::span<const std::string_view> fuzz_excluded_recipes = {};
  void (*fuzz_sizes)(FuzzSizes& choose, std::span<std::int64_t> sizes) = nullptr;
  // The tolerance report: recipes per cell (an ordinary one first; --quick takes two), the
  // dimension a cell's width is, the sizes of a cell of a given width (null: the width dimension
  // at the width, every other at its report_size), and the widest width swept per backend.
  std::span<const std::string_view> report_recipes;
  int report_width_dim = -1;  // -1: the last dimension
  std::string (*report_shape)(std::int64_t width, bool quick) = nullptr;
  std::int64_t report_widest_emu = 4097, report_widest_cuda = 262144;
  // The bench: dtypes and shapes timed by default and with --quick, the goal of a default shape,
  // the extra gate recipes (each aimed at a bug class plain values miss), the arithmetic of a
  // compute-bound op (null: memory-bound, timed against the copy ceiling; the bytes an ideal
  // kernel moves are every tensor read or written once), and the name of its GPU baseline
  // (bench_baseline.cu beside the op's spec, BENCH_BASELINE of kverify_add_op; empty: none).
  std::span<const DType> bench_dtypes = {};
  std::span<const std::string_view> bench_shapes = {}, bench_quick_shapes = {};
  std::optional<BenchGoal> (*bench_goal)(DType dtype, std::span<const std::int64_t> shape) = nullptr;
  std::span<const std::string_view> bench_gate_recipes = {};
  double (*bench_flops)(std::span<const std::int64_t> shape) = nullptr;
  // The bytes an ideal kernel moves, when not every tensor read or written once (a gather reads the
  // rows it gathers, not the table): null for that default.
  double (*bench_bytes)(std::span<const std::int64_t> shape, DType storage) = nullptr;
  std::string_view bench_baseline_name = {};
  // `kverify huge`: Cases past 2^31 elements and 4 GiB offsets (full Case lines).
  std::span<const std::string_view> huge_cases = {};
  // The KernelBench-style check of `kverify mutants`: its one power-of-two shape (shape= or dims=
  // text; empty: every dimension at 128, within its domain).
  std::string_view kernelbench_shape = {};

  int tensor_count() const { return static_cast<int>(tensors.size()); }
  // The index of a tensor, a dimension or a parameter by name; -1 when the op has none.
  int tensor_index(std::string_view tensor) const;
  int dim_index(std::string_view dim) const;
  int param_index(std::string_view param) const;
  // The output tensors' indices, in tensor order.
  std::vector<int> outputs() const;
  // The first output (the one the Verdict's statistics lead with, the bench's gate samples).
  int first_output() const;
  // Whether tensor t's first dimension is rows_dim (its rows are cut with the op's).
  bool follows_rows(int t) const;
  // The Case's text for a sizes vector: "4x1000" (shape_form) or "N:4,C:1000"; and as the token
  // of a Case line: "shape=4x1000" or "dims=N:4,C:1000".
  std::string sizes_text(std::span<const std::int64_t> sizes) const;
  std::string sizes_token(std::span<const std::int64_t> sizes) const;
  // shape_example as a Case token: "shape=4x1000" or "dims=N:4,C:1000".
  std::string example_token() const;
  // The boundary Cases as the op gives them (OpSpec::boundary_cases), or generic_boundary_cases.
  std::vector<std::string> boundary_lines() const;
};

// Every op: kverify's and the user's project's, in kverify_add_op order (a generated table).
std::span<const OpSpec* const> all_ops();
const OpSpec* find_op(std::string_view name);
// The op names, comma-separated, for messages that list what is accepted.
std::string op_names();
// The op's boundary Cases as full Case lines, every storage dtype in turn, then those of one dtype
// (check, agree, fuzz seeds).
std::vector<std::string> boundary_case_lines(const OpSpec& op);
// Boundary Cases from the dimensions' domains: each tail dimension at the tail widths of its domain
// (1, 2, 3, 31, 32, 33, 127, 128, 129, 1000, 1025, 4097 where the domain has them), the others at a
// few rows; contiguous, padded and offset layouts; negative and integer values.
std::vector<std::string> generic_boundary_cases(const OpSpec& op);
// The op as `kverify help case` lists it: its sizes form, dimensions with their domains, tensors
// with shapes and element types, parameters with their forms and defaults.
std::string op_help(const OpSpec& op);
// Why this op's declaration is inconsistent (a tensor naming no dimension, two tensors of one name,
// an index tensor of a non-integer type, ...), or empty; the op table checks every op with it.
std::string op_declaration_problem(const OpSpec& op);

}  // namespace kverify
