// What every op's declaration gives beside its own functions: lookups by name, the sizes' text,
// the boundary Cases of an op that declares none, and the check of a declaration.
#include "core/op_spec.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

namespace kverify {

DType element_dtype(ElementType e, DType storage) {
  switch (e) {
    case ElementType::storage:
      return storage;
    case ElementType::f32:
      return DType::f32;
    case ElementType::f64:
      return DType::f64;
    case ElementType::i32:
      return DType::i32;
    case ElementType::i64:
      return DType::i64;
    case ElementType::u8:
      return DType::u8;
  }
  return storage;
}

std::string_view name(ElementType e) {
  return e == ElementType::storage ? "storage" : name(element_dtype(e, DType::f32));
}

int OpSpec::tensor_index(std::string_view tensor) const {
  for (std::size_t t = 0; t < tensors.size(); ++t)
    if (tensors[t].name == tensor) return static_cast<int>(t);
  return -1;
}

int OpSpec::dim_index(std::string_view dim) const {
  for (std::size_t d = 0; d < dims.size(); ++d)
    if (dims[d].name == dim) return static_cast<int>(d);
  return -1;
}

int OpSpec::param_index(std::string_view param) const {
  for (std::size_t p = 0; p < params.size(); ++p)
    if (params[p].name == param) return static_cast<int>(p);
  return -1;
}

std::vector<int> OpSpec::outputs() const {
  std::vector<int> out;
  for (std::size_t t = 0; t < tensors.size(); ++t)
    if (tensors[t].output) out.push_back(static_cast<int>(t));
  return out;
}

int OpSpec::first_output() const {
  for (std::size_t t = 0; t < tensors.size(); ++t)
    if (tensors[t].output) return static_cast<int>(t);
  return -1;
}

bool OpSpec::follows_rows(int t) const {
  const TensorSpec& spec = tensors[static_cast<std::size_t>(t)];
  return rows_dim >= 0 && spec.rank > 0 && spec.dims[0] == rows_dim;
}

std::string OpSpec::sizes_text(std::span<const std::int64_t> sizes) const {
  std::string s;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (!shape_form.empty())
      s += (d ? "x" : "") + std::to_string(sizes[d]);
    else
      s += (d ? "," : "") + std::string(d < dims.size() ? dims[d].name : "?") + ":" + std::to_string(sizes[d]);
  }
  return s;
}

std::string OpSpec::sizes_token(std::span<const std::int64_t> sizes) const {
  return std::string(shape_form.empty() ? "dims=" : "shape=") + sizes_text(sizes);
}

std::string OpSpec::example_token() const {
  return std::string(shape_form.empty() ? "dims=" : "shape=") + std::string(shape_example);
}

std::vector<std::string> OpSpec::boundary_lines() const {
  return boundary_cases ? boundary_cases() : generic_boundary_cases(*this);
}

std::string op_names() {
  std::string s;
  for (const OpSpec* op : all_ops()) s += (s.empty() ? "" : ", ") + std::string(op->name);
  return s;
}

const OpSpec* find_op(std::string_view name) {
  for (const OpSpec* op : all_ops())
    if (op->name == name) return op;
  return nullptr;
}

std::vector<std::string> boundary_case_lines(const OpSpec& op) {
  std::vector<std::string> lines;
  const std::vector<std::string> cases = op.boundary_lines();
  const std::string prefix = "op=" + std::string(op.name) + " ";
  for (const char* dtype : {"f32", "f16", "bf16"})
    for (const auto& line : cases)
      if (!line.starts_with("dtype=")) lines.push_back(prefix + "dtype=" + dtype + " " + line);
  for (const auto& line : cases)
    if (line.starts_with("dtype=")) lines.push_back(prefix + line);
  return lines;
}

namespace {

// The size closest to `want` inside the dimension's domain.
std::int64_t inside(const DimSpec& d, std::int64_t want) {
  std::int64_t n = std::clamp(want, d.min, d.max);
  n = (n + d.multiple - 1) / d.multiple * d.multiple;
  if (n > d.max) n -= d.multiple;
  return std::max(n, d.min);
}

}  // namespace

