// Force-included (-include) into the fuzz tree when the compiler is clang 14: libstdc++ 12's
// <source_location> needs __builtin_source_location, which clang has only from 15 on, and the emu
// runtime names call sites with std::source_location. This gives the same class from clang's
// __builtin_FILE/LINE/COLUMN/FUNCTION (which, as default arguments, name the caller's site, as
// std::source_location::current() does) and keeps libstdc++'s header from defining it again.
// cmake/KverifyFuzz.cmake adds it only when std::source_location does not compile.
#pragma once

#if defined(__clang__) && !__has_builtin(__builtin_source_location) && !defined(_GLIBCXX_SRCLOC)
#define _GLIBCXX_SRCLOC 1  // libstdc++'s include guard of <source_location>
#include <cstdint>

namespace std {  // NOLINT: a stand-in for the standard class, only for this compiler
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(),
                                           const char* function = __builtin_FUNCTION(),
                                           std::uint_least32_t line = __builtin_LINE(),
                                           std::uint_least32_t column = __builtin_COLUMN()) noexcept {
    source_location s;
    s.file_ = file;
    s.function_ = function;
    s.line_ = line;
    s.column_ = column;
    return s;
  }
  constexpr source_location() noexcept = default;
  constexpr std::uint_least32_t line() const noexcept { return line_; }
  constexpr std::uint_least32_t column() const noexcept { return column_; }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }

 private:
  const char* file_ = "";
  const char* function_ = "";
  std::uint_least32_t line_ = 0;
  std::uint_least32_t column_ = 0;
};
}  // namespace std
#endif
