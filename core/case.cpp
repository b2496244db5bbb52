#include "core/case.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"

namespace kverify {
namespace {

[[noreturn]] void bad(std::string_view token, const std::string& what) {
  throw InputError("bad Case token " + shown(token) + ": " + what);
}

template <typename Int>
Int parse_int(std::string_view text, std::string_view token, std::string_view what) {
  Int v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range && end == text.data() + text.size())
    bad(token, shown(text) + " is too large (accepted: " + std::string(what) + ", at most " +
                   std::to_string(std::numeric_limits<Int>::max()) + ")");
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    bad(token, shown(text) + " is not " + std::string(what));
  return v;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

std::string recipes_list() {
  std::string s;
  for (const auto& r : kRecipes) s += (s.empty() ? "" : ", ") + std::string(r.name);
  return s;
}

std::string tensors_list(const OpSpec& op) {
  std::string s;
  for (const auto& t : op.tensors) s += (s.empty() ? "" : ", ") + std::string(t.name);
  return s;
}

std::string dims_list(const OpSpec& op) {
  std::string s;
  for (const auto& d : op.dims) s += (s.empty() ? "" : ", ") + std::string(d.name);
  return s;
}

std::string params_list(const OpSpec& op) {
  std::string s;
  for (const auto& p : op.params) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s.empty() ? "none" : s;
}

std::string format_double(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-tripping form
  return std::string(buf, end);
}

// The size of one dimension, checked against the op's domain for it.
void set_size(Case& c, int d, std::int64_t n, std::string_view token) {
  const DimSpec& dim = c.op->dims[static_cast<std::size_t>(d)];
  if (n < 1)
    bad(token, "size " + std::to_string(n) + " is below 1 (accepted: sizes >= 1, e.g. " + c.op->example_token() + ")");
  if (n < dim.min || n > dim.max || n % dim.multiple != 0)
    bad(token, "op " + std::string(c.op->name) + " takes dimension " + std::string(dim.name) + " in [" +
                   std::to_string(dim.min) + ", " + std::to_string(dim.max) + "]" +
                   (dim.multiple > 1 ? " and a multiple of " + std::to_string(dim.multiple) : "") + ", not " +
                   std::to_string(n));
  c.shape[static_cast<std::size_t>(d)] = n;
}

// A parameter's value as the Case line writes it.
std::string param_text(const ParamSpec& p, double v) {
  switch (p.kind) {
    case ParamKind::integer:
      return std::to_string(static_cast<long long>(v));
    case ParamKind::boolean:
      return v != 0 ? "true" : "false";
    case ParamKind::choice:
      return std::string(p.choices[static_cast<std::size_t>(v)]);
    case ParamKind::real:
      break;
  }
  return format_double(v);
}

// What a parameter accepts, for its errors and its help line.
std::string param_form(const ParamSpec& p) {
  switch (p.kind) {
    case ParamKind::boolean:
      return "true|false";
    case ParamKind::choice: {
      std::string s;
      for (auto ch : p.choices) s += (s.empty() ? "" : "|") + std::string(ch);
      return s;
    }
    case ParamKind::integer:
    case ParamKind::real:
      break;
  }
  const auto bound = [&](double b) {
    return p.kind == ParamKind::integer ? std::to_string(static_cast<long long>(b)) : format_double(b);
  };
  const bool has_min = p.min > -std::numeric_limits<double>::max(),
             has_max = p.max < std::numeric_limits<double>::max();
  std::string s = p.kind == ParamKind::integer ? "a whole number" : "a finite number";
  if (has_min && has_max) return s + " in [" + bound(p.min) + ", " + bound(p.max) + "]";
  if (has_min) return s + " >= " + bound(p.min);
  if (has_max) return s + " <= " + bound(p.max);
  return s;
}

double parse_param(const ParamSpec& p, std::string_view v, std::string_view token) {
  const auto refuse = [&] { bad(token, "parameter " + std::string(p.name) + " takes " + param_form(p)); };
  switch (p.kind) {
    case ParamKind::boolean:
      if (v == "true" || v == "1") return 1;
      if (v == "false" || v == "0") return 0;
      refuse();
    case ParamKind::choice:
      for (std::size_t i = 0; i < p.choices.size(); ++i)
        if (p.choices[i] == v) return static_cast<double>(i);
      refuse();
    case ParamKind::integer: {
      long long n{};
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (v.empty() || ec != std::errc() || end != v.data() + v.size() || static_cast<double>(n) < p.min ||
          static_cast<double>(n) > p.max)
        refuse();
      return static_cast<double>(n);
    }
    case ParamKind::real:
      break;
  }
  double d{};
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(d) || d < p.min || d > p.max)
    refuse();
  return d;
}

// Per-field parse and print. print returns nullopt when the field is at its default (omitted).
struct FieldDoc {
  std::string_view key, form, default_text, meaning;  // as CaseField; "{ops}" stands for the op names
};
// A field is given once, once per tensor of the op (<t>.strides), or once per parameter (<p>).
enum class Per : std::uint8_t { once, tensor, param };
struct FieldImpl {
  FieldDoc doc;
  // `index`: the tensor's or the parameter's, -1 for a field given once.
  void (*parse)(Case&, std::string_view value, std::string_view token, int index);
  std::optional<std::string> (*print)(const Case&, int index);
  Per per;
};

const FieldImpl kFields[] = {
    {{"op", "NAME", "(required)", "the operation: {ops}"},
     [](Case&, std::string_view, std::string_view, int) {},  // read first, see parse_case
     [](const Case& c, int) -> std::optional<std::string> { return std::string(c.op->name); },
     Per::once},
    {{"variant", "NAME", "auto", "kernel variant (`kverify list`); auto lets the dispatcher choose"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       if (v.empty() || v.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string_view::npos)
         bad(token, "a variant name is lower-case letters, digits and '_' (see `kverify list`)");
       c.variant = std::string(v);
     },
     [](const Case& c, int) -> std::optional<std::string> {
       if (c.variant == "auto") return std::nullopt;
       return c.variant;
     },
     Per::once},
    {{"dtype", "f32|f16|bf16", "f32", "storage dtype of inputs and outputs (arithmetic is f32)"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       auto d = parse_dtype(v);
       if (!d || *d == DType::f64) bad(token, "unknown storage dtype (accepted: f32, f16, bf16)");
       c.dtype = *d;
     },
     [](const Case& c, int) -> std::optional<std::string> { return std::string(name(c.dtype)); },
     Per::once},
    {{"shape", "RxC | MxNxK", "(required: shape or dims)",
      "the sizes in order, for the ops that have the form: {shapes}"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       if (c.op->shape_form.empty())
         bad(token, "op " + std::string(c.op->name) + " gives its sizes as dims=<name>:<size>,... (its dimensions: " +
                        dims_list(*c.op) + "; e.g. dims=" + std::string(c.op->shape_example) + ")");
       const auto parts = split(v, 'x');
       std::vector<std::int64_t> sizes;
       for (const auto part : parts)
         sizes.push_back(parse_int<std::int64_t>(part, token, "a size (a whole number >= 1)"));
       if (parts.size() != c.op->dims.size())
         bad(token, "op " + std::string(c.op->name) + " takes shape=" + std::string(c.op->shape_form) + ", " +
                        std::to_string(c.op->dims.size()) + " sizes joined by 'x'");
       c.shape.assign(parts.size(), 0);
       for (std::size_t d = 0; d < parts.size(); ++d) set_size(c, static_cast<int>(d), sizes[d], token);
     },
     [](const Case& c, int) -> std::optional<std::string> {
       if (c.op->shape_form.empty()) return std::nullopt;
       return c.op->sizes_text(c.shape);
     },
     Per::once},
    {{"dims", "NAME:N,...", "(required: shape or dims)",
      "the size of every dimension of the op by name, e.g. dims=N:4,C:1000"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       c.shape.assign(c.op->dims.size(), 0);
       for (auto part : split(v, ',')) {
         const auto colon = part.find(':');
         if (colon == std::string_view::npos)
           bad(token, "dims are NAME:SIZE joined by ',' (op " + std::string(c.op->name) + ": e.g. dims=" +
                          std::string(c.op->sizes_text(std::vector<std::int64_t>(c.op->dims.size(), 4))) + ")");
         const int d = c.op->dim_index(part.substr(0, colon));
         if (d < 0)
           bad(token, "op " + std::string(c.op->name) + " has no dimension " + shown(part.substr(0, colon)) +
                          " (its dimensions: " + dims_list(*c.op) + ")");
         if (c.shape[static_cast<std::size_t>(d)] != 0)
           bad(token, "dimension " + shown(part.substr(0, colon)) + " is given twice");
         set_size(c, d, parse_int<std::int64_t>(part.substr(colon + 1), token, "a size (a whole number >= 1)"), token);
       }
       for (std::size_t d = 0; d < c.shape.size(); ++d)
         if (c.shape[d] == 0)
           bad(token, "dimension " + std::string(c.op->dims[d].name) + " has no size (op " + std::string(c.op->name) +
                          " has dimensions " + dims_list(*c.op) + ")");
     },
     [](const Case& c, int) -> std::optional<std::string> {
       if (!c.op->shape_form.empty()) return std::nullopt;
       return c.op->sizes_text(c.shape);
     },
     Per::once},
    {{"<t>.strides", "RS,CS", "contiguous row-major",
      "stride of each dimension of tensor <t> in elements (a rank-2 tensor: row stride, column stride)"},
     [](Case& c, std::string_view v, std::string_view token, int t) {
       const auto parts = split(v, ',');
       const int rank = c.op->tensors[static_cast<std::size_t>(t)].rank;
       if (static_cast<int>(parts.size()) != rank)
         bad(token, rank == 2 ? std::string("strides are two numbers RS,CS (row stride, column stride), e.g. 1024,1")
                              : "tensor " + std::string(c.op->tensors[static_cast<std::size_t>(t)].name) + " has " +
                                    std::to_string(rank) + " dimension(s): give " + std::to_string(rank) +
                                    " stride(s) joined by ','");
       Strides s;
       for (const auto part : parts)
         s[s.rank++] = parse_int<std::int64_t>(part, token, "a stride (a whole number >= 1)");
       c.placement[t].strides = s;
     },
     [](const Case& c, int t) -> std::optional<std::string> {
       const auto& s = c.placement[t].strides;
       if (!s) return std::nullopt;
       std::string text;
       for (int d = 0; d < s->rank; ++d) text += (d ? "," : "") + std::to_string((*s)[d]);
       return text;
     },
     Per::tensor},
    {{"<t>.offset", "N", "0", "elements before tensor <t>'s first element in its buffer"},
     [](Case& c, std::string_view v, std::string_view token, int t) {
       c.placement[t].offset = parse_int<std::int64_t>(v, token, "an offset (a whole number >= 0)");
     },
     [](const Case& c, int t) -> std::optional<std::string> {
       if (c.placement[t].offset == 0) return std::nullopt;
       return std::to_string(c.placement[t].offset);
     },
     Per::tensor},
    {{"<p>", "VALUE", "the op's",
      "scalar parameter <p> of the op (eps, scale, causal, ...; `kverify help case` lists each op's)"},
     [](Case& c, std::string_view v, std::string_view token, int p) {
       const ParamSpec& spec = c.op->params[static_cast<std::size_t>(p)];
       const double value = parse_param(spec, v, token);
       if (value == spec.default_value)
         c.params[static_cast<std::size_t>(p)].reset();  // the canonical form omits defaults
       else
         c.params[static_cast<std::size_t>(p)] = value;
     },
     [](const Case& c, int p) -> std::optional<std::string> {
       const auto& value = c.params[static_cast<std::size_t>(p)];
       if (!value) return std::nullopt;
       return param_text(c.op->params[static_cast<std::size_t>(p)], *value);
     },
     Per::param},
    {{"values", "RECIPE[:P]", "normal",
      "input value recipe, e.g. normal:S, uniform:A, int:K, const:V, negative:S, special (all: `kverify help values`)"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       const auto colon = v.find(':');
       const auto recipe_name = v.substr(0, colon);
       const RecipeInfo* r = find_recipe(recipe_name);
       if (!r) bad(token, "unknown value recipe " + shown(recipe_name) + " (accepted: " + recipes_list() + ")");
       c.values = ValueRecipe{std::string(r->name), r->default_param, false};
       if (colon != std::string_view::npos && !r->domain.takes_param) bad(token, recipe_param_problem(*r, 0));
       if (colon != std::string_view::npos) {
         const auto p = v.substr(colon + 1);
         double d{};
         const auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), d);
         if (p.empty() || ec != std::errc() || end != p.data() + p.size() || !std::isfinite(d))
           bad(token, shown(p) + " is not a finite number (e.g. values=normal:1e3)");
         if (const std::string problem = recipe_param_problem(*r, d); !problem.empty()) bad(token, problem);
         c.values.param = d;
         c.values.param_given = true;
       }
     },
     [](const Case& c, int) -> std::optional<std::string> {
       if (c.values == ValueRecipe{}) return std::nullopt;
       return c.values.name + (c.values.param_given ? ":" + format_double(c.values.param) : "");
     },
     Per::once},
    {{"seed", "N", "0", "seed of the value recipe (unsigned 64-bit)"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       c.seed = parse_int<std::uint64_t>(v, token, "a seed (an unsigned 64-bit whole number)");
     },
     [](const Case& c, int) -> std::optional<std::string> {
       if (c.seed == 0) return std::nullopt;
       return std::to_string(c.seed);
     },
     Per::once},
    {{"backend", "auto|emu|cuda", "auto",
      "where the kernel runs: emu (CPU execution of the CUDA model), cuda "
      "(the GPU); auto takes cuda when a GPU is present, else emu"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       if (v == "auto")
         c.backend = Backend::automatic;
       else if (v == "emu")
         c.backend = Backend::emu;
       else if (v == "cuda")
         c.backend = Backend::cuda;
       else
         bad(token, "unknown backend (accepted: auto, emu, cuda)");
     },
     [](const Case& c, int) -> std::optional<std::string> {
       if (c.backend == Backend::automatic) return std::nullopt;
       return std::string(name(c.backend));
     },
     Per::once},
    {{"schedule", "N", "0",
      "emu only: seed of the order in which the blocks run and a block's threads run between "
      "barriers (0 = grid order and thread order)"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       c.schedule = parse_int<std::uint64_t>(v, token, "a schedule seed (an unsigned 64-bit whole number)");
     },
     [](const Case& c, int) -> std::optional<std::string> {
       if (c.schedule == 0) return std::nullopt;
       return std::to_string(c.schedule);
     },
     Per::once},
};

