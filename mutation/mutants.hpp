// `kverify mutants`: the mutation self-test as a report. Every mutant (kernels/<op>/mutants/) against
// the property catalogue until a property kills it, a KernelBench-style check beside it, and a
// short fuzz of the mutant's op target pinned to it; Markdown and JSON into reports/<backend>/.
#pragma once

#include <cstdint>
#include <string>

#include "core/case.hpp"

namespace kverify {

struct MutantsOptions {
  Backend backend = Backend::emu;
  std::uint64_t seed = 2026;  // RapidCheck's
  int budget = 30;            // cases per property
  int fuzz_time = 10;         // seconds of short fuzz per mutant; 0: none
  std::string out_dir;        // "": reports/<backend>/
};
// Returns the exit code: 0 every mutant killed by the catalogue, 1 one survived, 3 not run here.
int run_mutants(const MutantsOptions& options);

}  // namespace kverify
