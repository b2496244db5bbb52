// A row sum in two launches with scratch memory the caller provides (kverify: WORKSPACE): each of
// 8 warps per row sums a strided eighth of the row into the workspace, then one thread per row adds
// the 8 partials. Contiguous rows, f32; the partials are indexed with int, so rows * 8 < 2^31 (its
// PRECONDITION says so: a limit no ACCEPTS token spells).
#include <cuda_runtime.h>

namespace two_pass_row_sum {

constexpr int kWarpsPerRow = 8;

__global__ void partial_sums(const float* x, float* partials, int cols) {
  const int row = blockIdx.x, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float sum = 0.0f;
  for (long long c = static_cast<long long>(warp) * 32 + lane; c < cols; c += 32 * kWarpsPerRow)
    sum += x[static_cast<long long>(row) * cols + c];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0) partials[row * kWarpsPerRow + warp] = sum;
}

__global__ void combine(const float* partials, float* y, int rows) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int w = 0; w < kWarpsPerRow; ++w) sum += partials[row * kWarpsPerRow + w];
  y[row] = sum;
}

// `workspace` holds rows * kWarpsPerRow floats.
void row_sum(const float* x, float* y, int rows, int cols, void* workspace, cudaStream_t stream) {
  auto* partials = static_cast<float*>(workspace);
  partial_sums<<<rows, 32 * kWarpsPerRow, 0, stream>>>(x, partials, cols);
  combine<<<(rows + 255) / 256, 256, 0, stream>>>(partials, y, rows);
}

}  // namespace two_pass_row_sum