std::vector<std::string> generic_boundary_cases(const OpSpec& op) {
  // Each tail dimension in turn at the tail widths, the other dimensions small: tails are where
  // kernels break, and one dimension at a time keeps each Case small.
  constexpr std::int64_t kTails[] = {1, 2, 3, 31, 32, 33, 127, 128, 129, 1000, 1025, 4097};
  std::vector<std::int64_t> base;
  for (const auto& d : op.dims) base.push_back(inside(d, d.draw == DimDraw::count ? 3 : 8));
  std::vector<std::string> lines;
  std::set<std::string> seen;
  const auto add = [&](const std::string& line) {
    if (seen.insert(line).second) lines.push_back(line);
  };
  for (std::size_t d = 0; d < op.dims.size(); ++d) {
    if (op.dims[d].draw != DimDraw::tail) continue;
    for (const std::int64_t t : kTails) {
      std::vector<std::int64_t> sizes = base;
      sizes[d] = inside(op.dims[d], t);
      if (sizes[d] != t) continue;  // outside the domain: not a tail of this op
      add(op.sizes_token(sizes));
      add(op.sizes_token(sizes) + " values=negative schedule=7");
    }
  }
  // Many rows of a count dimension: past a grid's first wave.
  for (std::size_t d = 0; d < op.dims.size(); ++d) {
    if (op.dims[d].draw != DimDraw::count) continue;
    std::vector<std::int64_t> sizes = base;
    sizes[d] = inside(op.dims[d], 257);
    add(op.sizes_token(sizes));
  }
  // Layouts: every tensor padded, then offset; integer and large values.
  const std::string small = op.sizes_token(base);
  std::string padded, offset;
  for (const auto& t : op.tensors) {
    if (t.rank == 0) continue;
    // Padded innermost rows: each stride one more than contiguous asks.
    std::int64_t stride = 1;
    std::string strides;
    std::array<std::int64_t, kMaxRank> s{};
    for (int i = t.rank - 1; i >= 0; --i) {
      const int dim = t.dims[static_cast<std::size_t>(i)];
      s[static_cast<std::size_t>(i)] = stride;
      stride = stride * (dim == kUnitDim ? 1 : base[static_cast<std::size_t>(dim)]) + (i == t.rank - 1 ? 3 : 0);
    }
    for (int i = 0; i < t.rank; ++i) strides += (i ? "," : "") + std::to_string(s[static_cast<std::size_t>(i)]);
    padded += " " + std::string(t.name) + ".strides=" + strides;
    offset += " " + std::string(t.name) + ".offset=" + std::to_string(t.output ? 5 : 3);
  }
  add(small + padded);
  add(small + offset);
  add(small + " values=int:3");
  add(small + " values=normal:1000");
  add(small + " values=zeros");
  return lines;
}

std::string op_help(const OpSpec& op) {
  std::string out = "  " + std::string(op.name) + ": " + std::string(op.summary) +
                    "\n    sizes: " + op.example_token().substr(0, op.example_token().find('=')) + "=" +
                    (op.shape_form.empty() ? std::string(op.shape_example) : std::string(op.shape_form)) + ";";
  for (const auto& d : op.dims) {
    out += " " + std::string(d.name);
    if (d.min > 1 || d.max < INT64_MAX || d.multiple > 1)
      out += " in [" + std::to_string(d.min) + ", " + (d.max < INT64_MAX ? std::to_string(d.max) : std::string("-")) +
             "]" + (d.multiple > 1 ? " x" + std::to_string(d.multiple) : "");
    out += " (" + std::string(d.meaning) + ")";
  }
  out += "\n    tensors:";
  for (const auto& t : op.tensors) {
    std::string shape;
    for (const auto d : t.shape())
      shape += (shape.empty() ? "" : ",") +
               (d == kUnitDim ? std::string("1") : std::string(op.dims[static_cast<std::size_t>(d)].name));
    out += " " + std::string(t.name) + "[" + shape + "]" +
           (t.element == ElementType::storage ? "" : " " + std::string(name(t.element))) + (t.output ? " (out)" : "");
  }
  if (!op.params.empty()) {
    out += "\n    parameters:";
    for (const auto& p : op.params) {
      std::string def;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", p.default_value);
      def = p.kind == ParamKind::choice    ? std::string(p.choices[static_cast<std::size_t>(p.default_value)])
            : p.kind == ParamKind::boolean ? (p.default_value != 0 ? "true" : "false")
                                           : std::string(buf);
      out += " " + std::string(p.name) + "=" + def + " (" + std::string(p.meaning) + ")";
    }
  }
  return out + "\n";
}

