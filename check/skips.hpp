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

// Why variant v cannot run on this backend whatever the Case, or an empty string.
inline std::string variant_not_on_backend(const Variant& v, Backend backend) {
  const std::string who = std::string(v.op) + "/" + std::string(v.name);
  if (backend == Backend::emu && !v.on_emu)
    return who + " does not run on emu: " + std::string(v.emu_unsupported_reason);
  if (backend == Backend::cuda && !v.launch_cuda) return who + " has no cuda launcher in this build";
  return "";
}

// Records, for one backend, the variants the filters select that cannot run there; true when
// none of the selected variants can (nothing else to do on this backend).
inline bool note_variants_not_on_backend(const CheckOptions& options, Backend backend, CheckReport& report) {
  int selected = 0, refused = 0;
  for (const auto& v : all_variants()) {
    if (options.op && v.op != *options.op) continue;
    if (options.variant ? v.name != *options.variant : v.mutant) continue;
    ++selected;
    if (std::string why = variant_not_on_backend(v, backend); !why.empty()) {
      ++refused;
      (options.variant ? report.not_run : report.skipped).push_back(std::string(name(backend)) + ": " + why);
    }
  }
  return selected > 0 && refused == selected;
}

}  // namespace kverify
