#include "tools/options.hpp"

#include <charconv>
#include <cstdlib>

#include "core/child_process.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/gpu_slots.hpp"
#include "core/op_spec.hpp"
#include "kernels/registry.hpp"

namespace kverify::cli {
namespace {

std::string names_of(std::span<const Option> options) {
  std::string s;
  for (const auto& o : options)
    if (!o.internal) s += (s.empty() ? "" : ", ") + std::string(o.name);
  return s;
}

std::vector<std::string_view> split_choices(std::string_view accepted) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= accepted.size()) {
    const auto bar = accepted.find('|', start);
    out.push_back(accepted.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start));
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return out;
}

std::string comma_list(std::string_view accepted) {
  std::string s;
  for (auto c : split_choices(accepted)) s += (s.empty() ? "" : ", ") + std::string(c);
  return s;
}

// What the kind accepts, for messages.
std::string accepted_of(const Option& o) {
  if (!o.accepted.empty() && o.kind != ValueKind::choice) return std::string(o.accepted);
  switch (o.kind) {
    case ValueKind::flag:
      return "no value";
    case ValueKind::text:
      return "any text";
    case ValueKind::whole:
      return "a whole number in " + std::to_string(o.min) + ".." + std::to_string(o.max);
    case ValueKind::seed:
      return "an unsigned 64-bit whole number";
    case ValueKind::choice:
      return comma_list(o.accepted);
    case ValueKind::op:
      return op_names();
    case ValueKind::variant:
      return "a variant of `kverify list`";
    case ValueKind::dtype:
      return "f32, f16, bf16";
  }
  return "";
}

// "" when `value` is of the option's kind, else why not (without the accepted part).
std::string kind_problem(const Option& o, std::string_view value) {
  switch (o.kind) {
    case ValueKind::flag:
    case ValueKind::text:
      return "";
    case ValueKind::whole: {
      long long v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (end != value.data() + value.size() || ec == std::errc::invalid_argument) return "not a whole number";
      if (ec == std::errc::result_out_of_range) return value.starts_with('-') ? "too small" : "too large";
      if (v < o.min) return "too small";
      if (v > o.max) return "too large";
      return "";
    }
    case ValueKind::seed: {
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (end != value.data() + value.size() || ec == std::errc::invalid_argument)
        return "not an unsigned whole number";
      if (ec == std::errc::result_out_of_range) return "too large";
      return "";
    }
    case ValueKind::choice:
      for (auto c : split_choices(o.accepted))
        if (c == value) return "";
      return "not one of them";
    case ValueKind::op:
      return find_op(value) ? "" : "not an op";
    case ValueKind::variant:
      for (const auto& v : all_variants())
        if (v.name == value) return "";
      return "no such variant";
    case ValueKind::dtype: {
      const auto d = parse_dtype(value);
      return d && *d != DType::f64 ? "" : "not a storage dtype";
    }
  }
  return "";
}

const Option* find(std::span<const Option> options, std::string_view name) {
  for (const auto& o : options)
    if (o.name == name) return &o;
  return nullptr;
}

}  // namespace

