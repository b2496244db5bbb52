// The files `kverify new` writes (tools/scaffold/*.in, embedded at configure time by
// tools/CMakeLists.txt): @NAME@, @OP@, @SIGNATURE@, @LAUNCHER@, @LIMITS@, @STRATEGY@ and
// @KVERIFY_BUILD@ are filled in.
#pragma once

#include <string_view>

namespace kverify::cli::scaffold {

extern const std::string_view kCMakeLists, kReadme;
// The kernel of an op (tools/scaffold/<op>.cu.in); empty for an op without one.
std::string_view kernel_source(std::string_view op);

}  // namespace kverify::cli::scaffold
