#include "mutation/self_test.hpp"

#include <chrono>
#include <map>

#include "pipeline/run_case.hpp"
#include "properties/catalogue.hpp"
#include "properties/check_property.hpp"

namespace kverify::properties {

Kill kill_mutant(const Variant& mutant, Backend backend, std::uint64_t seed, int cases_per_property) {
  Kill kill;
  // Judged strictly: an accuracy note is the catalogue seeing the bug, and the kill says when that
  // was all it saw (Kill::by_note). Restored after: the process may judge other things.
  const bool was_strict = strict_verdicts();
  set_strict_verdicts(true);
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
  // Then the boundary Cases `kverify check` runs before its properties: the costly ones (65537 rows)
  // are there, not in the drawn Cases, so a grid capped at 65535 blocks is killed here.
  if (!kill.killed)
    for (const auto& line : boundary_case_lines(*find_op(mutant.op))) {
      Case c = parse_case(line);
      c.run_on(backend);
      c.variant = std::string(mutant.name);
      if (!mutant.supports(c.dtype) || unsupported(mutant, c, backend)) continue;
      ++kill.cases;
      std::string failure;
      try {
        const Verdict v = run_case(c);
        if (v.outcome != Outcome::pass) failure = format(v);
      } catch (const std::exception& e) {  // a Case that cannot be checked did not pass
        failure =
            std::string("could not be checked: ") + e.what() + "\n  reproduce: ./kverify run '" + c.to_text() + "'";
      }
      if (!failure.empty()) {
        kill.killed = true;
        kill.property = "boundary Cases";
        kill.counterexample = failure;
        break;
      }
    }
  set_strict_verdicts(was_strict);
  kill.by_note = kill.killed && kill.counterexample.find(kStrictNoteReason) != std::string::npos;
  if (kill.by_note) kill.property += " (accuracy note)";
  kill.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return kill;
}

}  // namespace kverify::properties
