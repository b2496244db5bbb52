// The emu backend's build-time rewrite of CUDA's launch syntax.
//
// `kernel<<<grid, block, shmem, stream>>>(args...)` is CUDA, not C++: the host compiler that
// builds a kernel for emu rejects it. This rewrite turns every launch into
//
//     KVERIFY_EMU_LAUNCH((kernel), (grid, block, shmem, stream))(args...)
//
// (runtime/emu/model/launch_syntax.hpp defines the macro), on the source text, before preprocessing:
// a launch in a macro body is rewritten where the macro is defined, a launch written inside a
// macro's argument where it is written. Only the launch's own tokens change: the kernel
// expression and the configuration are copied as written, the argument list is left in place,
// and no line break is added or removed, so every line keeps its number. The file written for
// the compiler starts with `#line 1 "<original path>"`, so diagnostics, __FILE__ and
// std::source_location name the user's file and line.
//
// Why a token-level rewriter and not clang tooling (libclang): the rewrite has to answer two
// questions only, where the kernel expression before `<<<` starts and which `>>>` closes the
// configuration, and both are bracket matching over tokens. libclang would answer them from a
// full parse, which needs CUDA's language mode, a CUDA installation's headers and the user's
// complete compile flags to parse a .cu (the emu exists so that kernels run where that
// toolchain is not), would fail on a file whose includes do not resolve, and works after
// preprocessing, so rewriting a launch inside a macro body at its source location is exactly
// what it does badly. A lexer of C++'s tokens (comments, string, character and raw string
// literals, pp-numbers with digit separators, line splices, directives) is a few hundred lines,
// has no dependency, and runs in microseconds per file.
//
// Known limits (the compiler, not this tool, then reports the line): a kernel expression
// starting with a unary operator or a cast (`(*table)<<<` works, `*table<<<` does not), a
// configuration whose `<` comparisons and template arguments cannot be told apart even by
// trying both readings, a kernel chosen by `?:` inside the launch (`(c ? k1 : k2)<<<` works),
// and a launch at namespace scope (the expansion is a lambda with a
// capture-default, which C++ allows only in a block).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kverify::emu::launch_rewrite {

struct Diagnostic {
  int line = 0;
  int column = 0;
  std::string message;
};

struct Result {
  std::string text;  // the source with its launches rewritten, same line structure
  int launches = 0;
  // What looked like a launch but could not be read as one (left as written: if the code is
  // compiled, the compiler then stops at the same line).
  std::vector<Diagnostic> warnings;
  // The "..." of every #include "..." / #include_next "..." / #import "...", in order.
  std::vector<std::string> quote_includes;
};

// A UTF-8 byte order mark is dropped (it would stand after the lines emit() puts first).
Result rewrite(std::string_view source);

// The file written for the compiler: an #include of the launch macro's header when the file has a
// launch, then `#line 1 "<original_path>"` and the rewritten text.
std::string emit(const Result& result, std::string_view original_path,
                 std::string_view launch_header = "runtime/emu/model/launch_syntax.hpp");

}  // namespace kverify::emu::launch_rewrite
