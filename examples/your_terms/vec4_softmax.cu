// A softmax as it is found in many repositories: f32 only, contiguous rows, float4 loads, so the
// width must be a multiple of 4 and the rows 16-byte aligned; the launcher asserts the width
// (the one precondition it checks itself). A warp per row, shuffle reductions.
#include <cuda_runtime.h>
#include <cassert>

namespace vec4_softmax {

constexpr int kRowsPerBlock = 4;

__device__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void softmax_rows(const float4* x, float4* y, int rows, int vectors_per_row) {
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;  // the whole warp
  const float4* xr = x + static_cast<long long>(row) * vectors_per_row;
  float4* yr = y + static_cast<long long>(row) * vectors_per_row;
  float max = -INFINITY;
  for (int i = lane; i < vectors_per_row; i += 32) {
    const float4 v = xr[i];
    max = fmaxf(max, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  max = warp_max(max);
  float sum = 0.0f;
  for (int i = lane; i < vectors_per_row; i += 32) {
    const float4 v = xr[i];
    sum += expf(v.x - max) + expf(v.y - max) + expf(v.z - max) + expf(v.w - max);
  }
  sum = warp_sum(sum);
  for (int i = lane; i < vectors_per_row; i += 32) {
    const float4 v = xr[i];
    yr[i] = make_float4(expf(v.x - max) / sum, expf(v.y - max) / sum, expf(v.z - max) / sum, expf(v.w - max) / sum);
  }
}

// y = softmax(x) over each of `rows` contiguous rows of `cols` floats.
void softmax_f32(const float* x, float* y, int rows, int cols, cudaStream_t stream) {
  assert(cols % 4 == 0 && "vec4_softmax: cols must be a multiple of 4");
  const int blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  softmax_rows<<<blocks, 32 * kRowsPerBlock, 0, stream>>>(reinterpret_cast<const float4*>(x),
                                                          reinterpret_cast<float4*>(y), rows, cols / 4);
}

}  // namespace vec4_softmax
