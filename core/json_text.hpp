// JSON string literals for kverify's hand-written JSON (check, report, bench, mutants, agree):
// one quoting function, so every writer escapes quotes, backslashes and control characters alike.
#pragma once

#include <string>
#include <string_view>

namespace kverify {

// `s` as a JSON string literal, quotes included.
std::string json_quote(std::string_view s);

}  // namespace kverify
