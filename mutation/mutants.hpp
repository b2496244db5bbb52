// `kverify mutants`: the mutation self-test as a report. Every mutant (kernels/<op>/mutants/), each in
// a process of its own (a device fault or a crash is that mutant's alone), against the property
// catalogue until a property kills it; on cuda then the GPU-side tools in turn until one kills it; a
// KernelBench-style check beside it, and a short fuzz of the mutant's op target pinned to it;
// Markdown and JSON into reports/<backend>/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"

namespace kverify {

// The GPU-side tools that kill what the catalogue cannot see, in the order they are tried on cuda
// after it: one column each in the report.
struct GpuTool {
  std::string_view name;
  std::string_view sees;
};
inline constexpr GpuTool kGpuTools[] = {
    {"memcheck", "out-of-bounds and misaligned device accesses (compute-sanitizer)"},
    {"racecheck", "shared-memory hazards between threads (compute-sanitizer)"},
    {"synccheck", "barriers not every thread of the block reaches (compute-sanitizer)"},
    {"initcheck", "reads of device memory no one wrote (compute-sanitizer)"},
    {"huge", "Cases past 2^31 elements and 4 GiB offsets: 32-bit offsets (kverify huge)"},
};

struct MutantsOptions {
  Backend backend = Backend::emu;
  std::uint64_t seed = 2026;      // RapidCheck's
  int budget = 30;                // cases per property
  int fuzz_time = 10;             // seconds of short fuzz per mutant; 0: none
  std::string out_dir;            // "": reports/<backend>/
  std::vector<std::string> only;  // "op/mutant" or "mutant": these (empty: every mutant)
  bool here = false;              // in this process (else a child process per mutant)
  bool gpu_tools = true;          // cuda: the kGpuTools on what the catalogue did not kill
  std::string gpus;               // "", "all" or N: the mutants' processes on N devices side by side
};
// Returns the exit code: 0 every mutant killed by the catalogue, 1 one survived, 3 not run here.
int run_mutants(const MutantsOptions& options);

}  // namespace kverify
