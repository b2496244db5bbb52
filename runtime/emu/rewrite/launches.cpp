#include "runtime/emu/rewrite/launches.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace kverify::emu::launch_rewrite {

namespace {

enum class Kind { identifier, number, string, character, punct, header_name, other };

struct Token {
  Kind kind;
  std::size_t begin, end;  // byte offsets into the source
  int line;
  int directive;   // 0 outside a preprocessor directive; else which directive (1, 2, ...)
  bool is_define;  // inside a #define
};

bool ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool ident_char(unsigned char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(unsigned char c) { return c >= '0' && c <= '9'; }

// Splits the source into tokens. Whitespace, comments and line splices are skipped (they stay
// in the text between tokens, which the rewrite copies as it is).
class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (i_ < s_.size()) {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '\n') {
        ++line_;
        ++i_;
        directive_ = 0;
        is_define_ = false;
        line_start_ = true;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
        ++i_;
        continue;
      }
      if (c == '\\' && splice_at(i_)) {
        skip_splice();
        continue;
      }
      if (c == '/' && peek(1) == '/') {
        skip_line_comment();
        continue;
      }
      if (c == '/' && peek(1) == '*') {
        skip_block_comment();
        continue;
      }
      const bool first_on_line = line_start_;
      line_start_ = false;
      const std::size_t begin = i_;
      const int line = line_;
      Kind kind = lex_token(c);
      if (first_on_line && directive_ == 0 && kind == Kind::punct && s_.substr(begin, i_ - begin) == "#") {
        directive_ = ++directive_count_;
        after_hash_ = true;
        out.push_back({kind, begin, i_, line, directive_, false});
        continue;
      }
      if (after_hash_) {
        after_hash_ = false;
        const std::string_view name = s_.substr(begin, i_ - begin);
        if (kind == Kind::identifier && name == "define") is_define_ = true;
        if (kind == Kind::identifier && (name == "include" || name == "include_next" || name == "import"))
          header_name_next_ = true;
        out.push_back({kind, begin, i_, line, directive_, is_define_});
        continue;
      }
      out.push_back({kind, begin, i_, line, directive_, is_define_});
    }
    return out;
  }

 private:
  char peek(std::size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }

  // A backslash followed by a newline (CRLF too) joins two physical lines.
  bool splice_at(std::size_t at) const {
    if (at >= s_.size() || s_[at] != '\\') return false;
    std::size_t k = at + 1;
    if (k < s_.size() && s_[k] == '\r') ++k;
    return k < s_.size() && s_[k] == '\n';
  }
  void skip_splice() {
    i_ += (s_[i_ + 1] == '\r') ? 3 : 2;
    ++line_;
  }

  void skip_line_comment() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (splice_at(i_)) {
        skip_splice();  // a spliced line comment goes on on the next line
        continue;
      }
      ++i_;
    }
  }

  void skip_block_comment() {
    i_ += 2;
    while (i_ < s_.size() && !(s_[i_] == '*' && peek(1) == '/')) {
      if (s_[i_] == '\n') ++line_;  // a comment inside a directive does not end it
      ++i_;
    }
    i_ = std::min(s_.size(), i_ + 2);
  }

  // A quoted literal from i_ (at the opening quote). An unterminated one ends at the line's end:
  // an apostrophe in #error text or inside #if 0 must not swallow the rest of the file.
  void skip_quoted(char quote) {
    ++i_;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\\') {
        if (splice_at(i_)) {
          skip_splice();
          continue;
        }
        i_ += 2;
        continue;
      }
      if (c == '\n') return;
      ++i_;
      if (c == quote) return;
    }
    i_ = std::min(i_, s_.size());
  }

  // R"delim( ... )delim" from i_ (at the quote). Returns false (nothing consumed) if the
  // delimiter is not a valid one, then the caller lexes an ordinary string.
  bool skip_raw_string() {
    std::size_t k = i_ + 1;
    std::string delim;
    while (k < s_.size() && s_[k] != '(') {
      const char c = s_[k];
      if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n' || c == '"' || delim.size() >= 16) return false;
      delim += c;
      ++k;
    }
    if (k >= s_.size()) return false;
    const std::string close = ")" + delim + "\"";
    const std::size_t end = s_.find(close, k + 1);
    const std::size_t stop = end == std::string_view::npos ? s_.size() : end + close.size();
    for (std::size_t j = i_; j < stop; ++j)
      if (s_[j] == '\n') ++line_;
    i_ = stop;
    return true;
  }

  Kind lex_token(unsigned char c) {
    if (header_name_next_) {
      header_name_next_ = false;
      if (c == '<') {  // <...> after #include: a header name, whatever characters it holds
        while (i_ < s_.size() && s_[i_] != '>' && s_[i_] != '\n') ++i_;
        if (i_ < s_.size() && s_[i_] == '>') ++i_;
        return Kind::header_name;
      }
    }
    if (ident_start(c)) {
      const std::size_t begin = i_;
      while (i_ < s_.size() && ident_char(static_cast<unsigned char>(s_[i_]))) ++i_;
      const std::string_view word = s_.substr(begin, i_ - begin);
      if (i_ < s_.size() && s_[i_] == '"') {
        if (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR") {
          if (skip_raw_string()) return Kind::string;
          skip_quoted('"');
          return Kind::string;
        }
        if (word == "u8" || word == "u" || word == "U" || word == "L") {
          skip_quoted('"');
          return Kind::string;
        }
      }
      if (i_ < s_.size() && s_[i_] == '\'' && (word == "u8" || word == "u" || word == "U" || word == "L")) {
        skip_quoted('\'');
        return Kind::character;
      }
      return Kind::identifier;
    }
    if (digit(c) || (c == '.' && digit(static_cast<unsigned char>(peek(1))))) {
      // pp-number: digits, letters, '.', digit separators, and signs after an exponent letter.
      ++i_;
      while (i_ < s_.size()) {
        const unsigned char d = static_cast<unsigned char>(s_[i_]);
        const unsigned char prev = static_cast<unsigned char>(s_[i_ - 1]);
        if ((d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P')) {
          ++i_;
        } else if (d == '\'' && i_ + 1 < s_.size() && ident_char(static_cast<unsigned char>(s_[i_ + 1]))) {
          i_ += 2;
        } else if (ident_char(d) || d == '.') {
          ++i_;
        } else {
          break;
        }
      }
      return Kind::number;
    }
    if (c == '"') {
      skip_quoted('"');
      return Kind::string;
    }
    if (c == '\'') {
      skip_quoted('\'');
      return Kind::character;
    }
    // Punctuators. `<` and `>` stay single characters (`<<<` and `>>>` are three of them, and a
    // template's closing `>>` is two closers); the multi-character tokens that hold `<`, `>` but
    // are no bracket are kept whole so that they are never mistaken for one.
    static constexpr std::string_view kLong[] = {"<=>", "<<=", ">>=", "->", "<=", ">=", "::", "##", "..."};
    for (std::string_view p : kLong) {
      if (s_.substr(i_, p.size()) == p) {
        i_ += p.size();
        return Kind::punct;
      }
    }
    ++i_;
    return Kind::punct;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  int line_ = 1;
  int directive_ = 0;
  int directive_count_ = 0;
  bool is_define_ = false;
  bool line_start_ = true;
  bool after_hash_ = false;
  bool header_name_next_ = false;
};

bool is_keyword(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "return",   "else",      "do",       "case",   "default",   "throw",         "co_return", "co_yield",
      "co_await", "new",       "delete",   "sizeof", "alignof",   "decltype",      "typeid",    "if",
      "while",    "for",       "switch",   "goto",   "const",     "volatile",      "static",    "extern",
      "inline",   "constexpr", "auto",     "void",   "int",       "unsigned",      "signed",    "char",
      "bool",     "float",     "double",   "long",   "short",     "struct",        "class",     "union",
      "enum",     "typename",  "template", "using",  "namespace", "public",        "private",   "protected",
      "operator", "and",       "or",       "not",    "xor",       "bitand",        "bitor",     "compl",
      "and_eq",   "or_eq",     "xor_eq",   "not_eq", "noexcept",  "static_assert", "requires",  "concept"};
  for (std::string_view k : kWords)
    if (w == k) return true;
  return false;
}