std::string op_declaration_problem(const OpSpec& op) {
  const std::string where = "op " + std::string(op.name) + ": ";
  if (op.name.empty() || op.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string_view::npos ||
      op.name == "op")
    return "op '" + std::string(op.name) + "': a name is lower-case letters, digits and '_', and not 'op'";
  if (op.dims.empty()) return where + "declares no dimension";
  if (op.tensors.empty() || op.first_output() < 0) return where + "declares no output tensor";
  if (op.tensors.size() > static_cast<std::size_t>(kMaxTensors))
    return where + "declares more than " + std::to_string(kMaxTensors) + " tensors";
  if (op.params.size() > static_cast<std::size_t>(kMaxParams))
    return where + "declares more than " + std::to_string(kMaxParams) + " parameters";
  if (!op.reference || !op.tolerance || !op.eager_baseline || !op.in_domain_values)
    return where + "lacks its reference, tolerance, eager_baseline or in_domain_values";
  std::set<std::string_view> names;
  const auto fresh = [&](std::string_view n) {
    return !n.empty() && n.find_first_of(" =.:,") == std::string_view::npos && names.insert(n).second;
  };
  for (const auto& d : op.dims) {
    if (!fresh(d.name)) return where + "dimension '" + std::string(d.name) + "' is empty, repeated or holds ' =.:,'";
    if (d.min < 1 || d.max < d.min || d.multiple < 1)
      return where + "dimension " + std::string(d.name) +
             " has an empty domain (accepted: 1 <= min <= max, multiple >= 1)";
  }
  for (const auto& t : op.tensors) {
    if (!fresh(t.name)) return where + "tensor '" + std::string(t.name) + "' is empty, repeated or holds ' =.:,'";
    if (t.rank < 0 || t.rank > kMaxRank) return where + "tensor " + std::string(t.name) + " has rank above 6";
    for (const auto d : t.shape())
      if (d != kUnitDim && (d < 0 || d >= static_cast<int>(op.dims.size())))
        return where + "tensor " + std::string(t.name) + " names dimension " + std::to_string(d) +
               ", which the op lacks";
    const bool integer = t.element == ElementType::i32 || t.element == ElementType::i64 || t.element == ElementType::u8;
    if (t.values == TensorValues::index &&
        (!integer || t.index_dim < 0 || t.index_dim >= static_cast<int>(op.dims.size())))
      return where + "index tensor " + std::string(t.name) +
             " needs an integer element type and the dimension it indexes";
    if (t.ignored_param >= 0 &&
        (t.values != TensorValues::index || t.ignored_param >= static_cast<int>(op.params.size()) ||
         op.params[static_cast<std::size_t>(t.ignored_param)].kind != ParamKind::integer || t.values_param <= 0 ||
         t.values_param >= 1))
      return where + "tensor " + std::string(t.name) +
             "'s ignored value needs an index tensor, an integer parameter and a share in (0, 1)";
  }
  for (const auto& p : op.params) {
    for (std::string_view key : {"op", "variant", "dtype", "shape", "dims", "values", "seed", "backend", "schedule"})
      if (p.name == key) return where + "parameter '" + std::string(p.name) + "' is a Case field's name";
    if (!fresh(p.name)) return where + "parameter '" + std::string(p.name) + "' is empty, repeated or holds ' =.:,'";
    if (p.kind == ParamKind::choice && (p.choices.empty() || p.default_value >= static_cast<double>(p.choices.size())))
      return where + "choice parameter " + std::string(p.name) + " lacks its choices or its default";
  }
  if (op.rows_dim >= static_cast<int>(op.dims.size())) return where + "rows_dim names no dimension";
  return "";
}

}  // namespace kverify
