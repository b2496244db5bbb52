// The suite proves its power: every mutant (kernels/<op>/mutants/) is killed by a named property of the
// catalogue, with a shrunk Case, on cuda where there is a GPU (on emu: cli:mutants_emu).
#include <gtest/gtest.h>

#include <cstdio>

#include "kernels/registry.hpp"
#include "mutation/self_test.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/tests/require_backend.hpp"

namespace {

void every_mutant_is_killed(kverify::Backend backend) {
  int mutants = 0;
  for (const auto& v : kverify::mutant_variants()) {
    if (kverify::killed_by_gpu_tools(v)) continue;      // left to compute-sanitizer, fault isolation, huge Cases
    if (kverify::not_on_backend(v, backend)) continue;  // planted in a variant that does not run there
    ++mutants;
    const auto kill = kverify::properties::kill_mutant(v, backend, 2026, 30);
    EXPECT_TRUE(kill.killed) << v.op << "/" << v.name << " (" << v.strategy << ") survived every property";
    std::printf("%-28s killed by %-40s after %4ld cases, %5.2f s\n", std::string(v.name).c_str(), kill.property.c_str(),
                kill.cases, kill.seconds);
    // The shrunk counterexample names its Case line.
    if (kill.killed) EXPECT_NE(kill.counterexample.find("op="), std::string::npos) << kill.counterexample;
  }
  EXPECT_GT(mutants, 0);
}

// On emu the same check is cli:mutants_emu (`kverify mutants --backend emu`, the same seed and
// budget, a process per mutant and the gpuv ones too): it is not run twice.

TEST(MutationSelfTest, EveryMutantIsKilledOnCuda) {
  KV_REQUIRE_BACKEND(kverify::Backend::cuda);
  every_mutant_is_killed(kverify::Backend::cuda);
}

}  // namespace
