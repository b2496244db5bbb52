// row_sum for f32 with float4 loads: a warp per row, 8 rows per block, each lane summing 16-byte
// vectors of the row and then the row's last cols % 4 elements one by one, a butterfly of
// shuffles to finish. The vector loads need unit column stride and every row 16-byte aligned;
// other layouts take the scalar loop alone. kDropTail plants the bug of its mutant: the
// scalar tail after the last whole vector is skipped.
#include <cuda_runtime.h>

#include <cstdint>

namespace vec4_row_sum {

constexpr int kRowsPerBlock = 8;

template <bool kDropTail>
__global__ void __launch_bounds__(32 * kRowsPerBlock)
    row_sum(const float* x, float* y, long long rows, long long cols, long long xrs, long long xcs, long long ys,
            bool vectors) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // the whole warp: lanes of one row leave together
  const float* xr = x + row * xrs;
  float sum = 0.0f;
  long long tail = 0;
  if (vectors) {
    const float4* v = reinterpret_cast<const float4*>(xr);
    const long long whole = cols / 4;
    for (long long i = lane; i < whole; i += 32) {
      const float4 q = v[i];
      sum += (q.x + q.y) + (q.z + q.w);
    }
    tail = kDropTail ? cols : whole * 4;
  }
  for (long long c = tail + lane; c < cols; c += 32) sum += xr[c * xcs];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row * ys] = sum;
}

// The launcher in the kernel's own terms: y[r * y_stride] = sum of row r of x.
template <bool kDropTail = false>
void row_sum_f32(const float* x, float* y, long long rows, long long cols, long long x_row_stride,
                 long long x_col_stride, long long y_stride, cudaStream_t stream) {
  const bool vectors =
      x_col_stride == 1 && reinterpret_cast<std::uintptr_t>(x) % 16 == 0 && (rows == 1 || x_row_stride % 4 == 0);
  const long long blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  row_sum<kDropTail><<<static_cast<unsigned>(blocks), 32 * kRowsPerBlock, 0, stream>>>(x, y, rows, cols, x_row_stride,
                                                                                       x_col_stride, y_stride, vectors);
}

}  // namespace vec4_row_sum
