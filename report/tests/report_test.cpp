// The tolerance report as a user gets it: the JSON of a quick emu sweep (written by the ctest
// fixture cli:report_quick_emu) parses and has every field docs/report-schema.md documents, and
// `kverify report --compare` exits non-zero and names the cell when a cell crossed its policy.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json load_report() {
  const std::string dir = env("KVERIFY_REPORT_DIR");
  EXPECT_FALSE(dir.empty()) << "KVERIFY_REPORT_DIR is not set (the ctest entry sets it)";
  std::ifstream in(dir + "/report.json");
  EXPECT_TRUE(in.good()) << dir << "/report.json is missing: did cli:report_quick_emu run?";
  return nlohmann::json::parse(in);  // throws (fails the test) on invalid JSON
}

// Runs the kverify binary, returns its exit status; its stdout and stderr go to *output.
int run_kverify(const std::string& args, std::string* output) {
  const std::string log = std::filesystem::temp_directory_path() / "kverify-report-test.log";
  const int status = std::system((env("KVERIFY_BIN") + " " + args + " >" + log + " 2>&1").c_str());
  *output = read(log);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Every key of an object, recursively, as "a.b" paths (array elements share their array's path).
void keys_of(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      out.insert(it.key());
      keys_of(it.value(), prefix + it.key() + ".", out);
    }
  } else if (j.is_array()) {
    for (const auto& e : j) keys_of(e, prefix, out);
  }
}

TEST(Report, QuickEmuJsonHasTheDocumentedFields) {
  const auto j = load_report();
  EXPECT_EQ(j.at("schema"), "kverify-report/1");
  EXPECT_EQ(j.at("backend"), "emu");
  for (const char* f : {"device", "driver", "commit", "date", "command"}) {
    ASSERT_TRUE(j.at(f).is_string()) << f;
    EXPECT_FALSE(j.at(f).get<std::string>().empty()) << f;
  }
  EXPECT_TRUE(j.at("quick").get<bool>());
  ASSERT_TRUE(j.at("cells").is_array());
  std::set<std::string> ops;
  for (const auto& c : j.at("cells")) {
    ops.insert(c.at("op").get<std::string>());
    for (const char* f : {"variant", "dtype", "shape", "policy"}) EXPECT_TRUE(c.at(f).is_string()) << f;
    EXPECT_GE(c.at("width").get<long long>(), 1);
    EXPECT_GE(c.at("elements").get<long long>(), 1);
    for (const char* m : {"abs", "rel", "ulp"})
      for (const char* s : {"max", "p99", "median"}) {
        const auto& v = c.at(m).at(s);
        EXPECT_TRUE(v.is_number() || v.is_null()) << m << "." << s;
        if (v.is_number()) EXPECT_LE(c.at(m).at("median").get<double>(), c.at(m).at("max").get<double>());
      }
    EXPECT_TRUE(c.at("margin").is_number() || c.at("margin").is_null());
    EXPECT_TRUE(c.at("pass").is_boolean());
    for (const char* f : {"kernel_units", "eager_units", "ratio", "share"})
      EXPECT_TRUE(c.at("baseline").contains(f)) << f;
    EXPECT_NE(c.at("worst").at("case").get<std::string>().find("op=" + c.at("op").get<std::string>()),
              std::string::npos);
    ASSERT_FALSE(c.at("cases").empty());
    for (const auto& k : c.at("cases"))
      for (const char* f : {"recipe", "pass", "max_ulp", "margin", "reason"}) EXPECT_TRUE(k.contains(f)) << f;
  }
  // Every op of this build: the first column of `kverify list`, below its header.
  std::string listing;
  ASSERT_EQ(run_kverify("list", &listing), 0) << listing;
  std::set<std::string> every_op;
  std::istringstream lines(listing);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line))
    if (const auto end = line.find(' '); end != 0 && end != std::string::npos) every_op.insert(line.substr(0, end));
  EXPECT_EQ(ops, every_op);

  // Every key the writer emits is documented (as `key`) in docs/report-schema.md.
  const std::string doc = read(env("KVERIFY_SCHEMA_DOC"));
  ASSERT_FALSE(doc.empty()) << "cannot read KVERIFY_SCHEMA_DOC";
  std::set<std::string> keys;
  keys_of(j, "", keys);
  for (const auto& k : keys) EXPECT_NE(doc.find("`" + k + "`"), std::string::npos) << "undocumented field " << k;
}

