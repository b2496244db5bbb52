#include "mutation/self_test.hpp"

#include <chrono>
#include <map>

#include "properties/catalogue.hpp"
#include "properties/check_property.hpp"

namespace kverify::properties {

Kill kill_mutant(const Variant& mutant, Backend backend, std::uint64_t seed, int cases_per_property) {
  Kill kill;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& p : all_properties()) {
    if (p.op->name != mutant.op) continue;
    std::map<std::string, Context::Tally> tally;
    const Context ctx{backend, std::string(mutant.name), std::nullopt, &tally};
    const PropertyRun run = check_property(p, ctx, seed, cases_per_property);
    for (const auto& [name, t] : tally) kill.cases += t.cases;
    if (!run.passed) {
      kill.killed = true;
      kill.property = std::string(p.name);
      kill.counterexample = run.failure;
      break;
    }
  }
  kill.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return kill;
}

}  // namespace kverify::properties
