#include "core/case.hpp"

#include <charconv>
#include <limits>
#include <sstream>

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
  for (const auto& t : op.tensors()) s += (s.empty() ? "" : ", ") + std::string(t.name);
  return s;
}

std::string format_double(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-tripping form
  return std::string(buf, end);
}

// Per-field parse and print. print returns nullopt when the field is at its default (omitted).
struct FieldDoc {
  std::string_view key, form, default_text, meaning;  // as CaseField; "{ops}" stands for the op names
};
struct FieldImpl {
  FieldDoc doc;
  void (*parse)(Case&, std::string_view value, std::string_view token, int tensor);
  std::optional<std::string> (*print)(const Case&, int tensor);
  bool per_tensor;
};

const FieldImpl kFields[] = {
    {{"op", "NAME", "(required)", "the operation: {ops}"},
     [](Case&, std::string_view, std::string_view, int) {},  // read first, see parse_case
     [](const Case& c, int) -> std::optional<std::string> { return std::string(c.op->name); },
     false},
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
     false},
    {{"dtype", "f32|f16|bf16", "f32", "storage dtype of inputs and outputs (arithmetic is f32)"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       auto d = parse_dtype(v);
       if (!d || *d == DType::f64) bad(token, "unknown storage dtype (accepted: f32, f16, bf16)");
       c.dtype = *d;
     },
     [](const Case& c, int) -> std::optional<std::string> { return std::string(name(c.dtype)); },
     false},
    {{"shape", "RxC | MxNxK", "(required)", "rows x columns; matmul_relu takes M x N x K"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       c.shape.clear();
       for (auto part : split(v, 'x')) {
         const auto n = parse_int<std::int64_t>(part, token, "a size (a whole number >= 1)");
         if (n < 1) bad(token, "size " + std::to_string(n) + " is below 1 (accepted: sizes >= 1, e.g. shape=4x1000)");
         c.shape.push_back(n);
       }
       if (static_cast<int>(c.shape.size()) != c.op->shape_rank)
         bad(token, "op " + std::string(c.op->name) + " takes shape=" + std::string(c.op->shape_form) + ", " +
                        std::to_string(c.op->shape_rank) + " sizes joined by 'x'");
     },
     [](const Case& c, int) -> std::optional<std::string> {
       std::string s;
       for (auto n : c.shape) s += (s.empty() ? "" : "x") + std::to_string(n);
       return s;
     },
     false},
    {{"<t>.strides", "RS,CS", "contiguous row-major", "row and column stride of tensor <t> in elements"},
     [](Case& c, std::string_view v, std::string_view token, int t) {
       const auto parts = split(v, ',');
       if (parts.size() != 2) bad(token, "strides are two numbers RS,CS (row stride, column stride), e.g. 1024,1");
       c.placement[t].strides = std::pair{parse_int<std::int64_t>(parts[0], token, "a stride (a whole number >= 1)"),
                                          parse_int<std::int64_t>(parts[1], token, "a stride (a whole number >= 1)")};
     },
     [](const Case& c, int t) -> std::optional<std::string> {
       const auto& s = c.placement[t].strides;
       if (!s) return std::nullopt;
       return std::to_string(s->first) + "," + std::to_string(s->second);
     },
     true},
    {{"<t>.offset", "N", "0", "elements before tensor <t>'s first element in its buffer"},
     [](Case& c, std::string_view v, std::string_view token, int t) {
       c.placement[t].offset = parse_int<std::int64_t>(v, token, "an offset (a whole number >= 0)");
     },
     [](const Case& c, int t) -> std::optional<std::string> {
       if (c.placement[t].offset == 0) return std::nullopt;
       return std::to_string(c.placement[t].offset);
     },
     true},
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
     false},
    {{"seed", "N", "0", "seed of the value recipe (unsigned 64-bit)"},
     [](Case& c, std::string_view v, std::string_view token, int) {
       c.seed = parse_int<std::uint64_t>(v, token, "a seed (an unsigned 64-bit whole number)");
     },
     [](const Case& c, int) -> std::optional<std::string> {
       if (c.seed == 0) return std::nullopt;
       return std::to_string(c.seed);
     },
     false},
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
     false},
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
     false},
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

