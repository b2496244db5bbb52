// softmax launchers for the cuda backend (nvcc).
#include "kernels/softmax/launchers.inl"

namespace kverify::kernels::softmax::cuda {
void block_per_row(const LaunchRequest& r) { launch_block_per_row(r); }
}  // namespace kverify::kernels::softmax::cuda