class Rewriter {
 public:
  explicit Rewriter(std::string_view s) : s_(s), toks_(Lexer(s).run()) {}

  Result run() {
    Result r;
    collect_includes(r);
    std::size_t copied = 0;  // source bytes already in r.text
    for (std::size_t i = 0; i + 2 < toks_.size(); ++i) {
      if (!opens_launch(i)) continue;
      const Token& lt = toks_[i];
      const auto where = [&](const std::string& what) { r.warnings.push_back({lt.line, column(lt.begin), what}); };
      if (i == 0 || !same_context(i - 1, i)) {
        where("'<<<' with no kernel expression before it; left as written");
        i += 2;
        continue;
      }
      const std::optional<std::size_t> start = expression_start(i - 1);
      if (!start || toks_[*start].begin < copied) {
        where("cannot tell where the kernel expression before '<<<' starts; left as written");
        i += 2;
        continue;
      }
      std::optional<std::size_t> close = config_end(i + 3, true);
      if (!close) close = config_end(i + 3, false);
      if (!close) {
        where("no '>>>' closes this launch configuration; left as written");
        i += 2;
        continue;
      }
      const std::size_t after = *close + 3;
      if (after >= toks_.size() || !same_context(after, i) || text(after) != "(") {
        where("'>>>' is not followed by the kernel's argument list '('; left as written");
        i = *close + 2;
        continue;
      }
      const std::size_t e_begin = toks_[*start].begin;
      r.text.append(s_.substr(copied, e_begin - copied));
      r.text += "KVERIFY_EMU_LAUNCH((";
      r.text.append(s_.substr(e_begin, lt.begin - e_begin));
      r.text += "), (";
      const std::size_t c_begin = toks_[i + 2].end, c_end = toks_[*close].begin;
      r.text.append(s_.substr(c_begin, c_end - c_begin));
      r.text += "))";
      copied = toks_[*close + 2].end;
      ++r.launches;
      i = *close + 2;
    }
    r.text.append(s_.substr(copied));
    return r;
  }

