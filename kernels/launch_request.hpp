// What a launcher receives: the problem and the device pointers, already guarded and placed.
// Plain data, includable from both the host compiler (emu) and nvcc (cuda).
#pragma once

#include <cstdint>
#include <vector>

#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace kverify {

struct DeviceTensor {
  void* data = nullptr;  // element (0, 0): the buffer's start plus the layout's offset
  Layout2D layout;
};

struct LaunchRequest {
  DType dtype = DType::f32;
  std::vector<std::int64_t> shape;
  std::vector<DeviceTensor> tensors;  // in the op's tensor order (ops/op_spec.hpp)
  void* workspace = nullptr;          // Variant::workspace_bytes of device scratch, or null
  std::uint64_t schedule_seed = 0;    // emu only
  void* stream = nullptr;             // cuda only: a cudaStream_t
};

using Launcher = void (*)(const LaunchRequest&);

// Runs `launcher` on emu with the request's schedule seed; a launch that the H200 would refuse
// (recorded for cudaGetLastError, as on the device) throws, naming the reason.
void launch_on_emu(Launcher launcher, const LaunchRequest& request);

}  // namespace kverify
