#include "properties/check_property.hpp"

#include <rapidcheck.h>

#include <sstream>

namespace kverify::properties {
namespace {

// RapidCheck's own reporting stays out: its global configuration prints "Using configuration:
// seed=<random>" and its default listener an RC_PARAMS hint at exit, neither of which reproduces
// anything here (the seed is kverify's, and so is the replay line). This listener hears nothing.
class Silent : public rc::detail::TestListener {
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// RC_FAIL's description starts with "<file>:<line>:\nRC_FAIL(<expression>)\n\n": kverify's source,
// not the user's problem. What follows is the Verdict.
std::string without_source_location(const std::string& description) {
  const auto colon = description.find(":\nRC_");
  if (colon == std::string::npos || description.find('\n') != colon + 1) return description;
  const auto body = description.find("\n\n", colon);
  return body == std::string::npos ? description : description.substr(body + 2);
}

}  // namespace

PropertyRun check_property(const Property& p, const Context& ctx, std::uint64_t seed, int cases) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  params.maxSize = 100;
  rc::detail::TestMetadata metadata;
  metadata.id = p.name;
  metadata.description = p.name;
  Silent silent;
  const auto result =
      rc::detail::checkProperty(rc::detail::toProperty([&p, ctx] { p.run(ctx); }), metadata, params, silent, {});
  PropertyRun out;
  if (result.template is<rc::detail::SuccessResult>()) {
    out.cases = result.template get<rc::detail::SuccessResult>().numSuccess;
    return out;
  }
  out.passed = false;
  if (result.template is<rc::detail::FailureResult>()) {
    const auto& failure = result.template get<rc::detail::FailureResult>();
    out.cases = failure.numSuccess + 1;
    out.failure = "falsified after " + std::to_string(out.cases) + " Case(s), shrunk to:\n" +
                  without_source_location(failure.description);
  } else {  // gave up: too many discarded Cases
    std::ostringstream text;
    rc::detail::printResultMessage(result, text);
    out.failure = text.str();
  }
  return out;
}

}  // namespace kverify::properties
