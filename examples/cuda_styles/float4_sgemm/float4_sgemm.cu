// matmul_relu for f32, C = relu(A B), as an SGEMM with a ReLU added to its store: 16x64 tiles of
// C per block of 256 threads, each thread 4 adjacent columns of one row; K in steps of 16 through
// shared memory; B's tile read as float4 where B's rows are dense and 16-byte aligned, and C
// written as float4 where its rows are, with masked scalar loads and stores at every edge. FFMA
// only (no TF32). kDropTail plants the bug of its mutant: a float4 group of C that runs past the
// last column is not stored at all.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace float4_sgemm {

constexpr int kTileM = 16, kTileN = 64, kTileK = 16, kThreads = 256;

struct Matrix {
  float* data;
  long long rows, cols, row_stride, col_stride;
  __host__ __device__ bool dense_aligned_rows() const {
    return col_stride == 1 && row_stride % 4 == 0 && reinterpret_cast<std::uintptr_t>(data) % 16 == 0;
  }
};

// The contract's ReLU: NaN stays NaN (fmaxf(NaN, 0) would give 0), -0 and below give +0.
__device__ __forceinline__ float relu(float v) { return v > 0.0f ? v : (v != v ? v : 0.0f); }

template <bool kDropTail>
__global__ void __launch_bounds__(kThreads)
    sgemm_relu(Matrix a, Matrix b, Matrix c, long long k_total, bool b_vec, bool c_vec) {
  __shared__ float as[kTileM][kTileK];
  __shared__ __align__(16) float bs[kTileK][kTileN];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;  // C: row ty, columns 4 tx .. 4 tx + 3
  const long long m = static_cast<long long>(blockIdx.y) * kTileM + ty;
  const long long n0 = static_cast<long long>(blockIdx.x) * kTileN + 4 * tx;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (long long k0 = 0; k0 < k_total; k0 += kTileK) {
    {  // A: one element per thread
      const long long k = k0 + tx;
      as[ty][tx] = (m < a.rows && k < k_total) ? a.data[m * a.row_stride + k * a.col_stride] : 0.0f;
    }
    {  // B: four adjacent elements of row k0 + ty per thread
      const long long k = k0 + ty;
      float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (k < k_total) {
        if (b_vec && n0 + 3 < b.cols) {
          v = *reinterpret_cast<const float4*>(b.data + k * b.row_stride + n0);
        } else {
          const float* row = b.data + k * b.row_stride;
          if (n0 < b.cols) v.x = row[n0 * b.col_stride];
          if (n0 + 1 < b.cols) v.y = row[(n0 + 1) * b.col_stride];
          if (n0 + 2 < b.cols) v.z = row[(n0 + 2) * b.col_stride];
          if (n0 + 3 < b.cols) v.w = row[(n0 + 3) * b.col_stride];
        }
      }
      *reinterpret_cast<float4*>(&bs[ty][4 * tx]) = v;
    }
    __syncthreads();
    for (int k = 0; k < kTileK; ++k) {
      const float av = as[ty][k];
      const float4 bv = *reinterpret_cast<const float4*>(&bs[k][4 * tx]);
      acc[0] = fmaf(av, bv.x, acc[0]);
      acc[1] = fmaf(av, bv.y, acc[1]);
      acc[2] = fmaf(av, bv.z, acc[2]);
      acc[3] = fmaf(av, bv.w, acc[3]);
    }
    __syncthreads();
  }
  if (m >= c.rows) return;
  float* row = c.data + m * c.row_stride;
  if (c_vec && n0 + 3 < c.cols) {
    *reinterpret_cast<float4*>(row + n0) = make_float4(relu(acc[0]), relu(acc[1]), relu(acc[2]), relu(acc[3]));
  } else if (!kDropTail || n0 + 3 < c.cols) {
    for (int j = 0; j < 4; ++j)
      if (n0 + j < c.cols) row[(n0 + j) * c.col_stride] = relu(acc[j]);
  }
}

// The launcher in the kernel's own terms, BLAS-style and row-major: C (M x N) = relu(A (M x K) B (K x N)),
// lda, ldb and ldc the distances between rows in elements.
template <bool kDropTail = false>
void sgemm_relu_row_major(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
                          cudaStream_t stream) {
  const Matrix a{const_cast<float*>(A), M, K, lda, 1}, b{const_cast<float*>(B), K, N, ldb, 1}, c{C, M, N, ldc, 1};
  const long long tiles_m = (c.rows + kTileM - 1) / kTileM, tiles_n = (c.cols + kTileN - 1) / kTileN;
  if (tiles_m > 65535) throw std::invalid_argument("float4_sgemm takes M up to " + std::to_string(65535 * kTileM));
  const dim3 grid(static_cast<unsigned>(tiles_n), static_cast<unsigned>(tiles_m));
  sgemm_relu<kDropTail><<<grid, kThreads, 0, stream>>>(a, b, c, a.cols, b.dense_aligned_rows(), c.dense_aligned_rows());
}

}  // namespace float4_sgemm
