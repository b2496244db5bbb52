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
// auto -> cuda when a GPU is present, else emu.
Backend resolve_backend(Backend requested);

// Throws emu::LaunchError or cuda::Error (as std::runtime_error) when the launch fails.
void execute(Backend backend, const Variant& variant, const Case& c, std::vector<GuardedImage>& images);

}  // namespace kverify
