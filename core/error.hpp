// The one exception type for bad input: its message is a single line that says what was wrong
// and what is accepted. The CLI maps it to exit code 2.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace kverify {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A user's text as an error message shows it, in quotes: control characters as '?', and past 60
// characters its start and its length, so that a 100 KB token gives a one-line message.
inline std::string shown(std::string_view text) {
  constexpr std::size_t kMax = 60;
  std::string out = "'";
  for (char ch : text.substr(0, kMax)) out += static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? '?' : ch;
  return out + (text.size() > kMax ? "...' (" + std::to_string(text.size()) + " characters)" : "'");
}

}  // namespace kverify