TEST(Report, CompareExitsNonZeroAndNamesACellThatCrossedItsPolicy) {
  auto j = load_report();
  const std::string dir = env("KVERIFY_REPORT_DIR");
  // B: the first passing cell now fails with a margin past its bound.
  std::string crossed;
  for (auto& c : j.at("cells")) {
    if (!c.at("pass").get<bool>()) continue;
    c["pass"] = false;
    c["margin"] = 1.5;
    crossed = c.at("op").get<std::string>() + "/" + c.at("variant").get<std::string>() + " " +
              c.at("dtype").get<std::string>() + " width " + std::to_string(c.at("width").get<long long>());
    break;
  }
  ASSERT_FALSE(crossed.empty()) << "no passing cell in the quick report";
  const std::string edited = dir + "/report-crossed.json";
  std::ofstream(edited) << j.dump(1);
  std::string out;
  EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + edited, &out), 1) << out;
  EXPECT_NE(out.find(crossed), std::string::npos) << out;
  EXPECT_NE(out.find("CROSSED POLICY"), std::string::npos) << out;
  // The same file against itself: nothing changed, exit 0.
  EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + dir + "/report.json", &out), 0) << out;
  EXPECT_NE(out.find("0 crossed the policy"), std::string::npos) << out;
  // A report read from a pipe (git show REV:report.json | ...) is as good as a file.
  EXPECT_EQ(run_kverify("report --compare /dev/stdin " + dir + "/report.json <" + dir + "/report.json", &out), 0)
      << out;
  EXPECT_NE(out.find("0 crossed the policy"), std::string::npos) << out;
}

TEST(Report, CompareRejectsBadAndMismatchedFiles) {
  const std::string dir = env("KVERIFY_REPORT_DIR");
  std::string out;
  std::ofstream(dir + "/not-json.json") << "{ \"schema\": ";
  EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + dir + "/not-json.json", &out), 2) << out;
  EXPECT_NE(out.find("is not valid JSON"), std::string::npos) << out;
  std::ofstream(dir + "/other.json") << R"({"schema": "kverify-check/1"})";
  EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + dir + "/other.json", &out), 2) << out;
  EXPECT_NE(out.find("is not a tolerance report"), std::string::npos) << out;
  EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + dir + "/missing.json", &out), 2) << out;
  EXPECT_NE(out.find("cannot read"), std::string::npos) << out;
  EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + dir, &out), 2) << out;
  EXPECT_NE(out.find("a folder"), std::string::npos) << out;
  auto j = load_report();
  j["cells"] = nlohmann::json::array();
  std::ofstream(dir + "/empty.json") << j.dump();
  EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + dir + "/empty.json", &out), 2) << out;
  EXPECT_NE(out.find("no cell in common"), std::string::npos) << out;
  auto k = load_report();
  k["cells"][0].erase("margin");
  std::ofstream(dir + "/no-margin.json") << k.dump();
  EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + dir + "/no-margin.json", &out), 2) << out;
  EXPECT_NE(out.find("lacks a field"), std::string::npos) << out;
  // A width past what a 64-bit integer holds (the report_json fuzz target's finding), or not whole.
  for (const char* width : {"33922337203854775807", "9223372036854775808", "1.5", "0", "-3"}) {
    auto w = load_report();
    w["cells"][0]["width"] = nlohmann::json::parse(width);
    std::ofstream(dir + "/bad-width.json") << w.dump();
    EXPECT_EQ(run_kverify("report --compare " + dir + "/report.json " + dir + "/bad-width.json", &out), 2)
        << width << ": " << out;
    EXPECT_NE(out.find("cell width"), std::string::npos) << width << ": " << out;
  }
}

}  // namespace
