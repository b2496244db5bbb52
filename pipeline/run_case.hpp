// The Case pipeline, one straight line:
//   Case -> resolve (backend, variant) -> materialise inputs in the storage dtype
//        -> run twice on the backend over guarded images (NaN poison, then random poison)
//        -> guards (canaries, input bytes, unwritten elements, run-to-run bits)
//        -> reference on the very same stored inputs -> compare under the op's tolerance
//        -> Verdict
#pragma once

#include <vector>

#include "core/case.hpp"
#include "core/verdict.hpp"

namespace kverify {

// Bad input (unknown variant, a variant that cannot take this Case) throws InputError; a failing
// kernel is a failing Verdict; a backend that cannot run here is a skipped Verdict with the reason.
// `elements`, when given, receives every compared output element's errors (reference/compare.hpp).
struct ElementError;
Verdict run_case(const Case& c, std::vector<ElementError>* elements = nullptr);

// The same line for a Case whose backend is resolved (not auto), with the variant given directly
// (tests use it for deliberately broken variants that are not in the registry).
struct Variant;
class GuardedImage;
Verdict run_case_with(const Case& resolved, const Variant& variant, std::vector<ElementError>* elements = nullptr);

// The Case's tensors as guarded host images: inputs filled from the value recipe (rounded once to
// the storage dtype), outputs left as canary bytes until a run poisons them.
std::vector<GuardedImage> materialize(const Case& c);

}  // namespace kverify
