// The Case pipeline, one straight line:
//   Case -> resolve (backend, variant) -> materialise inputs in the storage dtype
//        -> run twice on the backend over guarded images (NaN poison, then random poison)
//        -> guards (canaries, input bytes, unwritten elements, run-to-run bits)
//        -> reference on the very same stored inputs -> compare under the op's tolerance
//        -> Verdict
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/verdict.hpp"
#include "pipeline/guarded_image.hpp"  // GuardedImage, Poison

namespace kverify {

// Bad input (unknown variant, a variant that cannot take this Case) throws InputError; a failing
// kernel is a failing Verdict; a backend that cannot run here is a skipped Verdict with the reason.
// `elements`, when given, receives every compared output element's errors (reference/compare.hpp).
struct ElementError;
Verdict run_case(const Case& c, std::vector<ElementError>* elements = nullptr);

// The same line for a Case whose backend is resolved (not auto), with the variant given directly
// (tests use it for deliberately broken variants that are not in the registry).
struct Variant;
Verdict run_case_with(const Case& resolved, const Variant& variant, std::vector<ElementError>* elements = nullptr);

// The line's steps, also for callers that check a Case their own way (the bench's gate takes the
// reference on sampled rows of huge Cases). `threads` > 1 spreads the element work over host
// threads; the results, Verdict entries included, are the same for any count.
//
// The Case's tensors as guarded host images: inputs filled from the value recipe (rounded once to
// the storage dtype), outputs left as canary bytes until a run poisons them.
std::vector<GuardedImage> materialize(const Case& c, unsigned threads = 1);
// One run: poison the outputs, launch, check canaries and input bytes. False when the launch itself
// failed (the Verdict already says why).
bool guarded_run(const Case& c, const Variant& v, std::vector<GuardedImage>& images, Poison poison, Verdict& verdict,
                 unsigned threads = 1);
// The seed of the second run's random poison (Poison::random_finite).
inline constexpr std::uint64_t kRandomPoisonSeed = 0x5eed;
// A run's guard violations of one tensor as the Verdict lists them: the damaged canaries (described
// by GuardedImage::damaged_canaries, `damaged_total` in all) and a write into an input.
void report_guards(const std::string& run_name, const std::string& tensor, const std::vector<std::string>& damaged,
                   std::size_t damaged_total, bool input_modified, Verdict& verdict);
// The Case of the second guarded run: on emu another schedule seed (other block and thread orders,
// runtime/emu/model/scheduler.hpp), so a result that depends on the order in which blocks or threads
// run (float atomics across blocks, a "last block combines" without a fence) differs between the
// two runs; elsewhere the Case itself (the GPU chooses its own orders).
Case second_run_of(const Case& c);
// Whether a Case is run once, not twice: on emu, a Case with more than 65535 rows and floating-point
// outputs (the grid-limit
// boundary Cases: 65537 blocks or more, each of a few emulated threads, the largest single cost of a
// check on emu). Its one run poisons with the NaN pattern (a signaling NaN, or for f16 a payload no
// arithmetic gives), so an element that keeps those bits was never written (a random finite poison
// would be met by a right 16-bit value about once in 65536 elements; an integer output's pattern is
// a value like any other, so such a Case runs twice); the two-order comparison of its blocks and
// threads is what it gives up, and the variant's other Cases make it.
bool runs_once(const Case& c);
// The elements of `image` that hold `poison`'s bits: how many, and the first Verdict::kMaxListed
// in row-major order (a run's outputs that were never written; `threads` > 1 spreads the rows).
struct KeptPoison {
  std::int64_t count = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> first;
};
KeptPoison kept_poison(const GuardedImage& image, Poison poison, unsigned threads = 1);
// Elements that kept the poison of a Case's one run (runs_once): never written.
void find_unwritten(const GuardedImage& image, Poison poison, Verdict& verdict);
// Elements that kept the poison of both runs (unwritten) or differ between them (nondeterministic).
// The runs' Cases say which emu orders were compared.
void compare_runs(const GuardedImage& first, const GuardedImage& second, Verdict& verdict, unsigned threads = 1,
                  const Case* run1 = nullptr, const Case* run2 = nullptr);
// An output's elements outside the derived bound but within the framework formula's, as the
// Verdict's accuracy note says them (nothing when `noted` is 0).
class Tolerance;
void note_accuracy(Verdict& verdict, std::string_view tensor, std::int64_t noted, const Tolerance& tolerance);
// After the guards and the comparison: the checks that held, pass or fail, and the reason. An
// accuracy note alone passes, and fails under --strict (strict_verdicts()).
void decide_outcome(Verdict& verdict);
// "op/variant dtype shape on backend", the Verdict's subject.
std::string subject_of(const Case& c);

// A progress line for the Case in flight: its step, with the rows it has done (a reference that counts
// them) or on emu the kernel's blocks, and an estimate of the time left in the step.
std::string case_progress();

}  // namespace kverify