Layout2D Case::layout(int t) const {
  const TensorRole& role = op->tensors()[t];
  const std::int64_t rows = role.rows_dim < 0 ? 1 : shape[role.rows_dim];
  const std::int64_t cols = role.cols_dim < 0 ? 1 : shape[role.cols_dim];
  Layout2D l = Layout2D::row_major(rows, cols);
  if (placement[t].strides) {
    l.row_stride = placement[t].strides->first;
    l.col_stride = placement[t].strides->second;
  }
  l.offset = placement[t].offset;
  return l;
}

std::string Case::to_text() const {
  std::string out;
  for (const auto& f : kFields) {
    const int copies = f.per_tensor ? op->tensor_count : 1;
    for (int t = 0; t < copies; ++t) {
      const auto value = f.print(*this, t);
      if (!value) continue;
      std::string key(f.doc.key);
      if (f.per_tensor) key.replace(0, 3, op->tensors()[t].name);
      out += (out.empty() ? "" : " ") + key + "=" + *value;
    }
  }
  return out;
}

Case parse_case(std::string_view line) {
  const auto tokens = tokens_of(line);
  if (tokens.empty())
    throw InputError("empty Case: give at least op=NAME and shape=..., e.g. 'op=" + std::string(all_ops()[0]->name) +
                     " shape=" + std::string(all_ops()[0]->shape_example) + "'");

  Case c;
  // op first: which tensors and shape form the other tokens may name depends on it.
  for (auto token : tokens) {
    if (token.substr(0, 3) != "op=") continue;
    if (c.op) bad(token, "op is given twice");
    c.op = find_op(token.substr(3));
    if (!c.op) bad(token, "unknown op " + shown(token.substr(3)) + " (accepted: " + op_names() + ")");
  }
  if (!c.op) throw InputError("Case has no op=NAME token (accepted ops: " + op_names() + ")");

  std::vector<std::string> seen;
  for (auto token : tokens) {
    const auto eq = token.find('=');
    if (eq == std::string_view::npos || eq == 0)
      bad(token, "a Case token is key=value (see `kverify help case` for the keys)");
    const auto key = token.substr(0, eq);
    const auto value = token.substr(eq + 1);
    if (key == "op") continue;
    for (const auto& s : seen)
      if (s == key) bad(token, "key " + shown(key) + " is given twice");
    seen.emplace_back(key);

    const FieldImpl* field = nullptr;
    int tensor = -1;
    for (const auto& f : kFields) {
      if (!f.per_tensor) {
        if (f.doc.key == key) field = &f;
        continue;
      }
      const auto suffix = f.doc.key.substr(3);  // ".strides" / ".offset"
      if (key.size() > suffix.size() && key.substr(key.size() - suffix.size()) == suffix) {
        const auto tname = key.substr(0, key.size() - suffix.size());
        for (int t = 0; t < c.op->tensor_count; ++t)
          if (c.op->tensors()[t].name == tname) tensor = t;
        if (tensor < 0)
          bad(token, "op " + std::string(c.op->name) + " has no tensor " + shown(tname) +
                         " (its tensors: " + tensors_list(*c.op) + ")");
        field = &f;
      }
    }
    if (!field) {
      std::string keys;
      for (const auto& f : kFields) keys += (keys.empty() ? "" : ", ") + std::string(f.doc.key);
      bad(token, "unknown key " + shown(key) + " (accepted: " + keys + ")");
    }
    field->parse(c, value, token, tensor);
    if (key == "shape") c.shape.shrink_to_fit();
  }
  if (c.shape.empty())
    throw InputError("Case has no shape=" + std::string(c.op->shape_form) +
                     " token (e.g. shape=" + std::string(c.op->shape_example) + ")");

  // Layouts: validate each tensor; contiguous strides written out are the default, kept absent.
  for (int t = 0; t < c.op->tensor_count; ++t) {
    const TensorRole& role = c.op->tensors()[t];
    const Layout2D l = c.layout(t);
    if (auto problem = layout_problem(l, size_of(c.dtype), role.output)) {
      std::string token = "shape=" + *kFields[3].print(c, 0);
      if (c.placement[t].strides) token = std::string(role.name) + ".strides=" + *kFields[4].print(c, t);
      Layout2D at_zero = l;  // a problem that goes away at offset 0 is the offset's
      at_zero.offset = 0;
      if (l.offset != 0 && !layout_problem(at_zero, size_of(c.dtype), role.output))
        token = std::string(role.name) + ".offset=" + *kFields[5].print(c, t);
      bad(token, "tensor " + std::string(role.name) + ": " + *problem);
    }
    if (c.placement[t].strides && *c.placement[t].strides == std::pair{l.cols, std::int64_t{1}})
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
