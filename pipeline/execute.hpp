// Runs one variant on one backend over guarded images: the images' bytes go to the device as
// they are (canaries, poison and inputs), the kernel runs, and the whole images come back.
#pragma once

#include <string>
#include <vector>

#include "core/case.hpp"
#include "kernels/registry.hpp"
#include "pipeline/guarded_image.hpp"

namespace kverify {

// Whether the backend can run here; for cuda without a GPU, the reason.
bool backend_available(Backend b, std::string* why_not);
// The CUDA devices this process sees (0 without a GPU or a cuda backend).
int cuda_device_count();
// auto -> cuda when a GPU is present, else emu.
Backend resolve_backend(Backend requested);

// After a failed Case on cuda: whether the CUDA context is unusable (a sticky error such as an
// illegal address or a trap), with CUDA's error; every later Case in this process would fail too.
// Always false for emu (a fault there is a signal).
bool device_context_lost(Backend b, std::string* why);

// The request of a Case, its tensors to be filled in: dtype, sizes, parameters and the op's names
// for them, the schedule seed on emu.
LaunchRequest launch_request_of(const Case& c, Backend backend);

// Throws emu::LaunchError or cuda::Error (as std::runtime_error) when the launch fails. On cuda,
// returns what the launcher left on the default stream when the stream it was given had finished
// ("" when nothing was seen; emu counts that work itself: emu::CallerStream).
std::string execute(Backend backend, const Variant& variant, const Case& c, std::vector<GuardedImage>& images);

// While one lives, Cases run at the same time on several host threads of this process
// (run_at_once): on cuda the default streams are not asked about after a launch, since another
// thread's copies are on them.
class CasesAtOnce {
 public:
  CasesAtOnce();
  ~CasesAtOnce();
  CasesAtOnce(const CasesAtOnce&) = delete;
  CasesAtOnce& operator=(const CasesAtOnce&) = delete;
  static bool active();
};

// The cuda half of execute, for tensors already on the device (the bench's gate keeps them there):
// the variant's scratch (filled with 0xff), its launcher given a non-blocking stream of its own (as
// a framework's caller gives one; a NO_STREAM registration gets none), that stream synchronized,
// then the whole device, the launch and the kernel's end checked. `request` names the device
// tensors; throws cuda::Error when the launch or the kernel fails. Returns "" or, where the legacy
// or per-thread default stream still had work when the given stream had finished (a launch or
// copy without the stream: not ordered with the caller's), what was seen. Work that had already
// ended by then, and work on a side stream the launcher made, are not seen; nor is any while
// CasesAtOnce lives.
std::string launch_on_device(const Variant& variant, LaunchRequest& request);

}  // namespace kverify
