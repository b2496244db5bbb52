// The files `kverify new` writes (tools/scaffold/*.in for a kernel folder, tools/scaffold/op/*.in
// for an op folder; embedded at configure time by tools/CMakeLists.txt): @NAME@, @OP@,
// @CI@, @SIGNATURE@, @LAUNCHER@, @LIMITS@, @STRATEGY@, @KVERIFY_BUILD@, @VARIANT@, @KVERIFY_GIT@,
// @KVERIFY_REF@ and @KVERIFY_VERSION@ are filled in.
#pragma once

#include <string_view>

namespace kverify::cli::scaffold {

extern const std::string_view kCMakeLists, kReadme;
// The CI job of either folder (.github/workflows/kverify.yml) and its README section (@CI@).
extern const std::string_view kWorkflow, kCiSection;
// An op folder: its CMakeLists.txt, the op's declaration, a kernel of it, its README.
extern const std::string_view kOp_CMakeLists_txt, kOp_op_cpp, kOp_kernel_cu, kOp_README_md;
// The kernel of an op (tools/scaffold/<op>.cu.in); empty for an op without one.
std::string_view kernel_source(std::string_view op);

}  // namespace kverify::cli::scaffold
