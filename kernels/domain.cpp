#include "kernels/domain.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "core/error.hpp"

namespace kverify {
namespace {

constexpr std::int64_t kInt32Max = 2147483647;

struct Precondition {
  std::string_view name;      // may hold <dim>
  std::string_view argument;  // "" for a flag
  std::string_view meaning;
};

constexpr Precondition kPreconditions[] = {
#define KVERIFY_PRECONDITION(name, argument, meaning) {#name, argument, meaning},
#include "kernels/preconditions.def"
#undef KVERIFY_PRECONDITION
};

std::string with_dim(std::string_view pattern, std::string_view dim) {
  std::string out(pattern);
  if (const auto at = out.find("<dim>"); at != std::string::npos) out.replace(at, 5, dim);
  return out;
}

std::vector<std::string_view> dimension_names(const OpSpec& op) {
  std::vector<std::string_view> names;
  for (const auto& d : op.dims) names.push_back(d.name);
  return names;
}

std::string accepted_names(const OpSpec& op) {
  std::string out;
  for (const auto& p : kPreconditions) {
    const bool per_dim = p.name.find("<dim>") != std::string_view::npos;
    for (std::string_view dim : dimension_names(op)) {
      out +=
          (out.empty() ? "" : ", ") + with_dim(p.name, dim) + (p.argument.empty() ? "" : "=" + std::string(p.argument));
      if (!per_dim) break;
    }
  }
  return out;
}

std::int64_t round_up(std::int64_t v, std::int64_t m) { return (v + m - 1) / m * m; }

std::string strides_text(const Case& c, int t) {
  const Layout l = c.layout(t);
  std::string s = std::string(c.op->tensors[static_cast<std::size_t>(t)].name) + ".strides=";
  for (int d = 0; d < l.rank; ++d) s += (d ? "," : "") + std::to_string(l.strides[static_cast<std::size_t>(d)]);
  return s;
}

// Whether every stride but the innermost is 1 (column-major, read as rows x cols).
bool rows_adjacent(const Layout& l) {
  for (int d = 0; d + 1 < l.rank; ++d)
    if (l.sizes[static_cast<std::size_t>(d)] > 1 && l.strides[static_cast<std::size_t>(d)] != 1) return false;
  return true;
}

// The first stride but the innermost that is not a multiple of m, or -1.
std::int64_t row_stride_off_multiple(const Layout& l, std::int64_t m) {
  for (int d = 0; d + 1 < l.rank; ++d)
    if (l.sizes[static_cast<std::size_t>(d)] > 1 && l.strides[static_cast<std::size_t>(d)] % m != 0)
      return l.strides[static_cast<std::size_t>(d)];
  if (l.rank == 1 && l.sizes[0] > 1 && l.strides[0] % m != 0) return l.strides[0];
  return -1;
}

}  // namespace

Domain parse_domain(std::string_view tokens, const OpSpec& op) {
  Domain d;
  const auto dims = dimension_names(op);
  d.multiple.assign(dims.size(), 1);
  d.min.assign(dims.size(), 1);
  d.max.assign(dims.size(), INT64_MAX);
  std::istringstream in{std::string(tokens)};
  std::vector<std::string> seen;
  std::vector<std::pair<std::size_t, std::string>> ordered;  // (table position, token)
  for (std::string token; in >> token;) {
    const auto eq = token.find('=');
    const std::string key = token.substr(0, eq);
    const std::string arg = eq == std::string::npos ? "" : token.substr(eq + 1);
    bool known = false;
    for (std::size_t row = 0; row < std::size(kPreconditions); ++row) {
      const Precondition& p = kPreconditions[row];
      for (std::size_t i = 0; i < dims.size(); ++i) {
        if (key != with_dim(p.name, dims[i])) continue;
        known = true;
        ordered.emplace_back(row * dims.size() + i, token);
        if (p.argument.empty() != arg.empty())
          throw InputError("bad ACCEPTS token '" + token + "': " + key +
                           (p.argument.empty() ? " takes no value" : " needs =" + std::string(p.argument)) +
                           " (accepted: " + accepted_names(op) + ")");
        std::int64_t n = 0;
        if (!arg.empty()) {
          std::size_t used = 0;
          try {
            n = std::stoll(arg, &used);
          } catch (const std::exception&) {
            used = 0;
          }
          if (used != arg.size() || n < 1)
            throw InputError("bad ACCEPTS token '" + token + "': " + std::string(p.argument) +
                             " must be a whole number >= 1");
        }
        if (key == "contiguous") d.contiguous = true;
        if (key == "unit_col_stride") d.unit_col_stride = true;
        if (key == "column_major") d.column_major = true;
        if (key == "row_stride_multiple") d.row_stride_multiple = n;
        if (key == "int32_indexing") d.int32_indexing = true;
        if (key == "aligned") {
          if ((n & (n - 1)) != 0 || n > 256)
            throw InputError("bad ACCEPTS token '" + token +
                             "': BYTES must be a power of two up to 256 (a buffer's "
                             "first element is 256-byte aligned; accepted: 2, 4, 8, 16, 32, 64, 128, 256)");
          d.aligned = n;
        }
        if (p.name == "<dim>_multiple") d.multiple[i] = n;
        if (p.name == "min_<dim>") d.min[i] = n;
        if (p.name == "max_<dim>") d.max[i] = n;
        if (p.name.find("<dim>") == std::string_view::npos) break;
      }
    }
    if (!known)
      throw InputError("unknown ACCEPTS token '" + token + "' (accepted: " + accepted_names(op) +
                       "; `kverify help accepts` says what each means)");
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) throw InputError("ACCEPTS names '" + key + "' twice");
    seen.push_back(key);
  }
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (round_up(d.min[i], d.multiple[i]) > d.max[i])
      throw InputError("ACCEPTS admits no " + std::string(dims[i]) + ": min " + std::to_string(d.min[i]) + ", max " +
                       std::to_string(d.max[i]) + ", multiple of " + std::to_string(d.multiple[i]));
  std::sort(ordered.begin(), ordered.end());  // canonical: the tokens in table order
  for (const auto& [order, token] : ordered) d.text += (d.text.empty() ? "" : " ") + token;
  return d;
}