std::optional<std::string> ParsedOptions::get(std::string_view name) const {
  const auto it = values.find(name);
  if (it == values.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::string ParsedOptions::text(std::string_view name, std::string_view fallback) const {
  const auto v = get(name);
  return v ? *v : std::string(fallback);
}

long long ParsedOptions::whole(std::string_view name, long long fallback) const {
  const auto v = get(name);
  if (!v) return fallback;
  long long n = 0;
  std::from_chars(v->data(), v->data() + v->size(), n);  // validated by parse()
  return n;
}

std::uint64_t ParsedOptions::seed(std::string_view name, std::uint64_t fallback) const {
  const auto v = get(name);
  if (!v) return fallback;
  std::uint64_t n = 0;
  std::from_chars(v->data(), v->data() + v->size(), n);
  return n;
}

const std::vector<std::string>& ParsedOptions::all(std::string_view name) const {
  static const std::vector<std::string> none;
  const auto it = values.find(name);
  return it == values.end() ? none : it->second;
}

ParsedOptions parse(std::string_view command, std::span<const Option> options, const Operands& operands,
                    std::span<const std::string_view> args) {
  ParsedOptions out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--" && operands.passthrough) {
      for (++i; i < args.size(); ++i) out.passthrough.emplace_back(args[i]);
      break;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      const Option* o = find(options, arg);
      // kverify's own options between its processes exist only in the processes it starts.
      if (o && o->internal && !std::getenv(kInternalChildMark)) o = nullptr;
      if (!o)
        throw InputError("unknown option " + shown(arg) + " (" +
                         (names_of(options).empty() ? std::string("kverify ") + std::string(command) + " takes none"
                                                    : "accepted: " + names_of(options)) +
                         "; ./kverify " + std::string(command) + " --help)");
      if (out.has(o->name) && !o->repeatable)
        throw InputError("option " + std::string(o->name) + " is given twice (accepted: once)");
      auto& slot = out.values[std::string(o->name)];
      if (o->kind == ValueKind::flag) continue;
      if (i + 1 >= args.size())
        throw InputError("option " + std::string(o->name) + " needs a value (accepted: " + accepted_of(*o) + ")");
      const std::string_view value = args[++i];
      std::string problem = kind_problem(*o, value);
      std::string accepted = accepted_of(*o);
      if (problem.empty() && o->check) {
        accepted = o->check(value);
        if (!accepted.empty()) problem = "not accepted";
      }
      if (!problem.empty())
        throw InputError("option " + std::string(o->name) + " " + shown(value) + ": " + problem +
                         " (accepted: " + accepted + ")");
      slot.emplace_back(value);
      continue;
    }
    if (operands.max >= 0 && static_cast<int>(out.operands.size()) >= operands.max) {
      const std::string takes = operands.max == 0 ? "takes no arguments" : "takes " + std::string(operands.usage);
      const std::string names = names_of(options);
      throw InputError("unexpected argument " + shown(arg) + " (kverify " + std::string(command) + " " + takes +
                       (names.empty() ? "" : "; options: " + names) + ")");
    }
    out.operands.emplace_back(arg);
  }
  if (static_cast<int>(out.operands.size()) < operands.min)
    throw InputError("missing " + std::string(operands.usage) + " (usage: kverify " + std::string(command) + " " +
                     std::string(operands.usage) + " [options])");
  return out;
}

std::string usage_of(std::span<const Option> options) {
  std::string s;
  for (const auto& o : options) {
    if (o.internal) continue;
    s += (s.empty() ? "[" : " [") + std::string(o.name);
    if (o.kind != ValueKind::flag) s += " " + std::string(o.value_name);
    s += "]";
  }
  return s;
}

std::string options_help(std::span<const Option> options) {
  constexpr std::size_t kColumn = 27, kWidth = 104;
  std::string out;
  for (const auto& o : options) {
    if (o.internal) continue;
    std::string head = "  " + std::string(o.name) + (o.kind == ValueKind::flag ? "" : " " + std::string(o.value_name));
    if (head.size() + 1 > kColumn)
      head += "\n" + std::string(kColumn - 1, ' ');
    else
      head.resize(kColumn - 1, ' ');
    // The help and its default as words, wrapped under the help column.
    std::string text(o.help);
    if (!o.default_text.empty()) text += " [default: " + std::string(o.default_text) + "]";
    for (char& ch : text)
      if (ch == '\n') ch = ' ';
    std::string line;
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < text.size();) {
      std::size_t end = text.find(' ', at);
      if (end == std::string::npos) end = text.size();
      const std::string word = text.substr(at, end - at);
      if (!line.empty() && kColumn + line.size() + 1 + word.size() > kWidth) {
        lines.push_back(line);
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
      at = end + 1;
    }
    lines.push_back(line);
    out += head;
    for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" + std::string(kColumn, ' ') : " ") + lines[i];
    out += "\n";
  }
  return out;
}

std::string gpus_value_problem(std::string_view value) {
  std::string problem;
  return parse_gpus(value, 1, &problem) ? "" : "all, or a number of GPUs from 1 to 1024";
}

}  // namespace kverify::cli
