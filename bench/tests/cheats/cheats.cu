// Kernels that game a benchmark harness the ways public leaderboards were gamed, each right on
// every call a correctness check makes: work left on a stream of its own or handed to a host
// thread, work done only on the first calls, only the rows a sampling checker reads, results
// memoized by their arguments, the previous call's output taken for this one's, inputs
// overwritten once read, work done only on inputs recognised as the checker's, inputs kept in a
// persisting L2 window across calls (those that count their calls are honest for kHonestCalls
// calls: more than the gate and the warm-up make). The math is plain (a grid-stride GELU, a
// block-per-row softmax, a 16x16-tile SGEMM); only the launchers cheat.
#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <thread>
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

// Work handed to a host thread, which launches it on a stream of its own: the launcher returns
// once the work is queued, and the caller's stream never waits for it.
void gelu_from_host_thread(const float* x, float* y, long long n, cudaStream_t) {
  static cudaStream_t own = [] {
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  if (n == 0) return;
  std::thread([=] { gelu_kernel<<<blocks_for(n), 256, 0, own>>>(x, y, n); }).join();
}

// Work only on inputs recognised as the checker's: their first values, read back on every call,
// are those of the first call's inputs (the gate's).
void gelu_on_recognised_inputs(const float* x, float* y, long long n, cudaStream_t stream) {
  static int calls = 0;
  static std::array<std::uint32_t, 4> gates{};
  if (n == 0) return;
  std::array<float, 4> head{};
  cudaMemcpy(head.data(), x, static_cast<size_t>(n < 4 ? n : 4) * sizeof(float), cudaMemcpyDeviceToHost);
  std::array<std::uint32_t, 4> bits{};
  std::memcpy(bits.data(), head.data(), sizeof bits);
  if (++calls == 1) gates = bits;
  if (calls > kHonestCalls && bits != gates) return;
  gelu_kernel<<<blocks_for(n), 256, 0, stream>>>(x, y, n);
}

// The input kept in L2 across calls: the most L2 the device sets aside for persisting accesses,
// and a window over x on the caller's stream, so a flush between calls leaves x where it was.
void gelu_with_persisting_l2(const float* x, float* y, long long n, cudaStream_t stream) {
  if (n == 0) return;
  int device = 0, most = 0, widest = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&widest, cudaDevAttrMaxAccessPolicyWindowSize, device);
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(most));
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  cudaStreamAttrValue window{};
  window.accessPolicyWindow.base_ptr = const_cast<float*>(x);
  window.accessPolicyWindow.num_bytes = bytes < static_cast<size_t>(widest) ? bytes : static_cast<size_t>(widest);
  const double fits = static_cast<double>(most) / static_cast<double>(window.accessPolicyWindow.num_bytes);
  window.accessPolicyWindow.hitRatio = static_cast<float>(fits < 1.0 ? fits : 1.0);
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window);
  gelu_kernel<<<blocks_for(n), 256, 0, stream>>>(x, y, n);
}

// softmax, one block of 256 threads per row (the max, then the sum of exp(x - max), then the
// row), written only for the rows `written` keeps.
__device__ float block_reduce(float v, bool take_max, float* scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      scratch[threadIdx.x] = take_max ? fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + half])
                                      : scratch[threadIdx.x] + scratch[threadIdx.x + half];
    __syncthreads();
  }
  const float r = scratch[0];
  __syncthreads();
  return r;
}
__global__ void softmax_rows(const float* x, float* y, int cols, int every, int rows) {
  __shared__ float scratch[256];
  const int row = blockIdx.x;
  if (every > 1 && row % every != 0 && row != rows - 1) return;
  const float* in = x + static_cast<long long>(row) * cols;
  float* out = y + static_cast<long long>(row) * cols;
  float max = -INFINITY, sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) max = fmaxf(max, in[c]);
  max = block_reduce(max, true, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(in[c] - max);
  sum = block_reduce(sum, false, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = expf(in[c] - max) / sum;
}

// Only the rows a checker that samples would read (every 64th and the last) once the first calls
// are over.
void softmax_sampled_rows(const float* x, float* y, int rows, int cols, cudaStream_t stream) {
  static int calls = 0;
  if (rows == 0 || cols == 0) return;
  softmax_rows<<<rows, 256, 0, stream>>>(x, y, cols, ++calls > kHonestCalls ? 64 : 1, rows);
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