std::optional<std::string> outside_domain(const Domain& d, const Case& c) {
  if (!d.declared()) return std::nullopt;
  const auto dims = dimension_names(*c.op);
  for (std::size_t i = 0; i < d.multiple.size() && i < c.shape.size(); ++i) {
    const std::int64_t v = c.shape[static_cast<std::size_t>(i)];
    const std::string is = std::string(dims[static_cast<std::size_t>(i)]) + "=" + std::to_string(v);
    if (v % d.multiple[i] != 0)
      return is + " is not a multiple of " + std::to_string(d.multiple[i]) + " (ACCEPTS " + std::string(dims[i]) +
             "_multiple=" + std::to_string(d.multiple[i]) + ")";
    if (v < d.min[i])
      return is + " is below " + std::to_string(d.min[i]) + " (ACCEPTS min_" + std::string(dims[i]) + "=" +
             std::to_string(d.min[i]) + ")";
    if (v > d.max[i])
      return is + " is above " + std::to_string(d.max[i]) + " (ACCEPTS max_" + std::string(dims[i]) + "=" +
             std::to_string(d.max[i]) + ")";
  }
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    const Layout l = c.layout(t);
    const TensorSpec& spec = c.op->tensors[static_cast<std::size_t>(t)];
    const std::int64_t element_bytes = static_cast<std::int64_t>(size_of(element_dtype(spec.element, c.dtype)));
    const std::string tensor(spec.name);
    if (d.contiguous && !l.contiguous_row_major())
      return strides_text(c, t) + " is not contiguous row-major (ACCEPTS contiguous)";
    if (d.unit_col_stride && l.rank >= 2 && l.cols() > 1 && l.col_stride() != 1)
      return strides_text(c, t) + " has a column stride other than 1 (ACCEPTS unit_col_stride)";
    if (d.column_major && l.rank >= 2 && l.rows() > 1 && !rows_adjacent(l))
      return strides_text(c, t) + " has a row stride other than 1 (ACCEPTS column_major)";
    if (row_stride_off_multiple(l, d.row_stride_multiple) >= 0)
      return strides_text(c, t) + ": the row stride is not a multiple of " + std::to_string(d.row_stride_multiple) +
             " elements (ACCEPTS row_stride_multiple=" + std::to_string(d.row_stride_multiple) + ")";
    if ((l.offset * element_bytes) % d.aligned != 0)
      return tensor + ".offset=" + std::to_string(l.offset) + " puts its first element " +
             std::to_string(l.offset * element_bytes % 256) +
             " bytes past a 256-byte boundary (ACCEPTS aligned=" + std::to_string(d.aligned) + ")";
    if (d.int32_indexing && (l.footprint() > kInt32Max || l.rows() > kInt32Max || l.cols() > kInt32Max))
      return tensor + " reaches element " + std::to_string(l.footprint() - 1) +
             ", past 2^31 - 1 (ACCEPTS int32_indexing: the launcher takes int sizes)";
  }
  return std::nullopt;
}

