// The plain composed ("eager") versions, one kernel per framework op, each intermediate written
// to memory in the storage dtype: softmax in five passes (row max, subtract, exp, row sum,
// divide) and tanh-GELU as a chain of elementwise kernels. What a framework runs without fusion.
#include <cuda_runtime.h>

#include "bench/device.hpp"
#include "kernels/common/backend_launch.hpp"  // with_storage_type, kv::to_f32 / from_f32
#include "runtime/cuda/check.hpp"

namespace kverify::bench {
namespace {

constexpr int kThreads = 256;

int grid_for(long long n) {
  const long long blocks = (n + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 132 * 32 ? blocks : 132 * 32);  // grid-stride beyond
}

template <typename T, typename F>
__global__ void map1(const T* a, T* out, long long n, F f) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = kv::from_f32<T>(f(kv::to_f32(a[i])));
}
template <typename T, typename F>
__global__ void map2(const T* a, const T* b, T* out, long long n, F f) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = kv::from_f32<T>(f(kv::to_f32(a[i]), kv::to_f32(b[i])));
}
// out[i] = f(a[i], per_row[i / cols])
template <typename T, typename F>
__global__ void map_row(const T* a, const float* per_row, T* out, long long n, long long cols, F f) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = kv::from_f32<T>(f(kv::to_f32(a[i]), per_row[i / cols]));
}

// A row reduction (max or sum, f32): a warp per row up to 1024 columns, else a block per row.
template <typename T, bool kMax>
__global__ void reduce_rows_warp(const T* x, float* out, long long rows, long long cols) {
  const long long row = blockIdx.x * (long long)(blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;
  const int lane = threadIdx.x % 32;
  float acc = kMax ? -INFINITY : 0.f;
  for (long long c = lane; c < cols; c += 32) {
    const float v = kv::to_f32(x[row * cols + c]);
    acc = kMax ? fmaxf(acc, v) : acc + v;
  }
  for (int o = 16; o > 0; o /= 2) {
    const float v = __shfl_xor_sync(0xffffffffu, acc, o);
    acc = kMax ? fmaxf(acc, v) : acc + v;
  }
  if (lane == 0) out[row] = acc;
}
template <typename T, bool kMax>
__global__ void reduce_rows_block(const T* x, float* out, long long cols) {
  __shared__ float part[kThreads / 32];
  const long long row = blockIdx.x;
  float acc = kMax ? -INFINITY : 0.f;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = kv::to_f32(x[row * cols + c]);
    acc = kMax ? fmaxf(acc, v) : acc + v;
  }
  for (int o = 16; o > 0; o /= 2) {
    const float v = __shfl_xor_sync(0xffffffffu, acc, o);
    acc = kMax ? fmaxf(acc, v) : acc + v;
  }
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float r = part[0];
    for (int w = 1; w < kThreads / 32; ++w) r = kMax ? fmaxf(r, part[w]) : r + part[w];
    out[row] = r;
  }
}

template <typename T, bool kMax>
void reduce_rows(const T* x, float* out, long long rows, long long cols, cudaStream_t s) {
  if (cols <= 1024) {
    reduce_rows_warp<T, kMax><<<static_cast<unsigned>((rows + 7) / 8), kThreads, 0, s>>>(x, out, rows, cols);
  } else {
    reduce_rows_block<T, kMax><<<static_cast<unsigned>(rows), kThreads, 0, s>>>(x, out, cols);
  }
  kverify::cuda::check_launch("eager row reduction");
}

// The framework ops, as functors (an extended __device__ lambda cannot live in a generic lambda).
struct Sub { __device__ float operator()(float v, float w) const { return v - w; } };
struct Div { __device__ float operator()(float v, float w) const { return v / w; } };
struct Add { __device__ float operator()(float v, float w) const { return v + w; } };
struct Mul { __device__ float operator()(float v, float w) const { return v * w; } };
struct Exp { __device__ float operator()(float v) const { return expf(v); } };
struct Tanh { __device__ float operator()(float v) const { return tanhf(v); } };
struct Cube { __device__ float operator()(float v) const { return v * v * v; } };
struct Scale { float k; __device__ float operator()(float v) const { return v * k; } };
struct OnePlus { __device__ float operator()(float v) const { return 1.f + v; } };

struct SoftmaxState {
  DeviceMemory tmp1, tmp2, row_max, row_sum;
  SoftmaxState(std::size_t elems, std::size_t es, std::size_t rows)
      : tmp1(elems * es), tmp2(elems * es), row_max(rows * 4), row_sum(rows * 4) {}
};

struct GeluState {
  DeviceMemory t1, t2;
  GeluState(std::size_t bytes) : t1(bytes), t2(bytes) {}
};

}  // namespace

Baseline eager_softmax(DType d, std::int64_t rows, std::int64_t cols, const void* x, void* y, void* stream) {
  const long long n = rows * cols;
  auto st = std::make_shared<SoftmaxState>(n, size_of(d), rows);
  Baseline b{"eager softmax", "5 kernels: max, x-max, exp, sum, divide; intermediates in the storage dtype", {}, st};
  auto s = static_cast<cudaStream_t>(stream);
  with_storage_type(d, [&]<typename T>() {
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    T* t1 = static_cast<T*>(st->tmp1.data);
    T* t2 = static_cast<T*>(st->tmp2.data);
    float* mx = static_cast<float*>(st->row_max.data);
    float* sm = static_cast<float*>(st->row_sum.data);
    b.run = [=] {
      const int g = grid_for(n);
      reduce_rows<T, true>(in, mx, rows, cols, s);
      map_row<<<g, kThreads, 0, s>>>(in, mx, t1, n, cols, Sub{});
      map1<<<g, kThreads, 0, s>>>(t1, t2, n, Exp{});
      reduce_rows<T, false>(t2, sm, rows, cols, s);
      map_row<<<g, kThreads, 0, s>>>(t2, sm, out, n, cols, Div{});
      kverify::cuda::check_launch("eager softmax");
    };
  });
  return b;
}

Baseline eager_gelu_tanh(DType d, std::int64_t n, const void* x, void* y, void* stream) {
  auto st = std::make_shared<GeluState>(static_cast<std::size_t>(n) * size_of(d));
  Baseline b{"eager gelu_tanh", "8 elementwise kernels: x^3, *0.044715, +x, *sqrt(2/pi), tanh, +1, *x, *0.5", {}, st};
  auto s = static_cast<cudaStream_t>(stream);
  with_storage_type(d, [&]<typename T>() {
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    T* a = static_cast<T*>(st->t1.data);
    T* c = static_cast<T*>(st->t2.data);
    b.run = [=] {
      const int g = grid_for(n);
      map1<<<g, kThreads, 0, s>>>(in, a, n, Cube{});
      map1<<<g, kThreads, 0, s>>>(a, c, n, Scale{0.044715f});
      map2<<<g, kThreads, 0, s>>>(in, c, a, n, Add{});
      map1<<<g, kThreads, 0, s>>>(a, c, n, Scale{0.7978845608028654f});
      map1<<<g, kThreads, 0, s>>>(c, a, n, Tanh{});
      map1<<<g, kThreads, 0, s>>>(a, c, n, OnePlus{});
      map2<<<g, kThreads, 0, s>>>(in, c, a, n, Mul{});
      map1<<<g, kThreads, 0, s>>>(a, out, n, Scale{0.5f});
      kverify::cuda::check_launch("eager gelu_tanh");
    };
  });
  return b;
}

}  // namespace kverify::bench
