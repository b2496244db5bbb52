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

// Untrusted text as a terminal may show it: control characters (escape sequences among them) as
// '?', and past `most` characters its start and then its length, so that a 100 KB field gives one
// short line.
inline std::string printable(std::string_view text, std::size_t most) {
  std::string out;
  for (char ch : text.substr(0, most)) out += static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? '?' : ch;
  return text.size() > most ? out + "... (" + std::to_string(text.size()) + " characters)" : out;
}

// A user's text as an error message shows it: printable, in quotes, at most 60 characters.
inline std::string shown(std::string_view text) { return "'" + printable(text, 60) + "'"; }

}  // namespace kverify
