// gelu_tanh's registry entries, in dispatch order: the 16-byte vector path when the Case's layouts
// allow it, the strided kernel for everything else. Contract: kernels/gelu_tanh/gelu_tanh_math.cuh.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/gelu_tanh/vector_plan.hpp"
#include "kernels/registry.hpp"

namespace kverify {
namespace kernels::gelu_tanh {
KV_DECLARE_LAUNCHER(contiguous_vec)
KV_DECLARE_LAUNCHER(strided)
KV_DECLARE_LAUNCHER(vec_ilp)

namespace {

// The Case-level form of the launcher's test (vector_plan.hpp): element (0,0) of tensor t sits
// offset * element size bytes past its buffer's start, and buffers start 256-byte aligned (cudaMalloc and
// emu's GuardedImage alike, plus 1 KiB of canary). The launcher
// checks the real pointers again and runs the strided kernel if this ever disagrees.
bool vector_path_for(const Case& c) {
  const Layout2D x = *c.layout(0).as_2d(), y = *c.layout(1).as_2d();
  const auto bytes = static_cast<std::uintptr_t>(size_of(c.dtype));
  return vector_path_applies(x, static_cast<std::uintptr_t>(x.offset) * bytes, y,
                             static_cast<std::uintptr_t>(y.offset) * bytes);
}

}  // namespace

const Variant kVariants[] = {
    {.op = "gelu_tanh",
     .name = "vec_ilp",
     .strategy = "contiguous_vec's precondition and fallback, with 4 16-byte vectors per thread loaded "
                 "before any is computed (more bytes in flight); f16/bf16 branch-free, one expf and one fast division",
     .auto_when = &vector_path_for,
     KV_LAUNCHERS(vec_ilp)},
    {.op = "gelu_tanh",
     .name = "contiguous_vec",
     .strategy = "x and y dense in the same order and 16-byte aligned: 16-byte vector loads/stores in a "
                 "grid-stride loop, scalar tail; any other layout runs the strided kernel",
     .auto_when = &vector_path_for,
     KV_LAUNCHERS(contiguous_vec)},
    {.op = "gelu_tanh",
     .name = "strided",
     .strategy = "any strides and offsets: grid-stride loop over rows x cols, 64-bit indices, ordered along y",
     KV_LAUNCHERS(strided)},
};
}  // namespace kernels::gelu_tanh

std::span<const Variant> kernels::gelu_tanh::variants() { return kernels::gelu_tanh::kVariants; }

}  // namespace kverify
