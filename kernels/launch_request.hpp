// What a launcher receives: the problem and the device pointers, already guarded and placed.
// Plain data, includable from both the host compiler (emu) and nvcc (cuda).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace kverify {

struct DeviceTensor {
  void* data = nullptr;  // element (0, 0): the buffer's start plus the layout's offset
  // The tensor as rows x cols with one row stride (core/layout.hpp: its logical rows and columns),
  // exact for every tensor of rank <= 2; for a higher rank when its leading dimensions collapse,
  // else rows and cols with row_stride 0 (read `full` then).
  Layout2D layout;
  Layout full;               // every dimension's size and stride
  DType dtype = DType::f32;  // its element type (the storage dtype, or the one the op fixes)
  std::string_view name;     // the op's name for it (x, w, mean, ...)

  static DeviceTensor of(void* data, const Layout& l, DType dtype, std::string_view name = {}) {
    DeviceTensor t{data, {}, l, dtype, name};
    if (const auto m = l.as_2d())
      t.layout = *m;
    else
      t.layout = {l.rows(), l.cols(), 0, l.col_stride(), l.offset};
    return t;
  }
};

struct LaunchRequest {
  DType dtype = DType::f32;
  std::vector<std::int64_t> shape;                       // one size per dimension of the op
  std::vector<DeviceTensor> tensors;                     // in the op's tensor order (core/op_spec.hpp)
  std::vector<double> params;                            // one value per scalar parameter of the op, in its order
  std::vector<std::string_view> dim_names, param_names;  // the op's names for them (messages)
  void* workspace = nullptr;                             // Variant::workspace_bytes of device scratch, or null
  std::uint64_t schedule_seed = 0;                       // emu only
  void* stream = nullptr;                                // cuda only: a cudaStream_t
};

using Launcher = void (*)(const LaunchRequest&);

// Runs `launcher` on emu with the request's schedule seed; a launch that the H200 would refuse
// (recorded for cudaGetLastError, as on the device) throws, naming the reason.
void launch_on_emu(Launcher launcher, const LaunchRequest& request);

}  // namespace kverify
