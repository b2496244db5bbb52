// The one entry through which the pipeline runs a launcher on emu (declared in
// kernels/launch_request.hpp, which host code with the real CUDA runtime includes too).
#include <string>

#include "kernels/launch_request.hpp"
#include "runtime/emu/model/taking_turns.hpp"
#include "runtime/kernel_api.hpp"

namespace kverify {

void launch_on_emu(Launcher launcher, const LaunchRequest& request) {
  // A launcher's `<<<>>>` launches take the Case's schedule seed from the innermost scope.
  emu::ScheduleScope scope(request.schedule_seed);
  const emu::LauncherCall call;  // where host threads take turns: a launcher stuck between launches gives them up
  static_cast<void>(cudaGetLastError());  // an error left by an earlier Case is not this one's
  launcher(request);
  // A refused launch records CUDA's error and runs nothing, as on the device; a launcher that did
  // not look at cudaGetLastError itself must not pass with its output unwritten.
  if (scope.refused() > 0 && cudaGetLastError() != cudaSuccess)
    throw emu::LaunchError(emu::LaunchError::Kind::bad_launch,
                           std::string("a launch was refused: ") + emu::last_launch_refusal());
}

}  // namespace kverify
