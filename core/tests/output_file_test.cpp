// The one writer of kverify's output files: whole files or nothing, only regular files replaced, a
// link written through (it stays a link), a FIFO or a folder refused untouched, two paths naming one
// file refused before anything is written.
#include "core/output_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kverify {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kverify-output-file-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void put(const std::string& p, const std::string& text) { std::ofstream(p) << text; }
  fs::path dir_;
};

TEST_F(OutputFileTest, ANewFileAndARegularFileAreWrittenWhole) {
  EXPECT_EQ(write_output_file(path("new.json"), "one"), std::nullopt);
  EXPECT_EQ(read(path("new.json")), "one");
  EXPECT_EQ(write_output_file(path("new.json"), "two"), std::nullopt);
  EXPECT_EQ(read(path("new.json")), "two");
  EXPECT_EQ(output_path_problem(path("new.json")), std::nullopt);
}

TEST_F(OutputFileTest, ALinkIsWrittenThroughAndStaysALink) {
  put(path("target.json"), "old");
  fs::create_symlink("target.json", path("link.json"));
  EXPECT_EQ(output_path_problem(path("link.json")), std::nullopt);
  EXPECT_EQ(write_output_file(path("link.json"), "new"), std::nullopt);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path("link.json"))));
  EXPECT_EQ(read(path("target.json")), "new");
  // A dangling link: its target is created.
  fs::create_symlink("later.json", path("dangling.json"));
  EXPECT_EQ(write_output_file(path("dangling.json"), "made"), std::nullopt);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path("dangling.json"))));
  EXPECT_EQ(read(path("later.json")), "made");
}

TEST_F(OutputFileTest, AFifoAFolderOrALinkToThemIsRefusedUntouched) {
  ASSERT_EQ(mkfifo(path("pipe").c_str(), 0600), 0);
  fs::create_directory(path("folder"));
  fs::create_symlink("pipe", path("to_pipe"));
  for (const std::string name : {"pipe", "folder", "to_pipe"}) {
    const auto before = output_path_problem(path(name));
    ASSERT_TRUE(before.has_value()) << name;
    EXPECT_NE(before->find("(accepted: a regular file, a link to one, or a new path"), std::string::npos) << *before;
    const auto error = write_output_file(path(name), "text");
    ASSERT_TRUE(error.has_value()) << name;
  }
  EXPECT_NE(output_path_problem(path("pipe"))->find("is a FIFO (named pipe)"), std::string::npos);
  EXPECT_NE(output_path_problem(path("folder"))->find("is a folder"), std::string::npos);
  EXPECT_NE(output_path_problem(path("to_pipe"))->find("(a link to "), std::string::npos);
  EXPECT_TRUE(fs::is_fifo(path("pipe")));
  EXPECT_TRUE(fs::is_directory(path("folder")));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path("to_pipe"))));
}

TEST_F(OutputFileTest, TwoPathsNamingOneFileAreRefusedBeforeAnythingIsWritten) {
  put(path("a.json"), "old");
  fs::create_symlink("a.json", path("b.json"));
  for (const auto& pair : {std::pair{path("a.json"), path("a.json")}, std::pair{path("a.json"), path("b.json")},
                           std::pair{path("a.json"), (dir_ / "." / "a.json").string()}}) {
    const auto problem = output_paths_problem({pair.first, pair.second});
    ASSERT_TRUE(problem.has_value()) << pair.second;
    EXPECT_NE(problem->find("name the same file"), std::string::npos) << *problem;
    OutputFiles files;
    files.add(pair.first, "first");
    files.add(pair.second, "second");
    EXPECT_TRUE(files.commit().has_value());
    EXPECT_EQ(read(path("a.json")), "old");
  }
}

TEST_F(OutputFileTest, OneFileThatCannotBeWrittenLeavesEveryOldFile) {
  put(path("report.json"), "old json");
  OutputFiles files;
  files.add(path("report.json"), "new json");
  files.add(path("missing/report.md"), "new md");
  const auto error = files.commit();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("missing/report.md"), std::string::npos) << *error;
  EXPECT_EQ(read(path("report.json")), "old json");
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".kverify-tmp-"), std::string::npos) << entry.path();
  const auto problem = output_path_problem(path("missing/report.md"));
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("does not exist"), std::string::npos) << *problem;
}

TEST_F(OutputFileTest, AFolderToWriteIntoIsCheckedWithoutBeingMade) {
  EXPECT_EQ(output_folder_problem(path("reports/h100")), std::nullopt);
  EXPECT_FALSE(fs::exists(path("reports"))) << "a check that creates folders leaves them behind a refusal";
  put(path("file"), "x");
  const auto problem = output_folder_problem(path("file/reports"));
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("is not a folder"), std::string::npos) << *problem;
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".kverify-probe"), std::string::npos) << entry.path();
}

TEST_F(OutputFileTest, ARetiredFileGoesOnlyWhenTheNewSetIsInAndOnlyIfRegular) {
  put(path("stale.svg"), "old sweep");
  put(path("target"), "kept");
  fs::create_symlink(path("target"), path("link.svg"));
  OutputFiles refused;  // a set that cannot be written retires nothing
  refused.add(dir_.string(), "a folder is refused");
  refused.retire(path("stale.svg"));
  EXPECT_TRUE(refused.commit().has_value());
  EXPECT_TRUE(fs::exists(path("stale.svg")));
  OutputFiles out;
  out.add(path("report.json"), "new");
  out.retire(path("stale.svg"));
  out.retire(path("link.svg"));
  out.retire(path("never-there.svg"));
  EXPECT_FALSE(out.commit().has_value());
  EXPECT_EQ(read(path("report.json")), "new");
  EXPECT_FALSE(fs::exists(path("stale.svg")));
  EXPECT_TRUE(fs::is_symlink(path("link.svg")));
  EXPECT_EQ(read(path("target")), "kept");
}

}  // namespace
}  // namespace kverify
