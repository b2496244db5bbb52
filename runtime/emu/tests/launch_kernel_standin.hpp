// Test-only: a stand-in for the emu launch entry ::kverify::emu::launch_kernel(kernel, grid,
// block, shmem, stream, args...) that the rewritten <<<>>> launches call
// (KVERIFY_EMU_LAUNCH_TARGET in runtime/emu/launch_syntax.hpp). It forwards to today's
// kverify::emu::launch with the default schedule and ignores the stream (emu launches run to
// completion). Force-included (-include) into the rewritten test sources only; the real entry,
// with CUDA's runtime API around it, replaces it.
#pragma once

#include <cstddef>
#include <utility>

#include "runtime/kernel_api.hpp"

#if !defined(KVERIFY_EMU_HAS_LAUNCH_KERNEL)
using cudaStream_t = struct CUstream_st*;

namespace kverify::emu {

template <class... Params, class Grid, class Block, class Stream, class... Args>
void launch_kernel(void (*kernel)(Params...), Grid grid, Block block, std::size_t shmem, Stream, Args&&... args) {
  launch(dim3(grid), dim3(block), shmem, LaunchOptions{}, kernel, std::forward<Args>(args)...);
}

}  // namespace kverify::emu
#endif
