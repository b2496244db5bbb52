// C = relu(A B), a thread per element of C, built with nvcc --use_fast_math (its CMake says so):
// subnormal inputs, products and partial sums flush to zero. Correct under the fast-math tolerance;
// on subnormal inputs (values=subnormal), outside the default one.
#include <cuda_runtime.h>

namespace fast_math_matmul_relu {

__global__ void matmul_relu_elements(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
                                     int ldc) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= N) return;
  for (int row = blockIdx.y; row < M; row += gridDim.y) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc = fmaf(A[static_cast<long long>(row) * lda + k], B[static_cast<long long>(k) * ldb + col], acc);
    C[static_cast<long long>(row) * ldc + col] = acc > 0.0f || acc != acc ? acc : 0.0f;  // NaN propagates
  }
}

void matmul_relu(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
                 cudaStream_t stream) {
  if (M == 0 || N == 0) return;
  const dim3 grid((N + 127) / 128, M < 65535 ? M : 65535);
  matmul_relu_elements<<<grid, 128, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc);
}

}  // namespace fast_math_matmul_relu
