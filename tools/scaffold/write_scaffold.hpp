// The engine of `kverify new` (tools/new_command.cpp): the files of tools/scaffold/ filled in and
// written into a new folder. The cli fuzz target stubs it (fuzz/cli_stubs.cpp): fuzzing the command
// line must not create folders.
#pragma once

#include <string>

namespace kverify {

struct ScaffoldRequest {
  std::string dir, op, name, signature;
  std::string launcher;  // the launcher's C++ in that signature
  std::string limits;    // kverify_add_kernel arguments the scaffold kernel needs (" MAX_ROWS n")
  std::string strategy;
  bool op_folder = false;  // `kverify new op <name>`: an op of the user's own and a kernel of it
};

// Writes <dir>/CMakeLists.txt, <dir>/<name>.cu, <dir>/README.md (an op folder: also
// <dir>/<name>_op.cpp) and <dir>/.github/workflows/kverify.yml (the CI job); throws InputError
// when the folder has files or cannot be written. Returns the exit code.
int write_scaffold(const ScaffoldRequest& r);

}  // namespace kverify
