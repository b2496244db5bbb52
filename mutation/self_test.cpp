#include "mutation/self_test.hpp"

#include <rapidcheck.h>

#include <chrono>
#include <map>
#include <sstream>

#include "properties/catalogue.hpp"

namespace kverify::properties {

Kill kill_mutant(const Variant& mutant, Backend backend, std::uint64_t seed, int cases_per_property) {
  Kill kill;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& p : all_properties()) {
    if (p.op->name != mutant.op) continue;
    std::map<std::string, Context::Tally> tally;
    const Context ctx{backend, std::string(mutant.name), std::nullopt, &tally};
    rc::detail::TestParams params;
    params.seed = seed;
    params.maxSuccess = cases_per_property;
    rc::detail::TestMetadata metadata;
    metadata.id = std::string(p.name);
    const auto result = rc::detail::checkProperty(rc::detail::toProperty([&p, ctx] { p.run(ctx); }), metadata, params);
    for (const auto& [name, t] : tally) kill.cases += t.cases;
    if (!result.template is<rc::detail::SuccessResult>()) {
      kill.killed = true;
      kill.property = std::string(p.name);
      std::ostringstream text;
      rc::detail::printResultMessage(result, text);
      kill.counterexample = text.str();
      break;
    }
  }
  kill.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return kill;
}

}  // namespace kverify::properties
