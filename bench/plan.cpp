#include "bench/plan.hpp"

#include "core/error.hpp"

namespace kverify::bench {
namespace {

using Shape = std::vector<std::int64_t>;

struct OpShapes {
  const char* op;
  std::vector<DType> dtypes;
  std::vector<Shape> shapes, quick;
};

// Issue #11's table; gelu_tanh's 2^28 elements as 16384 x 16384.
const std::vector<OpShapes>& op_shapes() {
  static const std::vector<OpShapes> table = {
      {"softmax", {DType::f32, DType::bf16},
       {{8388608, 32}, {2097152, 128}, {262144, 1024}, {65536, 4096}, {16384, 16384}, {4096, 65536}, {1024, 262144}},
       {{64, 32}, {16, 1000}, {4, 5000}}},
      {"gelu_tanh", {DType::f32, DType::bf16}, {{16384, 16384}}, {{64, 1000}}},
      {"row_sum", {DType::f32, DType::bf16},
       {{1, 1 << 28}, {16, 1 << 24}, {1024, 1 << 18}, {1 << 18, 1024}, {1 << 23, 32}, {268435, 1000}},
       {{2, 20000}, {64, 1000}, {300, 33}}},
      {"matmul_relu", {DType::f32, DType::f16, DType::bf16},
       {{4096, 4096, 4096}, {8192, 8192, 8192}, {4097, 4095, 4099}, {1000, 1000, 1000}, {64, 8192, 8192}},
       {{64, 64, 64}, {33, 65, 47}}},
  };
  return table;
}

}  // namespace

std::optional<Goal> issue_goal(std::string_view op, DType dtype, const std::vector<std::int64_t>& shape) {
  bool in_table = false;
  for (const auto& os : op_shapes())
    if (os.op == op)
      for (const auto& s : os.shapes) in_table |= s == shape;
  if (!in_table) return std::nullopt;
  if (op == "softmax") {
    if (dtype != DType::f32) return Goal{false, 0.90};
    // f32: the best anchor per width, and at least 0.90 at 65536 and 262144.
    switch (shape[1]) {
      case 1024: return Goal{false, 0.99};
      case 16384: return Goal{false, 0.97};
      case 65536:
      case 262144: return Goal{false, 0.90};
      default: return Goal{false, 0.98};  // 32, 128, 4096
    }
  }
  if (op == "gelu_tanh") return Goal{false, 0.97};
  if (op == "row_sum") return Goal{false, 0.95};
  if (dtype == DType::f32) return Goal{true, 0.80};
  const bool large_square = shape[0] == shape[1] && shape[1] == shape[2] && shape[0] >= 4096;
  return Goal{true, large_square ? 0.70 : 1.0};
}

namespace {

// Extra gate recipes per op, cycled: each aims at a bug class the plain normal values miss.
std::vector<std::string> extra_recipes(std::string_view op) {
  if (op == "softmax") return {"const:-200", "uniform:30", "negative:2"};  // const:-200: exp(x - 0) underflows under a 0-padded max
  if (op == "gelu_tanh") return {"uniform:12", "normal:4"};  // around x = 11, where exp-based tanh breaks
  if (op == "row_sum") return {"int:3", "negative:1"};       // integer rows: bitwise exact
  return {"int:2", "uniform:1"};                              // matmul: exact mode, then signs mixed
}

std::string shape_text(const Shape& s) {
  std::string t;
  for (auto n : s) t += (t.empty() ? "" : "x") + std::to_string(n);
  return t;
}

}  // namespace

std::vector<PlannedCase> plan_cases(const PlanOptions& o, std::vector<std::string>* skipped) {
  std::string op_name = o.op;
  const bool named_variant = o.variant != "auto" && o.variant != "all";
  if (named_variant && op_name.empty()) {
    for (const auto& v : all_variants())
      if (v.name == o.variant) {
        if (!op_name.empty() && op_name != v.op)
          throw InputError("--variant " + o.variant + " exists for several ops: add --op (accepted: softmax, gelu_tanh, row_sum, matmul_relu)");
        op_name = std::string(v.op);
      }
    if (op_name.empty()) throw InputError("unknown --variant '" + o.variant + "' (accepted: auto, all, or a name of `kverify list`)");
  }
  if (!op_name.empty() && !find_op(op_name))
    throw InputError("unknown --op '" + op_name + "' (accepted: softmax, gelu_tanh, row_sum, matmul_relu)");
  if (!o.shape.empty() && op_name.empty()) throw InputError("--shape needs --op (or a --variant of one op)");

  std::vector<PlannedCase> out;
  int group = 0;
  for (const auto& os : op_shapes()) {
    if (!op_name.empty() && op_name != os.op) continue;
    const OpInfo* op = find_op(os.op);
    if (!o.shape.empty() && static_cast<int>(o.shape.size()) != op->shape_rank)
      throw InputError("--shape " + shape_text(o.shape) + " does not fit op " + os.op + " (accepted: " +
                       std::string(op->shape_form) + ")");
    if (named_variant && !find_variant(os.op, o.variant))
      throw InputError("op " + std::string(os.op) + " has no variant '" + o.variant + "' (see `kverify list`)");
    const std::vector<Shape> shapes = !o.shape.empty() ? std::vector<Shape>{o.shape} : o.quick ? os.quick : os.shapes;
    std::vector<DType> dtypes = os.dtypes;
    if (o.dtype) dtypes = {*o.dtype};
    for (const auto& shape : shapes)
      for (DType d : dtypes) {
        Case base;
        base.op = op;
        base.dtype = d;
        base.shape = shape;
        base.backend = o.backend;
        std::vector<const Variant*> variants;
        if (o.variant == "auto") {
          std::string why;
          const Variant* v = choose_variant(base, &why);
          if (!v) {
            if (skipped) skipped->push_back(base.to_text() + ": no variant: " + why);
            continue;
          }
          variants.push_back(v);
        } else {
          for (const auto& v : all_variants()) {
            if (v.op != os.op || (named_variant ? v.name != o.variant : v.mutant)) continue;
            if (auto problem = unsupported(v, base, o.backend)) {
              if (skipped) skipped->push_back(base.to_text() + " variant=" + std::string(v.name) + ": " + *problem);
              continue;
            }
            variants.push_back(&v);
          }
        }
        for (const Variant* v : variants) {
          Case c = base;
          c.variant = std::string(v->name);
          out.push_back({c, v, group, true});
          const auto recipes = extra_recipes(os.op);
          for (int e = 0; e < o.gate_extra; ++e) {
            Case x = c;
            x.values = parse_case("op=" + std::string(os.op) + " shape=" + shape_text(shape) + " values=" +
                                  recipes[static_cast<std::size_t>(e) % recipes.size()])
                           .values;
            x.seed = o.seed + static_cast<std::uint64_t>(group) * 1000 + static_cast<std::uint64_t>(e);
            out.push_back({x, v, group, false});
          }
          ++group;
        }
      }
  }
  return out;
}

}  // namespace kverify::bench
