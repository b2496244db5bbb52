// The mutation self-test's engine: run the op's properties, in catalogue order, then the op's
// boundary Cases, against one mutant until one fails (kills it). `kverify mutants` reports from this.
#pragma once

#include <string>

#include "core/case.hpp"
#include "kernels/registry.hpp"

namespace kverify::properties {

struct Kill {
  bool killed = false;
  // The catalogue runs strictly; true when the Case that killed the mutant failed only by its
  // accuracy note (outside the derived bound, within the framework formula's): a PASS (accuracy
  // note) in a plain `check`.
  bool by_note = false;
  std::string property;        // the first property that failed, or "boundary Cases"
  std::string counterexample;  // RapidCheck's shrunk failure (the Verdict with its Case line)
  long cases = 0;              // cases run until the kill, over all properties tried
  double seconds = 0;
};

Kill kill_mutant(const Variant& mutant, Backend backend, std::uint64_t seed, int cases_per_property);

}  // namespace kverify::properties
