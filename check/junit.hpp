// `kverify check --junit FILE`: the check's judged units as JUnit XML, the format CI systems read
// (GitLab, Jenkins, Buildkite, GitHub's test reporters). A <testsuite> per backend x op x variant,
// a <testcase> per boundary Case and per property, each failure carrying its Verdict and its
// reproduce line, each skip its reason. check/junit.xsd is the schema it is held to (tests).
#pragma once

#include <string>

#include "check/report.hpp"

namespace kverify {

std::string junit_xml(const CheckReport& report);

}  // namespace kverify