 private:
  std::string_view text(std::size_t t) const { return s_.substr(toks_[t].begin, toks_[t].end - toks_[t].begin); }
  bool is(std::size_t t, std::string_view p) const { return toks_[t].kind == Kind::punct && text(t) == p; }
  bool adjacent(std::size_t a) const { return toks_[a].end == toks_[a + 1].begin; }
  bool same_context(std::size_t a, std::size_t b) const { return toks_[a].directive == toks_[b].directive; }
  bool is_name(std::size_t t) const { return toks_[t].kind == Kind::identifier && !is_keyword(text(t)); }

  int column(std::size_t offset) const {
    const std::size_t nl = s_.rfind('\n', offset == 0 ? 0 : offset - 1);
    return static_cast<int>(offset - (nl == std::string_view::npos || offset == 0 ? 0 : nl + 1)) + 1;
  }

  // Three adjacent '<' in code or in a #define body, not `operator<< <T>`.
  bool opens_launch(std::size_t i) const {
    if (!is(i, "<") || !is(i + 1, "<") || !is(i + 2, "<") || !adjacent(i) || !adjacent(i + 1)) return false;
    if (toks_[i].directive != 0 && !toks_[i].is_define) return false;
    if (i > 0 && toks_[i - 1].kind == Kind::identifier && text(i - 1) == "operator") return false;
    return true;
  }

  bool three_closers(std::size_t q) const {
    return q + 2 < toks_.size() && is(q, ">") && is(q + 1, ">") && is(q + 2, ">") && adjacent(q) && adjacent(q + 1) &&
           same_context(q, q + 2);
  }

