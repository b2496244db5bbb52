#include "bench/plan.hpp"

#include <charconv>

#include "core/error.hpp"

namespace kverify::bench {
namespace {

using Shape = std::vector<std::int64_t>;

// The sizes token of the op's Case line: shape= for an op with a shape form given RxC, else dims=.
std::string sizes_token(const OpSpec& op, std::string_view text) {
  const bool named = text.find(':') != std::string_view::npos;
  return std::string(named || op.shape_form.empty() ? "dims=" : "shape=") + std::string(text);
}

Shape parse_shape(const OpSpec& op, std::string_view text) {
  return parse_case("op=" + std::string(op.name) + " " + sizes_token(op, text)).shape;
}

std::vector<Shape> shapes_of(const OpSpec& op, std::span<const std::string_view> texts) {
  std::vector<Shape> out;
  for (auto t : texts) out.push_back(parse_shape(op, t));
  return out;
}

bool parse_u64(std::string_view s, std::uint64_t& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string parse_bench_shape(std::string_view s) {
  const bool named = s.find(':') != std::string_view::npos;
  const char sep = named ? ',' : 'x';
  std::size_t start = 0, parts = 0;
  while (true) {
    const auto x = s.find(sep, start);
    std::string_view part = s.substr(start, x == std::string_view::npos ? std::string_view::npos : x - start);
    if (named) {
      const auto colon = part.find(':');
      const std::string_view dim = colon == std::string_view::npos ? std::string_view{} : part.substr(0, colon);
      if (dim.empty() || dim.find_first_of(" =") != std::string_view::npos)
        part = {};
      else
        part = part.substr(colon + 1);
    }
    std::uint64_t v = 0;
    if (!parse_u64(part, v) || v == 0 || v > (1ull << 40))
      throw InputError(
          "bad --shape '" + std::string(s) +
          "' (accepted: RxC or MxNxK with sizes >= 1, e.g. 4096x1024, or the op's NAME:N,..., e.g. N:4096,C:1024)");
    ++parts;
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  if (!named && (parts < 2 || parts > 3))
    throw InputError("bad --shape '" + std::string(s) + "' (accepted: RxC or MxNxK, e.g. 4096x1024, or NAME:N,...)");
  return std::string(s);
}

std::optional<Goal> bench_goal(const OpSpec& op, DType dtype, const std::vector<std::int64_t>& shape) {
  bool in_table = false;
  for (const auto& s : shapes_of(op, op.bench_shapes)) in_table |= s == shape;
  if (!in_table || !op.bench_goal) return std::nullopt;
  return op.bench_goal(dtype, shape);
}

std::vector<PlannedCase> plan_cases(const PlanOptions& o, std::vector<std::string>* skipped) {
  std::string op_name = o.op;
  const bool named_variant = o.variant != "auto" && o.variant != "all";
  if (named_variant && op_name.empty()) {
    for (const auto& v : all_variants())
      if (v.name == o.variant) {
        if (!op_name.empty() && op_name != v.op)
          throw InputError("--variant " + o.variant + " exists for several ops: add --op (accepted: " + op_names() +
                           ")");
        op_name = std::string(v.op);
      }
    if (op_name.empty())
      throw InputError("unknown --variant '" + o.variant + "' (accepted: auto, all, or a name of `kverify list`)");
  }
  if (!op_name.empty() && !find_op(op_name))
    throw InputError("unknown --op '" + op_name + "' (accepted: " + op_names() + ")");
  if (!o.shape.empty() && op_name.empty()) throw InputError("--shape needs --op (or a --variant of one op)");

  std::vector<PlannedCase> out;
  int group = 0;
  for (const OpSpec* op : all_ops()) {
    if (!op_name.empty() && op_name != op->name) continue;
    std::vector<Shape> shapes;
    if (!o.shape.empty()) {
      try {
        shapes = {parse_shape(*op, o.shape)};
      } catch (const InputError& e) {
        throw InputError("--shape " + o.shape + " does not fit op " + std::string(op->name) + ": " + e.what());
      }
    }
    if (named_variant && !find_variant(op->name, o.variant))
      throw InputError("op " + std::string(op->name) + " has no variant '" + o.variant + "' (see `kverify list`)");
    if (o.shape.empty()) shapes = shapes_of(*op, o.quick ? op->bench_quick_shapes : op->bench_shapes);
    std::vector<DType> dtypes(op->bench_dtypes.begin(), op->bench_dtypes.end());
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
            if (v.op != op->name || (named_variant ? v.name != o.variant : v.mutant)) continue;
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
          const auto& recipes = op->bench_gate_recipes;
          for (int e = 0; e < o.gate_extra; ++e) {
            Case x = c;
            x.values = parse_case("op=" + std::string(op->name) + " " + op->sizes_token(shape) +
                                  " values=" + std::string(recipes[static_cast<std::size_t>(e) % recipes.size()]))
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
