// `kverify check`: variants that cannot run on a backend at all (a cuda-only tensor-core kernel on
// emu, a variant without a cuda launcher in this build) are said out loud, never left out silently.
// Asked for by name (--variant) they make the backend "not run" (exit 3); otherwise they are listed
// as skipped, with the registry's reason, and the check goes on with the rest.
#pragma once

#include <string>

#include "check/catalogue.hpp"
#include "check/report.hpp"
#include "kernels/registry.hpp"

namespace kverify {

// A backend that cannot run here at all: NOT RUN, with the reason.
inline void note_backend_not_run(Backend backend, const std::string& why, CheckReport& report) {
  report.not_run.push_back(std::string(name(backend)) + ": " + why);
  report.testcases.push_back({std::string(name(backend)), "", "runs on " + std::string(name(backend)),
                              CheckReport::TestCase::Status::skipped, "NOT RUN: " + why});
}

// Records, for one backend, the variants the filters select that cannot run there; true when
// none of the selected variants can (nothing else to do on this backend).
inline bool note_variants_not_on_backend(const CheckOptions& options, Backend backend, CheckReport& report) {
  int selected = 0, refused = 0;
  for (const auto& v : all_variants()) {
    if (options.op && v.op != *options.op) continue;
    if (options.variant ? v.name != *options.variant : v.mutant) continue;
    ++selected;
    if (const auto why = not_on_backend(v, backend)) {
      ++refused;
      (options.variant ? report.not_run : report.skipped).push_back(std::string(name(backend)) + ": " + *why);
      report.testcases.push_back({std::string(name(backend)), std::string(v.op) + "/" + std::string(v.name),
                                  "runs on " + std::string(name(backend)), CheckReport::TestCase::Status::skipped,
                                  *why});
    }
  }
  return selected > 0 && refused == selected;
}

}  // namespace kverify