bool fit_into(const Domain& d, Case& c) {
  if (!d.declared()) return true;
  Case f = c;
  for (std::size_t i = 0; i < d.multiple.size() && i < f.shape.size(); ++i) {
    std::int64_t& v = f.shape[i];
    const std::int64_t m = d.multiple[i];
    const std::int64_t lo = round_up(d.min[i], m), hi = d.max[i] / m * m;
    v = std::clamp(round_up(v, m), lo, hi);
  }
  for (int t = 0; t < f.op->tensor_count(); ++t) {
    Placement& p = f.placement[static_cast<std::size_t>(t)];
    const TensorSpec& spec = f.op->tensors[static_cast<std::size_t>(t)];
    const std::int64_t element_bytes = static_cast<std::int64_t>(size_of(element_dtype(spec.element, f.dtype)));
    const Layout shape = f.layout(t);  // the new shape with the drawn strides
    const std::int64_t rows = shape.rows(), cols = shape.cols();
    if (d.contiguous || (p.strides && spec.rank != 2)) {
      // Beyond rank 2 a drawn layout is not bent into the tokens: the tensor goes contiguous.
      if (d.contiguous || d.column_major || d.unit_col_stride || d.row_stride_multiple > 1 ||
          layout_problem(shape, static_cast<std::size_t>(element_bytes), spec.output))
        p.strides.reset();
    } else if (p.strides || d.row_stride_multiple > 1 || d.column_major) {
      std::int64_t rs = p.strides ? (*p.strides)[0] : cols, cs = p.strides ? (*p.strides)[1] : 1;
      // The drawn kind of layout, made valid again for the new shape: rows apart, or columns apart.
      if (cs <= rs)
        rs = std::max(rs, (cols - 1) * cs + 1);
      else
        cs = std::max(cs, (rows - 1) * rs + 1);
      if (d.column_major && rs != 1) {
        rs = 1;
        cs = std::max(cs, rows);
      }
      if (d.unit_col_stride && cs != 1) {
        cs = 1;
        rs = std::max(rs, cols);
      }
      if (d.row_stride_multiple > 1) {
        rs = round_up(rs, d.row_stride_multiple);
        if (cs > rs) cs = std::max(cs, (rows - 1) * rs + 1);
      }
      p.strides = Strides{rs, cs};
      if (rs == cols && cs == 1) p.strides.reset();  // the canonical form
    }
    if (d.aligned > element_bytes) p.offset = round_up(p.offset, d.aligned / element_bytes);
    // A far layout for a kernel that indexes in 32 bits: the same kind of layout, near.
    if (d.int32_indexing && p.strides && f.layout(t).footprint() > kInt32Max) {
      if (spec.rank != 2) {
        p.strides.reset();
      } else {
        std::int64_t& rs = (*p.strides)[0];
        std::int64_t& cs = (*p.strides)[1];
        if (rs > kInt32Max) rs = cs <= 1 ? cols + 1 : cols * cs + 1;
        if (cs > kInt32Max) cs = rows + 1;
        if (rs == cols && cs == 1) p.strides.reset();
      }
    }
  }
  if (outside_domain(d, f)) return false;
  for (int t = 0; t < f.op->tensor_count(); ++t) {  // the Case parser's own layout rules
    const TensorSpec& spec = f.op->tensors[static_cast<std::size_t>(t)];
    if (layout_problem(f.layout(t), size_of(element_dtype(spec.element, f.dtype)), spec.output)) return false;
  }
  c = f;
  return true;
}

