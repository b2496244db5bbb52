// softmax launchers for the emu backend (host compiler, runtime/emu/cuda_model.hpp).
#include "kernels/softmax/launchers.inl"

namespace kverify::kernels::softmax::emu {
void block_per_row(const LaunchRequest& r) { launch_block_per_row(r); }
}  // namespace kverify::kernels::softmax::emu
