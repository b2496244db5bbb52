// RMSNorm with 16-byte vector loads, as inference engines write it (vLLM's and FasterTransformer's
// rms_norm kernels): a block per row; each thread adds the squares of its 16-byte vectors of the
// row (8 f16/bf16 or 4 f32 values), a shared-memory tree gives rstd = rsqrt(mean square + eps),
// then each thread writes x * rstd * w for the same vectors. The vectors need every row of x and y,
// and w, to start on a 16-byte boundary and a width that is a multiple of the vector; other Cases
// take the element-by-element loop. kWidthOnly plants the bug of its mutant: the vector path is
// chosen on the width alone, so an x, w or y that starts off a 16-byte boundary is read or written
// with misaligned vector accesses (a misaligned address fault on the GPU, emu's alignment check).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace vec_rmsnorm {

constexpr int kThreads = 256;

template <typename T>
struct alignas(16) Vec {
  T v[16 / sizeof(T)];
};

template <typename T, bool kVectors>
__global__ void __launch_bounds__(kThreads)
    rms_norm(const T* x, const T* w, T* y, float* rstd_out, int cols, float eps) {
  constexpr int V = 16 / sizeof(T);
  __shared__ float partial[kThreads];
  const long long row = blockIdx.x;
  const T* xr = x + row * cols;
  T* yr = y + row * cols;
  float squares = 0.0f;
  if (kVectors) {
    const auto* xv = reinterpret_cast<const Vec<T>*>(xr);
    for (int i = threadIdx.x; i < cols / V; i += kThreads) {
      const Vec<T> q = xv[i];
      for (int k = 0; k < V; ++k) squares += static_cast<float>(q.v[k]) * static_cast<float>(q.v[k]);
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += kThreads) squares += static_cast<float>(xr[c]) * static_cast<float>(xr[c]);
  }
  partial[threadIdx.x] = squares;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  const float rstd = rsqrtf(partial[0] / static_cast<float>(cols) + eps);
  if (threadIdx.x == 0) rstd_out[row] = rstd;
  if (kVectors) {
    const auto* xv = reinterpret_cast<const Vec<T>*>(xr);
    const auto* wv = reinterpret_cast<const Vec<T>*>(w);
    auto* yv = reinterpret_cast<Vec<T>*>(yr);
    for (int i = threadIdx.x; i < cols / V; i += kThreads) {
      const Vec<T> q = xv[i], g = wv[i];
      Vec<T> out;
      for (int k = 0; k < V; ++k)
        out.v[k] = static_cast<T>(static_cast<float>(q.v[k]) * rstd * static_cast<float>(g.v[k]));
      yv[i] = out;
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += kThreads)
      yr[c] = static_cast<T>(static_cast<float>(xr[c]) * rstd * static_cast<float>(w[c]));
  }
}

bool aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// The launcher in the kernel's own terms: dense rows, int sizes.
template <typename T, bool kWidthOnly = false>
void rmsnorm(const T* x, const T* w, T* y, float* rstd, int rows, int cols, float eps, cudaStream_t stream) {
  constexpr int V = 16 / sizeof(T);
  const bool vectors = cols % V == 0 && (kWidthOnly || (aligned(x) && aligned(w) && aligned(y)));
  if (vectors)
    rms_norm<T, true><<<rows, kThreads, 0, stream>>>(x, w, y, rstd, cols, eps);
  else
    rms_norm<T, false><<<rows, kThreads, 0, stream>>>(x, w, y, rstd, cols, eps);
}

}  // namespace vec_rmsnorm
