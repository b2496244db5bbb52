// kverify's environment variables (tools/environment.def): checked before a command runs, and
// printed by `kverify help environment`.
#pragma once

#include <string>
#include <vector>

namespace kverify::cli {

// One line per set variable whose value is outside its form: the variable, its value and what it takes.
std::vector<std::string> environment_problems();
// The table as `help environment` prints it, or as Markdown (docs/environment.md).
std::string environment_help(bool markdown);

}  // namespace kverify::cli