std::vector<std::string_view> tokens_of(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && !(line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r')) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

}  // namespace

const std::vector<CaseField> kCaseFields = [] {
  std::vector<CaseField> fields;
  for (const auto& f : kFields) {
    fields.push_back({f.doc.key, f.doc.form, f.doc.default_text, std::string(f.doc.meaning)});
    if (const auto at = fields.back().meaning.find("{ops}"); at != std::string::npos)
      fields.back().meaning.replace(at, 5, op_names());
    if (const auto at = fields.back().meaning.find("{shapes}"); at != std::string::npos) {
      std::string forms;
      for (const OpSpec* op : all_ops())
        if (!op->shape_form.empty())
          forms += (forms.empty() ? "" : ", ") + std::string(op->name) + " " + std::string(op->shape_form);
      fields.back().meaning.replace(at, 8, forms.empty() ? "none" : forms);
    }
  }
  return fields;
}();

std::string_view name(Backend b) {
  switch (b) {
    case Backend::automatic:
      return "auto";
    case Backend::emu:
      return "emu";
    case Backend::cuda:
      return "cuda";
  }
  return "?";
}

Layout Case::layout(int t) const {
  const TensorSpec& spec = op->tensors[static_cast<std::size_t>(t)];
  std::array<std::int64_t, kMaxRank> sizes{};
  for (int d = 0; d < spec.rank; ++d) {
    const int dim = spec.dims[static_cast<std::size_t>(d)];
    sizes[static_cast<std::size_t>(d)] = dim == kUnitDim ? 1 : shape[static_cast<std::size_t>(dim)];
  }
  Layout l = Layout::contiguous({sizes.data(), static_cast<std::size_t>(spec.rank)});
  if (const auto& s = placement[static_cast<std::size_t>(t)].strides)
    for (int d = 0; d < spec.rank; ++d) l.strides[static_cast<std::size_t>(d)] = (*s)[d];
  l.offset = placement[static_cast<std::size_t>(t)].offset;
  return l;
}

recipe_math::Draw input_draw(const Case& c, int t) {
  const TensorSpec& spec = c.op->tensors[static_cast<std::size_t>(t)];
  recipe_math::Draw d{recipe_kind(c.values.name), c.values.param, c.seed, t, 0, 0, 1, spec.positive_in_halves};
  const Layout l = c.layout(t);
  d.cols = l.cols();
  if (spec.values == TensorValues::index) {
    d.kind = recipe_math::Kind::index;
    d.param = static_cast<double>(c.shape[static_cast<std::size_t>(spec.index_dim)]);
    if (spec.ignored_param >= 0) {
      d.ignored_share = spec.values_param;
      d.ignored_value = c.param(spec.ignored_param);
    }
  } else if (spec.values == TensorValues::mask) {
    d.kind = recipe_math::Kind::mask;
    d.param = spec.values_param;
  } else if (spec.values == TensorValues::near_one) {
    d.kind = recipe_math::Kind::near_one;
    d.param = spec.values_param;
  }
  return d;
}

std::int64_t output_elements(const Case& c) {
  std::int64_t n = 0;
  for (const int t : c.op->outputs()) n += c.layout(t).elements();
  return n;
}

bool past_grid_limits(const Case& c) {
  return std::any_of(c.shape.begin(), c.shape.end(), [](std::int64_t n) { return n > 65535; });
}

double Case::param(int p) const {
  const auto& given = params[static_cast<std::size_t>(p)];
  return given ? *given : op->params[static_cast<std::size_t>(p)].default_value;
}

std::int64_t Case::size(std::string_view dim) const {
  const int d = op->dim_index(dim);
  if (d < 0) throw std::out_of_range("op " + std::string(op->name) + " has no dimension " + std::string(dim));
  return shape.at(static_cast<std::size_t>(d));
}

namespace {
int copies_of(const FieldImpl& f, const OpSpec& op) {
  return f.per == Per::tensor ? op.tensor_count() : f.per == Per::param ? static_cast<int>(op.params.size()) : 1;
}
std::string key_of(const FieldImpl& f, const OpSpec& op, int i) {
  std::string key(f.doc.key);
  if (f.per == Per::tensor) key.replace(0, 3, op.tensors[static_cast<std::size_t>(i)].name);
  if (f.per == Per::param) key = std::string(op.params[static_cast<std::size_t>(i)].name);
  return key;
}
const FieldImpl& field(std::string_view key) {
  for (const auto& f : kFields)
    if (f.doc.key == key) return f;
  throw std::logic_error("no Case field " + std::string(key));
}
}  // namespace

std::string Case::to_text() const {
  std::string out;
  for (const auto& f : kFields) {
    for (int i = 0, n = copies_of(f, *op); i < n; ++i) {
      const auto value = f.print(*this, f.per == Per::once ? -1 : i);
      if (!value) continue;
      out += (out.empty() ? "" : " ") + key_of(f, *op, i) + "=" + *value;
    }
  }
  return out;
}

namespace {
// Why a token that was probably meant as op= is not one: its key in another case, or bytes outside
// ASCII (a byte-order mark, a full-width letter) that no key has. "" when no token looks like it.
std::string near_miss_of_op(const std::vector<std::string_view>& tokens) {
  for (const auto token : tokens) {
    const std::string_view key = token.substr(0, token.find('='));
    std::string folded;
    std::size_t first_non_ascii = std::string_view::npos;
    for (std::size_t i = 0; i < key.size(); ++i) {
      const auto byte = static_cast<unsigned char>(key[i]);
      if (byte >= 0x80) {
        if (first_non_ascii == std::string_view::npos) first_non_ascii = i;
        continue;
      }
      folded += static_cast<char>(std::tolower(byte));
    }
    if (token.find('=') == std::string_view::npos || (folded != "op" && folded != "p")) continue;
    if (first_non_ascii != std::string_view::npos) {
      char where[96];
      std::snprintf(where, sizeof where, " holds byte 0x%02X at position %zu, outside ASCII",
                    static_cast<unsigned char>(key[first_non_ascii]), first_non_ascii);
      return ": the key of " + shown(token) + where + " (a byte-order mark, a full-width letter?); keys are ASCII";
    }
    return ": the key of " + shown(token) + " is not op (keys are lower-case)";
  }
  return "";
}
}  // namespace

Case parse_case(std::string_view line) { return parse_case(line, all_ops()); }

Case parse_case(std::string_view line, std::span<const OpSpec* const> ops) {
  const auto names = [&] {
    std::string out;
    for (const OpSpec* op : ops) out += (out.empty() ? "" : ", ") + std::string(op->name);
    return out;
  };
  const auto tokens = tokens_of(line);
  if (tokens.empty()) {
    const OpSpec& first = *ops[0];
    throw InputError("empty Case: give at least op=NAME and its sizes, e.g. 'op=" + std::string(first.name) + " " +
                     first.example_token() + "'");
  }

  Case c;
  // op first: which tensors, dimensions and parameters the other tokens may name depends on it.
  for (auto token : tokens) {
    if (token.substr(0, 3) != "op=") continue;
    if (c.op) bad(token, "op is given twice");
    for (const OpSpec* op : ops)
      if (op->name == token.substr(3)) c.op = op;
    if (!c.op) bad(token, "unknown op " + shown(token.substr(3)) + " (accepted: " + names() + ")");
  }
  if (!c.op)
    throw InputError("Case has no op=NAME token" + near_miss_of_op(tokens) + " (accepted ops: " + names() + ")");

  std::vector<std::string> seen;
  for (auto token : tokens) {
    const auto eq = token.find('=');
    if (eq == std::string_view::npos || eq == 0)
      bad(token, "a Case token is key=value (see `kverify help case` for the keys)");
    const auto key = token.substr(0, eq);
    const auto value = token.substr(eq + 1);
    if (key == "op") continue;
    for (const auto& s : seen)
      if (s == key || ((s == "shape" || s == "dims") && (key == "shape" || key == "dims")))
        bad(token, s == key ? "key " + shown(key) + " is given twice"
                            : std::string("shape and dims are given both (accepted: one of them)"));
    seen.emplace_back(key);

    const FieldImpl* found = nullptr;
    int index = -1;
    for (const auto& f : kFields) {
      if (f.per == Per::once) {
        if (f.doc.key == key) found = &f;
        continue;
      }
      if (f.per == Per::param) {
        if (const int p = c.op->param_index(key); p >= 0 && !found) found = &f, index = p;
        continue;
      }
      const auto suffix = f.doc.key.substr(3);  // ".strides" / ".offset"
      if (key.size() > suffix.size() && key.substr(key.size() - suffix.size()) == suffix) {
        index = c.op->tensor_index(key.substr(0, key.size() - suffix.size()));
        if (index < 0)
          bad(token, "op " + std::string(c.op->name) + " has no tensor " +
                         shown(key.substr(0, key.size() - suffix.size())) + " (its tensors: " + tensors_list(*c.op) +
                         ")");
        found = &f;
      }
    }
    if (!found) {
      std::string keys;
      for (const auto& f : kFields) keys += (keys.empty() ? "" : ", ") + std::string(f.doc.key);
      bad(token, "unknown key " + shown(key) + " (accepted: " + keys + "; op " + std::string(c.op->name) +
                     "'s parameters: " + params_list(*c.op) + ")");
    }
    found->parse(c, value, token, index);
    if (key == "shape" || key == "dims") c.shape.shrink_to_fit();
  }
  if (c.shape.empty()) {
    if (c.op->shape_form.empty())
      throw InputError("Case has no dims=NAME:N,... token (op " + std::string(c.op->name) +
                       "'s dimensions: " + dims_list(*c.op) + "; e.g. dims=" + std::string(c.op->shape_example) + ")");
    throw InputError("Case has no shape=" + std::string(c.op->shape_form) +
                     " token (e.g. shape=" + std::string(c.op->shape_example) + ")");
  }

  // Layouts: validate each tensor; contiguous strides written out are the default, kept absent.
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    const TensorSpec& spec = c.op->tensors[static_cast<std::size_t>(t)];
    const Layout l = c.layout(t);
    const std::size_t bytes = size_of(element_dtype(spec.element, c.dtype));
    if (auto problem = layout_problem(l, bytes, spec.output)) {
      const char* sizes_key = c.op->shape_form.empty() ? "dims" : "shape";
      std::string token = std::string(sizes_key) + "=" + *field(sizes_key).print(c, -1);
      if (c.placement[t].strides) token = std::string(spec.name) + ".strides=" + *field("<t>.strides").print(c, t);
      Layout at_zero = l;  // a problem that goes away at offset 0 is the offset's
      at_zero.offset = 0;
      if (l.offset != 0 && !layout_problem(at_zero, bytes, spec.output))
        token = std::string(spec.name) + ".offset=" + *field("<t>.offset").print(c, t);
      bad(token, "tensor " + std::string(spec.name) + ": " + *problem);
    }
    if (c.placement[t].strides && l == [&] {
          Layout contiguous = Layout::contiguous({l.sizes.data(), static_cast<std::size_t>(l.rank)});
          contiguous.offset = l.offset;
          return contiguous;
        }())
      c.placement[t].strides.reset();
  }
  if (c.schedule != 0 && c.backend == Backend::cuda)  // kept, it would claim a thread order the GPU never took
    bad("schedule=" + std::to_string(c.schedule),
        "a thread order is emu's to choose, not the GPU's (accepted: schedule with backend=emu)");
  return c;
}

std::string case_fields_help(bool markdown) {
  std::ostringstream out;
  if (markdown) {
    const auto cell = [](std::string_view text) {
      std::string s;
      for (char ch : text) s += ch == '|' ? std::string("\\|") : std::string(1, ch);
      return s;
    };
    out << "| key | form | default | meaning |\n|---|---|---|---|\n";
    for (const auto& f : kCaseFields)
      out << "| `" << cell(f.key) << "` | `" << cell(f.form) << "` | " << cell(f.default_text) << " | "
          << cell(f.meaning) << " |\n";
  } else {
    for (const auto& f : kCaseFields) {
      out << "  " << f.key << "=" << f.form;
      for (std::size_t n = f.key.size() + f.form.size() + 1; n < 28; ++n) out << ' ';
      out << " " << f.meaning << " [default: " << f.default_text << "]\n";
    }
  }
  return out.str();
}

}  // namespace kverify
