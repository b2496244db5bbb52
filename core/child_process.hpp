// The one way kverify runs another program (the fuzz binaries, its own child processes for fault
// isolation, git and nvidia-smi for a report's header): posix_spawn with the program's output
// captured line by line, an optional time limit, and how it ended.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace kverify {

struct ChildOptions {
  std::vector<std::string> env;  // KEY=VALUE, added to (or replacing in) this process's environment
  bool capture = true;           // stdout and stderr on one pipe, read into the result; else inherited
  bool echo = false;             // the captured output is also copied to our stderr as it comes
  double time_limit = 0;         // seconds; past it the child is killed (0: no limit)
  std::function<void(const std::string& line)> on_line;  // each captured line as it arrives
  std::ostream* log = nullptr;                           // a copy of the captured output
};

struct ChildResult {
  int exit_code = -1;  // -1: it did not exit (a signal)
  int signal = 0;
  bool timed_out = false;
  std::string output;  // the captured output
};

// Set in the environment of every process kverify starts, to the starting process's id: what lets
// kverify's internal options (check --child, mutants --here, report --shard) be given at all, and
// how a child knows its parent is gone. A person never needs it.
inline constexpr const char* kInternalChildMark = "KVERIFY_CHILD";

// argv[0] is looked up in PATH when it has no '/'. Throws std::runtime_error when it cannot start.
ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options = {});

// This program's own path (/proc/self/exe), for the children that run it again; "" when /proc
// cannot say.
std::string this_program();

// The fuzz_run built with this program: beside it (a project that uses kverify as a package builds
// both into one folder), in ../libexec/kverify/ (an installed kverify) or in ../fuzz/ (kverify's own
// tree: build/tools/kverify, build/fuzz/fuzz_run);
// the latter when neither exists, for the message that says it is not built. "fuzz_run" when
// /proc cannot say where this program is.
std::string fuzz_run_of_this_build();

// What a program prints (stdout and stderr), trailing blanks removed; "" when it cannot run or
// exits non-zero (git outside a checkout, no nvidia-smi).
std::string output_of(const std::vector<std::string>& argv);

}  // namespace kverify
