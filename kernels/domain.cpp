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

constexpr std::string_view kRank2Dims[] = {"rows", "cols"};
constexpr std::string_view kRank3Dims[] = {"m", "n", "k"};

std::string with_dim(std::string_view pattern, std::string_view dim) {
  std::string out(pattern);
  if (const auto at = out.find("<dim>"); at != std::string::npos) out.replace(at, 5, dim);
  return out;
}

std::string accepted_names(int rank) {
  std::string out;
  for (const auto& p : kPreconditions) {
    const bool per_dim = p.name.find("<dim>") != std::string_view::npos;
    for (std::string_view dim : dimension_names(rank)) {
      out +=
          (out.empty() ? "" : ", ") + with_dim(p.name, dim) + (p.argument.empty() ? "" : "=" + std::string(p.argument));
      if (!per_dim) break;
    }
  }
  return out;
}

std::int64_t round_up(std::int64_t v, std::int64_t m) { return (v + m - 1) / m * m; }

std::string strides_text(const Case& c, int t) {
  const Layout2D l = c.layout(t);
  return std::string(c.op->tensors()[t].name) + ".strides=" + std::to_string(l.row_stride) + "," +
         std::to_string(l.col_stride);
}

}  // namespace

std::span<const std::string_view> dimension_names(int shape_rank) {
  if (shape_rank == 3) return kRank3Dims;
  return kRank2Dims;
}

Domain parse_domain(std::string_view tokens, int shape_rank) {
  Domain d;
  const auto dims = dimension_names(shape_rank);
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
        ordered.emplace_back(row * 3 + i, token);
        if (p.argument.empty() != arg.empty())
          throw InputError("bad ACCEPTS token '" + token + "': " + key +
                           (p.argument.empty() ? " takes no value" : " needs =" + std::string(p.argument)) +
                           " (accepted: " + accepted_names(shape_rank) + ")");
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
      throw InputError("unknown ACCEPTS token '" + token + "' (accepted: " + accepted_names(shape_rank) +
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
  const int rank = c.op->shape_rank;
  const auto dims = dimension_names(rank);
  for (int i = 0; i < rank; ++i) {
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
  const std::int64_t element_bytes = static_cast<std::int64_t>(size_of(c.dtype));
  for (int t = 0; t < c.op->tensor_count; ++t) {
    const Layout2D l = c.layout(t);
    const std::string tensor(c.op->tensors()[t].name);
    if (d.contiguous && !l.contiguous_row_major())
      return strides_text(c, t) + " is not contiguous row-major (ACCEPTS contiguous)";
    if (d.unit_col_stride && l.cols > 1 && l.col_stride != 1)
      return strides_text(c, t) + " has a column stride other than 1 (ACCEPTS unit_col_stride)";
    if (d.column_major && l.rows > 1 && l.row_stride != 1)
      return strides_text(c, t) + " has a row stride other than 1 (ACCEPTS column_major)";
    if (l.rows > 1 && l.row_stride % d.row_stride_multiple != 0)
      return strides_text(c, t) + ": the row stride is not a multiple of " + std::to_string(d.row_stride_multiple) +
             " elements (ACCEPTS row_stride_multiple=" + std::to_string(d.row_stride_multiple) + ")";
    if ((l.offset * element_bytes) % d.aligned != 0)
      return tensor + ".offset=" + std::to_string(l.offset) + " puts its first element " +
             std::to_string(l.offset * element_bytes % 256) +
             " bytes past a 256-byte boundary (ACCEPTS aligned=" + std::to_string(d.aligned) + ")";
    if (d.int32_indexing && (l.footprint() > kInt32Max || l.rows > kInt32Max || l.cols > kInt32Max))
      return tensor + " reaches element " + std::to_string(l.footprint() - 1) +
             ", past 2^31 - 1 (ACCEPTS int32_indexing: the launcher takes int sizes)";
  }
  return std::nullopt;
}

bool fit_into(const Domain& d, Case& c) {
  if (!d.declared()) return true;
  Case f = c;
  for (int i = 0; i < f.op->shape_rank; ++i) {
    std::int64_t& v = f.shape[static_cast<std::size_t>(i)];
    const std::int64_t m = d.multiple[i];
    const std::int64_t lo = round_up(d.min[i], m), hi = d.max[i] / m * m;
    v = std::clamp(round_up(v, m), lo, hi);
  }
  const std::int64_t element_bytes = static_cast<std::int64_t>(size_of(f.dtype));
  for (int t = 0; t < f.op->tensor_count; ++t) {
    Placement& p = f.placement[static_cast<std::size_t>(t)];
    const Layout2D shape = f.layout(t);  // the new shape with the drawn strides
    const std::int64_t rows = shape.rows, cols = shape.cols;
    if (d.contiguous) {
      p.strides.reset();
    } else if (p.strides || d.row_stride_multiple > 1 || d.column_major) {
      auto [rs, cs] = p.strides.value_or(std::pair{cols, std::int64_t{1}});
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
      p.strides = std::pair{rs, cs};
      if (*p.strides == std::pair{cols, std::int64_t{1}}) p.strides.reset();  // the canonical form
    }
    if (d.aligned > element_bytes) p.offset = round_up(p.offset, d.aligned / element_bytes);
    // A far layout for a kernel that indexes in 32 bits: the same kind of layout, near.
    if (d.int32_indexing && p.strides && f.layout(t).footprint() > kInt32Max) {
      auto& [rs, cs] = *p.strides;
      if (rs > kInt32Max) rs = cs <= 1 ? cols + 1 : cols * cs + 1;
      if (cs > kInt32Max) cs = rows + 1;
      if (*p.strides == std::pair{cols, std::int64_t{1}}) p.strides.reset();
    }
  }
  if (outside_domain(d, f)) return false;
  for (int t = 0; t < f.op->tensor_count; ++t)  // the Case parser's own layout rules
    if (layout_problem(f.layout(t), size_of(f.dtype), f.op->tensors()[t].output)) return false;
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
  out << (markdown ? "\n" : "") << "<dim> is rows or cols (softmax, gelu_tanh, row_sum), m, n or k (matmul_relu).\n";
  return out.str();
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
  return out.str();
}

}  // namespace kverify
