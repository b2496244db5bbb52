#include "check/junit.hpp"

#include <cstdio>
#include <ctime>
#include <map>
#include <vector>

#include "core/markup.hpp"

namespace kverify {
namespace {

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
  return buf;
}

// The line a CI reader shows beside the testcase: the Verdict's FAIL line where there is one (a
// property's message starts with how RapidCheck shrank it), else the first.
std::string headline(const std::string& s) {
  const auto fail = s.rfind("FAIL", 0) == 0 ? 0 : s.find("\nFAIL");
  const auto start = fail == std::string::npos ? 0 : fail == 0 ? 0 : fail + 1;
  return s.substr(start, s.find('\n', start) - start);
}

}  // namespace

std::string junit_xml(const CheckReport& report) {
  using Status = CheckReport::TestCase::Status;
  // Suites in the order their first testcase came (the order of the run), testcases in run order.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const CheckReport::TestCase*>> suites;
  for (const auto& t : report.testcases) {
    const std::string suite = t.variant.empty() ? t.backend : t.backend + " " + t.variant;
    if (!suites.count(suite)) order.push_back(suite);
    suites[suite].push_back(&t);
  }
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", std::gmtime(&now));

  long tests = 0, failures = 0, skipped = 0;
  double seconds = 0;
  std::string body;
  for (const auto& suite : order) {
    long s_failures = 0, s_skipped = 0;
    double s_seconds = 0;
    std::string cases;
    for (const CheckReport::TestCase* t : suites[suite]) {
      s_seconds += t->seconds;
      // classname kverify.<backend>.<op>.<variant>: the tree CI readers draw from the dots.
      std::string classname = "kverify." + t->backend + (t->variant.empty() ? "" : "." + t->variant);
      for (char& ch : classname)
        if (ch == '/') ch = '.';
      cases += "    <testcase name=\"" + markup_text(t->name) + "\" classname=\"" + markup_text(classname) +
               "\" time=\"" + seconds_text(t->seconds) + "\"";
      if (t->status == Status::failed) {
        ++s_failures;
        cases += ">\n      <failure message=\"" + markup_text(headline(t->message)) + "\" type=\"verdict\">" +
                 markup_text(t->message + "\nreproduce: " + t->replay) + "</failure>\n    </testcase>\n";
      } else if (t->status == Status::skipped) {
        ++s_skipped;
        cases += ">\n      <skipped message=\"" + markup_text(t->message) + "\"/>\n    </testcase>\n";
      } else if (!t->message.empty()) {  // a pass with an accuracy note: a FAIL under --strict
        cases += ">\n      <system-out>" + markup_text("accuracy note: " + t->message + "\nreplay: " + t->replay) +
                 "</system-out>\n    </testcase>\n";
      } else {
        cases += "/>\n";
      }
    }
    const long s_tests = static_cast<long>(suites[suite].size());
    body += "  <testsuite name=\"" + markup_text(suite) + "\" tests=\"" + std::to_string(s_tests) + "\" failures=\"" +
            std::to_string(s_failures) + "\" errors=\"0\" skipped=\"" + std::to_string(s_skipped) + "\" time=\"" +
            seconds_text(s_seconds) + "\" timestamp=\"" + stamp + "\">\n" + cases + "  </testsuite>\n";
    tests += s_tests;
    failures += s_failures;
    skipped += s_skipped;
    seconds += s_seconds;
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kverify check\" tests=\"" +
         std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\" skipped=\"" +
         std::to_string(skipped) + "\" time=\"" + seconds_text(report.seconds > 0 ? report.seconds : seconds) +
         "\">\n" + body + "</testsuites>\n";
}

}  // namespace kverify
