// End to end: launch_e2e/launcher.cu, a CUDA source with <<<>>> launches, compiled for emu
// through kverify_emu_rewrite (runtime/emu/CMakeLists.txt) and run.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "runtime/emu/model/scheduler.hpp"
#include "runtime/emu/tests/launch_e2e/launcher.hpp"

namespace {

TEST(EmuLaunchEndToEnd, TemplateKernelsWithExplicitArguments) {
  const std::vector<float> out = launch_e2e::fill_with_templates(8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 2.0f) << i;   // fill<float, 4>: 0.5 * 4
  for (int i = 8; i < 16; ++i) EXPECT_EQ(out[i], 6.0f) << i;  // (fill<float, 2>): 3 * 2
}

TEST(EmuLaunchEndToEnd, QualifiedKernelWithDim3ExpressionSharedBytesAndStream) {
  const std::vector<float> x = launch_e2e::add_one_dim3(300);  // two blocks of 256
  for (int i = 0; i < 300; ++i) EXPECT_EQ(x[i], 2.0f) << i;
}

TEST(EmuLaunchEndToEnd, TemplateArgumentsDeducedFromTheCall) {
  for (float v : launch_e2e::scale_deduced(16)) EXPECT_EQ(v, 6.0f);
}

TEST(EmuLaunchEndToEnd, LaunchesInAMacroBodyAndInAMacroArgument) {
  const std::vector<int> out = launch_e2e::launched_from_macros(4);
  const std::vector<int> want{7, 7, 7, 7, 40, 40, 40, 40};
  EXPECT_EQ(out, want);
}

TEST(EmuLaunchEndToEnd, DefaultArgumentsAndTheStreamWrittenAsZero) {
  const std::vector<int> want{6, 6, 6, 11, 11, 11};
  EXPECT_EQ(launch_e2e::default_arguments_and_stream_zero(3), want);
}

TEST(EmuLaunchEndToEnd, LaunchersInIncludedHeaders) {
  const std::vector<int> out = launch_e2e::launched_from_headers(5);
  const std::vector<int> want{100, 101, 102, 103, 104};
  EXPECT_EQ(out, want);
}

TEST(EmuLaunchEndToEnd, DynamicSharedBytesFromASizeofExpression) {
  EXPECT_EQ(launch_e2e::sum_with_dynamic_shared(64), 64.0f * 65.0f / 2.0f);
}

// The line of `marker` in the original launcher.cu (the rewritten copy must report the same).
int original_line(const std::string& marker) {
  std::ifstream in(launch_e2e::file_name());
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(marker) != std::string::npos) return n;
  return -1;
}

TEST(EmuLaunchEndToEnd, FileNamesAndLinesAreTheOriginals) {
  const std::string file = launch_e2e::file_name();
  EXPECT_NE(file.find("/runtime/emu/tests/launch_e2e/launcher.cu"), std::string::npos) << file;
  EXPECT_EQ(file.find("kverify_emu_rewrite"), std::string::npos) << "names the rewritten copy: " << file;
  const int line = original_line("// TRAP-LINE");
  ASSERT_GT(line, 0);
  try {
    launch_e2e::trap_in_kernel();
    FAIL() << "the kernel's __trap() did not stop the launch";
  } catch (const kverify::emu::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("launcher.cu:" + std::to_string(line)), std::string::npos) << e.what();
  }
}

TEST(EmuLaunchEndToEnd, AHeaderNamedOnItsOwnGetsItsRewrittenCopy) {
  std::ifstream in(KV_E2E_HEADER_COPY);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("#line 1 \""), std::string::npos) << KV_E2E_HEADER_COPY;
  EXPECT_NE(text.find("KVERIFY_EMU_LAUNCH((iota_kernel), (1, n))(out);"), std::string::npos) << text;
}

}  // namespace
