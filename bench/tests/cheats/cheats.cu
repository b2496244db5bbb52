// Kernels that game a benchmark harness the ways public leaderboards were gamed, each right on
// every call a correctness check makes: work left on a stream of its own, work done only on the
// first calls, results memoized by their arguments, the previous call's output taken for this
// one's, inputs overwritten once read (those that count their calls honest for kHonestCalls calls:
// more than the gate and the warm-up make). The math is plain (a grid-stride GELU, a 16x16-tile
// SGEMM); only the launchers cheat.
#include <cuda_runtime.h>

#include <map>
#include <tuple>
#include <utility>

namespace bench_cheats {

__device__ float gelu(float x) {
  if (x == -INFINITY) return -0.0f;
  const float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
  return x / (1.0f + expf(-2.0f * u));
}

__global__ void gelu_kernel(const float* x, float* y, long long n) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += step) y[i] = gelu(x[i]);
}

inline unsigned blocks_for(long long n) {
  const long long b = (n + 255) / 256;
  return static_cast<unsigned>(b < 8192 ? b : 8192);
}

// Unseen work: the caller's stream never waits for this one.
void gelu_on_side_stream(const float* x, float* y, long long n, cudaStream_t) {
  static cudaStream_t side = [] {
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  if (n > 0) gelu_kernel<<<blocks_for(n), 256, 0, side>>>(x, y, n);
}

constexpr int kHonestCalls = 16;

// Work only while someone is likely to be checking.
void gelu_on_first_calls(const float* x, float* y, long long n, cudaStream_t stream) {
  static int calls = 0;
  if (++calls > kHonestCalls || n == 0) return;
  gelu_kernel<<<blocks_for(n), 256, 0, stream>>>(x, y, n);
}

// The answer already in y from a previous call with the same pointers taken as this call's.
void gelu_keeps_previous_output(const float* x, float* y, long long n, cudaStream_t stream) {
  static int calls = 0;
  static std::map<std::pair<const float*, float*>, long long> seen;
  const bool repeat = seen.count({x, y}) && seen[{x, y}] == n;
  seen[{x, y}] = n;
  if ((++calls > kHonestCalls && repeat) || n == 0) return;
  gelu_kernel<<<blocks_for(n), 256, 0, stream>>>(x, y, n);
}

// Inputs overwritten once read (a later call then has less to do: gelu(0) is 0).
__global__ void zero_kernel(float* x, long long n) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += step) x[i] = 0.0f;
}
void gelu_then_zero_inputs(const float* x, float* y, long long n, cudaStream_t stream) {
  static int calls = 0;
  if (n == 0) return;
  gelu_kernel<<<blocks_for(n), 256, 0, stream>>>(x, y, n);
  if (++calls > kHonestCalls) zero_kernel<<<blocks_for(n), 256, 0, stream>>>(const_cast<float*>(x), n);
}

constexpr int kTile = 16;

__global__ void sgemm_relu(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc) {
  __shared__ float a[kTile][kTile], b[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    a[threadIdx.y][threadIdx.x] =
        row < M && k0 + threadIdx.x < K ? A[static_cast<long long>(row) * lda + k0 + threadIdx.x] : 0.0f;
    b[threadIdx.y][threadIdx.x] =
        k0 + threadIdx.y < K && col < N ? B[static_cast<long long>(k0 + threadIdx.y) * ldb + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc = fmaf(a[threadIdx.y][k], b[k][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[static_cast<long long>(row) * ldc + col] = acc > 0.0f ? acc : (acc != acc ? acc : 0.0f);
}

// Memoization keyed on the arguments: a repeated call copies the first call's C back.
void sgemm_relu_memoized(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
                         cudaStream_t stream) {
  using Key = std::tuple<const float*, const float*, float*, int, int, int, int, int, int>;
  static std::map<Key, float*> cache;
  const Key key{A, B, C, M, N, K, lda, ldb, ldc};
  const size_t bytes =
      static_cast<size_t>(M > 0 ? M - 1 : 0) * ldc * sizeof(float) + static_cast<size_t>(N) * sizeof(float);
  if (M == 0 || N == 0) return;
  if (const auto hit = cache.find(key); hit != cache.end()) {
    cudaMemcpyAsync(C, hit->second, bytes, cudaMemcpyDeviceToDevice, stream);
    return;
  }
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), block(kTile, kTile);
  sgemm_relu<<<grid, block, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc);
  float* saved = nullptr;
  if (cudaMalloc(&saved, bytes) != cudaSuccess) return;
  cudaMemcpyAsync(saved, C, bytes, cudaMemcpyDeviceToDevice, stream);
  cache[key] = saved;
}

}  // namespace bench_cheats