std::string preconditions_help(bool markdown) {
  std::ostringstream out;
  if (markdown) out << "| token | meaning |\n|---|---|\n";
  for (const auto& p : kPreconditions) {
    const std::string token = std::string(p.name) + (p.argument.empty() ? "" : "=" + std::string(p.argument));
    if (markdown)
      out << "| `" << token << "` | " << p.meaning << " |\n";
    else
      out << "  " << token << std::string(token.size() < 24 ? 24 - token.size() : 1, ' ') << p.meaning << "\n";
  }
  std::string dims;
  for (const OpSpec* op : all_ops()) {
    std::string names;
    for (const auto& dim : op->dims) names += (names.empty() ? "" : ", ") + std::string(dim.name);
    dims += (dims.empty() ? "" : "; ") + std::string(op->name) + ": " + names;
  }
  out << (markdown ? "\n" : "") << "<dim> is a dimension of the op (" << dims << ").\n";
  return out.str();
}

std::string launcher_prototype(const OpSpec& op, bool strided) {
  const auto type_of = [](const TensorSpec& t) {
    switch (t.element) {
      case ElementType::storage:
        return std::string("T");
      case ElementType::f32:
        return std::string("float");
      case ElementType::f64:
        return std::string("double");
      case ElementType::i32:
        return std::string("int");
      case ElementType::i64:
        return std::string("long long");
      case ElementType::u8:
        return std::string("unsigned char");
    }
    return std::string("T");
  };
  std::string args;
  const auto add = [&](const std::string& a) { args += (args.empty() ? "" : ", ") + a; };
  for (const auto& t : op.tensors) add((t.output ? "" : "const ") + type_of(t) + "* " + std::string(t.name));
  for (const auto& d : op.dims) add((strided ? "long long n_" : "int n_") + std::string(d.name));
  if (strided)
    for (const auto& t : op.tensors)
      for (int d = 0; d < t.rank; ++d) add("long long " + std::string(t.name) + "_stride" + std::to_string(d));
  for (const auto& p : op.params) {
    const char* type = p.kind == ParamKind::real ? "float " : p.kind == ParamKind::boolean ? "bool " : "int ";
    add(type + std::string(p.name));
  }
  add("cudaStream_t stream");
  return "void launch(" + args + ")";
}

std::string signatures_help(bool markdown) {
  struct Signature {
    std::string_view name, ops, arguments, implies;
  };
  static constexpr Signature kSignatures[] = {
#define KVERIFY_SIGNATURE(name, ops, arguments, implies) {#name, ops, arguments, implies},
#include "kernels/signatures.def"
#undef KVERIFY_SIGNATURE
  };
  std::ostringstream out;
  if (markdown) out << "| SIGNATURE | ops | FUNCTION is called as | implies ACCEPTS |\n|---|---|---|---|\n";
  for (const auto& s : kSignatures) {
    if (markdown)
      out << "| `" << s.name << "` | " << s.ops << " | `" << s.arguments << "` | " << s.implies << " |\n";
    else
      out << "  " << s.name << " (" << s.ops << ")\n    " << s.arguments << "\n    implies ACCEPTS " << s.implies
          << "\n";
  }
  out << (markdown ? "\n" : "")
      << "T is float, __half or __nv_bfloat16 from the Case's dtype; with WORKSPACE a void* workspace comes before the "
         "stream, with NO_STREAM the stream is left out.\n";
  out << (markdown ? "\n" : "") << "SIGNATURE tensors, op by op (tensors_strided: sizes as long long, then each "
      << "tensor's strides; a size or parameter may take any integer or floating type that holds it):\n"
      << (markdown ? "\n" : "");
  for (const OpSpec* op : all_ops())
    out << (markdown ? "- " : "  ") << op->name << ": " << (markdown ? "`" : "") << launcher_prototype(*op, false)
        << (markdown ? "`" : "") << "\n";
  return out.str();
}

}  // namespace kverify
