#include "runtime/emu/rewrite/shared_declarations.hpp"

#include <cctype>
#include <cstddef>
#include <vector>

namespace kverify::emu {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Token {
  enum Kind { ident, punct, literal } kind;
  std::size_t begin, end;  // offsets in the source
};

// Splits the source into identifiers, punctuation and literals; comments, whitespace and
// preprocessor lines are skipped (they stay in the output because only token ranges are edited).
std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  bool line_start = true;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '#' && line_start) {  // a directive, with its backslash continuations
      while (i < s.size() && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
        ++i;
      }
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const std::size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
      continue;
    }
    if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"') {  // raw string R"delim( ... )delim"
      const std::size_t open = s.find('(', i + 2);
      if (open != std::string_view::npos) {
        const std::string close = ")" + std::string(s.substr(i + 2, open - i - 2)) + "\"";
        const std::size_t end = s.find(close, open + 1);
        const std::size_t stop = end == std::string_view::npos ? s.size() : end + close.size();
        out.push_back({Token::literal, i, stop});
        i = stop;
        continue;
      }
    }
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      out.push_back({Token::literal, i, std::min(j + 1, s.size())});
      i = j + 1;
      continue;
    }
    if (ident_start(c)) {
      std::size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      out.push_back({Token::ident, i, j});
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < s.size() && (ident_char(s[j]) || s[j] == '.' || s[j] == '\'')) ++j;
      out.push_back({Token::literal, i, j});
      i = j;
      continue;
    }
    if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      out.push_back({Token::punct, i, i + 2});
      i += 2;
      continue;
    }
    out.push_back({Token::punct, i, i + 1});
    ++i;
  }
  return out;
}

std::string_view text(std::string_view s, const Token& t) { return s.substr(t.begin, t.end - t.begin); }

// The newlines of a replaced range, so every later line keeps its number.
std::string newlines_in(std::string_view s) {
  std::string n;
  for (char c : s)
    if (c == '\n') n += '\n';
  return n;
}

