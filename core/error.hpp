// The one exception type for bad input: its message is a single line that says what was wrong
// and what is accepted. The CLI maps it to exit code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace kverify {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kverify
