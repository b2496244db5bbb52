// The bench gate: the correctness checks of the Case pipeline (pipeline/run_case), run on exactly
// the Case that will be timed, before any timing. Complete on every Case: canaries around and
// between elements, NaN then random poison of the outputs (unwritten elements), input bytes hashed
// before and after, two runs compared bit for bit. The reference (float64/exact, reference/) is
// complete up to a budget of work and sampled by rows beyond it, because a host reference of
// e.g. matmul 8192^3 cannot be afforded: the sample always holds the first and last rows and the
// rows at the 2^31- and 2^32-byte offsets of every tensor, plus random rows; the Verdict says
// "sampled N of M rows". Host work is spread over threads. On the GPU the guards run on the device
// (gates_on_device) and only the sampled rows cross to the host.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/verdict.hpp"
#include "kernels/registry.hpp"

namespace kverify::bench {

struct GateOptions {
  unsigned threads = 1;                         // host threads for this Case
  std::uint64_t reference_budget = 1ull << 24;  // reference work (elements, or multiply-adds for matmul) done in full
  std::uint64_t sample_seed = 1;                // which random rows the sample adds
};

struct GateResult {
  Verdict verdict;
  std::string coverage;  // "reference on all 64 rows" or "reference on sampled 40 of 8388608 rows (...)"
  std::int64_t rows_checked = 0, rows_total = 0;
  double seconds = 0;
  // A passed gate: the hash of every tensor's image (canaries and elements; the device image's on
  // the device path, the GuardedImage's on the host path) after run 1, its outputs poisoned with
  // NaN before it. A deterministic kernel (run 2 gave the same bits) given the same images makes
  // the same hashes again: the bench checks every repetition against them. Empty when the gate
  // did not pass.
  std::vector<std::uint64_t> image_hashes;
};

// Whether the gate keeps this Case's tensors on the device (cuda, every layout dense; a far layout's
// sparse image takes the host path): inputs drawn there, guards and the run comparison checked
// there, only the sampled rows copied to the host (bench/device_image.hpp).
bool gates_on_device(const Case& c);

// `c` has its backend resolved and c.variant naming `v`.
GateResult gate_case(const Case& c, const Variant& v, const GateOptions& options);

// What a repetition did wrong when tensor t's image is not the gate's after the same call.
std::string not_the_gated_image(const Case& c, int t);
// The first tensor t whose image's hash(t) is not want[t], named by not_the_gated_image; empty: none.
std::string first_image_mismatch(const Case& c, const std::vector<std::uint64_t>& want,
                                 const std::function<std::uint64_t(std::size_t t)>& hash);

// The bench's repetitions without a GPU: `calls` calls of the kernel on the host path's images
// (emu), each from outputs poisoned as the gate's run 1 began, each checked against the gate's
// image hashes. As on the GPU, the first call has the gate's inputs and every later one fresh
// inputs (bench/row_rotation.hpp) where the op allows. Returns the first problem ("call 7 of 58:
// ..."), or empty; `checked` counts the calls that matched; `fresh` says whether inputs rotated.
std::string check_repetitions_on_host(const Case& c, const Variant& v, const std::vector<std::uint64_t>& hashes,
                                      int calls, unsigned threads, int& checked, bool& fresh);

// The output rows whose reference is checked (sorted, unique), and how they were chosen.
std::vector<std::int64_t> reference_rows(const Case& c, const GateOptions& options, std::string* how);

}  // namespace kverify::bench
