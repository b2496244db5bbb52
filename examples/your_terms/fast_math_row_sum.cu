// A warp-per-row sum built with nvcc --use_fast_math (its CMake says so): subnormal inputs read as
// 0 and subnormal partial sums flush to zero. Correct under the fast-math tolerance; on rows of
// subnormals (values=subnormal), outside the default one.
#include <cuda_runtime.h>

namespace fast_math_row_sum {

__global__ void sum_rows(const float* x, float* y, int rows, int cols, long long x_row_stride, long long y_stride) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* xr = x + row * x_row_stride;
  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32) sum += xr[c];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row * y_stride] = sum;
}

void row_sum(const float* x, float* y, int rows, int cols, long long x_row_stride, long long y_stride,
             cudaStream_t stream) {
  if (rows == 0) return;
  constexpr int kRowsPerBlock = 4;
  sum_rows<<<(rows + kRowsPerBlock - 1) / kRowsPerBlock, 32 * kRowsPerBlock, 0, stream>>>(x, y, rows, cols,
                                                                                          x_row_stride, y_stride);
}

}  // namespace fast_math_row_sum
