// The engine of `kverify new` (tools/new_command.cpp): the files of tools/scaffold/ filled in and
// written into a new folder. The cli fuzz target stubs it (fuzz/cli_stubs.cpp): fuzzing the command
// line must not create folders.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kverify {

struct ScaffoldRequest {
  std::string dir, op, name, signature;
  std::string launcher;  // the launcher's C++ in that signature
  std::string limits;    // kverify_add_kernel arguments the scaffold kernel needs (" MAX_ROWS n")
  std::string strategy;
  // The files: name in the folder, template (@NAME@ in a name is filled in too).
  std::vector<std::pair<std::string, std::string_view>> files;
};

// Writes the request's files into <dir>; throws InputError when the folder has files or cannot be
// written. Returns the exit code.
int write_scaffold(const ScaffoldRequest& r);

}  // namespace kverify