  // The matching opener of the ')' or ']' at `close`, skipping nested groups.
  std::optional<std::size_t> open_of(std::size_t close) const {
    std::vector<char> want{text(close) == ")" ? '(' : '['};
    for (std::size_t q = close; q-- > 0;) {
      if (!same_context(q, close)) return std::nullopt;
      if (toks_[q].kind != Kind::punct) continue;
      const std::string_view p = text(q);
      if (p == ")" || p == "]" || p == "}") {
        want.push_back(p == ")" ? '(' : p == "]" ? '[' : '{');
      } else if (p == "(" || p == "[" || p == "{") {
        if (p[0] != want.back()) return std::nullopt;
        want.pop_back();
        if (want.empty()) return q;
      } else if (p == ";" && want.size() == 1) {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  // The '<' that opens the template argument list whose last '>' is at `close`.
  std::optional<std::size_t> angle_open_of(std::size_t close) const {
    int depth = 1;
    for (std::size_t q = close; q-- > 0;) {
      if (!same_context(q, close)) return std::nullopt;
      if (is(q, ")") || is(q, "]")) {
        const auto open = open_of(q);
        if (!open) return std::nullopt;
        q = *open;
        continue;
      }
      if (is(q, ">")) ++depth;
      if (is(q, "<") && --depth == 0) return q;
      if (is(q, ";") || is(q, "{") || is(q, "}") || is(q, "(") || is(q, "[")) return std::nullopt;
    }
    return std::nullopt;
  }

  // The first token of the postfix expression that ends at `last`: a (qualified) name, with
  // template arguments, member access, calls, subscripts and parentheses, and `##` pasting in a
  // macro body.
  std::optional<std::size_t> expression_start(std::size_t last) const {
    std::size_t p = last;
    const auto before_ok = [&](std::size_t q) { return q > 0 && same_context(q - 1, q); };
    for (;;) {
      if (is(p, ")") || is(p, "]")) {
        const auto open = open_of(p);
        if (!open) return std::nullopt;
        // A group right after an operand calls or subscripts it (`pick(k)<<<`, `table[i]<<<`);
        // after anything else it is the operand (`(k<T, 4>)<<<`, `if (c) (k)<<<`).
        if (before_ok(*open)) {
          const std::size_t b = *open - 1;
          if (is_name(b) || is(b, ">") || is(b, "]") || (is(p, "]") && is(b, ")"))) {
            p = b;
            continue;
          }
        }
        return *open;
      }
      if (is(p, ">")) {
        const auto open = angle_open_of(p);
        if (!open || !before_ok(*open) || !is_name(*open - 1)) return std::nullopt;
        p = *open - 1;
        continue;
      }
      if (toks_[p].kind == Kind::identifier && (is_name(p) || text(p) == "this")) {
        if (!before_ok(p)) return p;
        std::size_t b = p - 1;
        if (toks_[b].kind == Kind::identifier && text(b) == "template" && before_ok(b) &&
            (is(b - 1, "::") || is(b - 1, ".") || is(b - 1, "->")))
          --b;  // ns::template k<T>, obj.template k<T>
        if (is(b, "::")) {
          if (before_ok(b) && (is_name(b - 1) || is(b - 1, ">"))) {
            p = b - 1;
            continue;
          }
          return b;  // ::k, the global namespace
        }
        if ((is(b, ".") || is(b, "->") || is(b, "##")) && before_ok(b)) {
          p = b - 1;
          continue;
        }
        return p;
      }
      return std::nullopt;
    }
  }

  // The index of the first '>' of the '>>>' that closes the configuration starting at `from`.
  // With `templates`, a '<' right after a name opens a template argument list and a '>' closes
  // the innermost open one (`X<Y<Z<int>>>::value` in a configuration); without, every '<' and
  // '>' outside brackets is an operator (`n < 256 ? 1 : 2`), and the caller tries this reading
  // when the first one finds no end.
  std::optional<std::size_t> config_end(std::size_t from, bool templates) const {
    std::vector<char> open;
    for (std::size_t q = from; q < toks_.size(); ++q) {
      if (!same_context(q, from - 1)) return std::nullopt;
      if (toks_[q].kind != Kind::punct) continue;
      const std::string_view p = text(q);
      if (p == "(" || p == "[" || p == "{") {
        open.push_back(p[0]);
      } else if (p == ")" || p == "]" || p == "}") {
        const char want = p == ")" ? '(' : p == "]" ? '[' : '{';
        while (!open.empty() && open.back() == '<') open.pop_back();  // those '<' were comparisons
        if (open.empty() || open.back() != want) return std::nullopt;
        open.pop_back();
      } else if (p == ";") {
        bool in_braces = false;
        for (char c : open) in_braces = in_braces || c == '{';
        if (!in_braces) return std::nullopt;
      } else if (p == "<") {
        if (templates && q > from &&
            (is_name(q - 1) || (toks_[q - 1].kind == Kind::identifier && text(q - 1) == "template")))
          open.push_back('<');
      } else if (p == ">") {
        if (!open.empty() && open.back() == '<') {
          open.pop_back();
        } else if (open.empty() && three_closers(q)) {
          return q;
        }
      }
    }
    return std::nullopt;
  }

  void collect_includes(Result& r) const {
    for (std::size_t i = 0; i + 2 < toks_.size(); ++i) {
      if (toks_[i].directive == 0 || !is(i, "#") || !same_context(i, i + 2)) continue;
      const std::string_view name = text(i + 1);
      if (name != "include" && name != "include_next" && name != "import") continue;
      if (toks_[i + 2].kind != Kind::string) continue;
      const std::string_view lit = text(i + 2);
      if (lit.size() >= 2 && lit.front() == '"' && lit.back() == '"')
        r.quote_includes.emplace_back(lit.substr(1, lit.size() - 2));
    }
  }

  std::string_view s_;
  std::vector<Token> toks_;
};

}  // namespace

Result rewrite(std::string_view source) {
  if (source.substr(0, 3) == "\xEF\xBB\xBF") source.remove_prefix(3);
  return Rewriter(source).run();
}

std::string emit(const Result& result, std::string_view original_path, std::string_view launch_header) {
  const auto quoted = [](std::string_view path) {
    std::string q = "\"";
    for (char c : path) {
      if (c == '\\' || c == '"') q += '\\';
      q += c;
    }
    return q + "\"";
  };
  std::string out;
  if (result.launches > 0) out += "#include " + quoted(launch_header) + "\n";
  out += "#line 1 " + quoted(original_path) + "\n";
  out += result.text;
  return out;
}

}  // namespace kverify::emu::launch_rewrite