// SPECS without the alignment attributes a template argument cannot carry.
std::string type_of_specs(std::string_view src, const std::vector<Token>& t, std::size_t first, std::size_t last) {
  std::string out;
  for (std::size_t k = first; k < last; ++k) {
    const std::string_view w = text(src, t[k]);
    if ((w == "__align__" || w == "alignas" || w == "__attribute__" || w == "__declspec") && k + 1 < last &&
        text(src, t[k + 1]) == "(") {
      int depth = 0;
      ++k;
      for (; k < last; ++k) {
        if (text(src, t[k]) == "(") ++depth;
        if (text(src, t[k]) == ")" && --depth == 0) break;
      }
      continue;
    }
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

// The alignment SPECS ask for (__align__(n), alignas(n), __attribute__((aligned(n)))), as an
// expression, or 0.
std::string alignment_of_specs(std::string_view src, const std::vector<Token>& t, std::size_t first, std::size_t last) {
  for (std::size_t k = first; k + 2 < last; ++k) {
    const std::string_view w = text(src, t[k]);
    const bool direct = w == "__align__" || w == "alignas";
    if (!direct && w != "aligned") continue;
    if (text(src, t[k + 1]) != "(") continue;
    int depth = 0;
    std::size_t close = k + 1;
    for (; close < last; ++close) {
      if (text(src, t[close]) == "(") ++depth;
      if (text(src, t[close]) == ")" && --depth == 0) break;
    }
    if (close >= last || close == k + 2) continue;
    return "(" + std::string(src.substr(t[k + 2].begin, t[close].begin - t[k + 2].begin)) + ")";
  }
  return "0";
}

}  // namespace

std::string rewrite_shared_declarations(std::string_view src) {
  const std::vector<Token> t = tokenize(src);
  std::string out;
  std::size_t copied = 0;  // source offset up to which `out` holds the input
  // Brace kinds: whether each open brace opens a namespace (or extern "C"/"C++") body.
  std::vector<bool> namespace_brace;
  const auto at_namespace_scope = [&] {
    for (bool n : namespace_brace)
      if (!n) return false;
    return true;
  };
  const auto replace = [&](std::size_t begin, std::size_t end, const std::string& with) {
    out.append(src.substr(copied, begin - copied));
    out += with;
    out += newlines_in(src.substr(begin, end - begin));
    copied = end;
  };

  for (std::size_t k = 0; k < t.size(); ++k) {
    const std::string_view w = text(src, t[k]);
    if (w == "{") {
      // namespace [name] {   extern "C" {   inline namespace x {
      bool is_namespace = false;
      std::size_t j = k;
      while (j > 0) {
        const std::string_view p = text(src, t[j - 1]);
        if (p == "namespace") {
          is_namespace = true;
          break;
        }
        if (t[j - 1].kind == Token::literal && j >= 2 && text(src, t[j - 2]) == "extern") {
          is_namespace = true;
          break;
        }
        if (t[j - 1].kind != Token::ident && p != "::") break;
        --j;
      }
      namespace_brace.push_back(is_namespace);
      continue;
    }
    if (w == "}") {
      if (!namespace_brace.empty()) namespace_brace.pop_back();
      continue;
    }
    if (w == "static" && k + 1 < t.size() && text(src, t[k + 1]) == "__shared__") {
      replace(t[k].begin, t[k + 1].begin, "");
      continue;
    }
    if (w == "__shared__" && (k == 0 || text(src, t[k - 1]) != "extern") && !at_namespace_scope()) {
      // __shared__ SPECS NAME DIMS ;   (one declarator, no initializer)
      std::size_t semi = k + 1;
      int depth = 0, angle = 0;
      bool several = false, initialized = false;
      std::size_t bracket = 0;  // the first '[' at depth 0, if any
      while (semi < t.size()) {
        const std::string_view p = text(src, t[semi]);
        if (p == "(" || p == "[") {
          if (p == "[" && depth == 0 && bracket == 0) bracket = semi;
          ++depth;
        }
        if (p == ")" || p == "]") --depth;
        if (depth == 0 && bracket == 0 && p == "<") ++angle;
        if (depth == 0 && bracket == 0 && p == ">" && angle > 0) --angle;
        if (p == "," && depth == 0 && angle == 0) several = true;
        if (p == "=" && depth == 0) initialized = true;
        if ((p == ";" || p == "{" || p == "}") && depth == 0) break;
        ++semi;
      }
      const std::size_t name = (bracket ? bracket : semi) - 1;
      if (semi >= t.size() || text(src, t[semi]) != ";" || several || initialized || name <= k + 1 ||
          t[name].kind != Token::ident)
        continue;
      const std::string type = type_of_specs(src, t, k + 1, name);
      const std::string dims(bracket ? src.substr(t[bracket].begin, t[semi].begin - t[bracket].begin)
                                     : std::string_view{});
      const std::string name_text(text(src, t[name]));
      replace(t[k].begin, t[semi].end,
              "auto& " + name_text + " = ::kverify::emu::static_shared<" + type + dims + ">(" +
                  alignment_of_specs(src, t, k + 1, name) + ", \"" + name_text + "\", [] {});");
      k = semi;
      continue;
    }
    if (w != "extern" || k + 1 >= t.size() || text(src, t[k + 1]) != "__shared__") continue;

    // extern __shared__ SPECS NAME [ ] DIMS ;
    std::size_t semi = k + 2;
    int depth = 0;
    bool several = false;
    while (semi < t.size()) {
      const std::string_view p = text(src, t[semi]);
      if (p == "(" || p == "[") ++depth;
      if (p == ")" || p == "]") --depth;
      if (p == "," && depth == 0) several = true;
      if ((p == ";" || p == "{" || p == "}") && depth == 0) break;
      ++semi;
    }
    if (semi >= t.size() || text(src, t[semi]) != ";" || several) continue;
    std::size_t bracket = k + 2;
    depth = 0;
    while (bracket < semi) {
      const std::string_view p = text(src, t[bracket]);
      if (p == "[" && depth == 0) break;
      if (p == "(") ++depth;
      if (p == ")") --depth;
      ++bracket;
    }
    if (bracket >= semi || bracket + 1 >= semi || text(src, t[bracket + 1]) != "]" ||
        t[bracket - 1].kind != Token::ident || bracket - 1 <= k + 1)
      continue;
    const std::size_t name = bracket - 1;
    const std::string_view specs = src.substr(t[k + 2].begin, t[name].begin - t[k + 2].begin);
    const std::string name_text(text(src, t[name]));
    const std::string dims(bracket + 2 < semi ? src.substr(t[bracket + 2].begin, t[semi].begin - t[bracket + 2].begin)
                                              : std::string_view{});
    std::string with;
    if (at_namespace_scope()) {
      with =
          "inline ::kverify::emu::ExternShared<" + type_of_specs(src, t, k + 2, name) + dims + "> " + name_text + ";";
    } else {
      with = std::string(specs) + "(*const " + name_text + ")" + dims + " = reinterpret_cast<decltype(" + name_text +
             ")>(::kverify::emu::dynamic_shared_memory());";
    }
    replace(t[k].begin, t[semi].end, with);
    k = semi;
  }
  out.append(src.substr(copied));
  return out;
}

}  // namespace kverify::emu
