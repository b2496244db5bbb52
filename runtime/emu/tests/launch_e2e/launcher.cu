// A CUDA source as a user writes it: kernels and a host launcher with <<<>>> launches. The emu
// build compiles the copy that kverify_emu_rewrite writes (runtime/emu/CMakeLists.txt).
#include <array>
#include <vector>

#include "kernels.cuh"
#include "launcher.hpp"
#include "runtime/kernel_api.hpp"

namespace {

template <typename T, int N>
__global__ void fill(T* out, T value) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = value * static_cast<T>(N);
}

namespace ns {
__global__ void add_one(float* x, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) x[i] += 1.0f;
}
}  // namespace ns

template <typename T>
__global__ void scale(T* x, T factor, int n) {
  const int i = static_cast<int>(threadIdx.x);
  if (i < n) x[i] *= factor;
}

__global__ void set(int* out, int value) { out[threadIdx.x] = value; }

__global__ void set_default(int* out, int value = 5, int plus = 1) { out[threadIdx.x] = value + plus; }

__global__ void block_sum(const float* in, float* out) {
  extern __shared__ float partial[];
  partial[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) s += partial[i];
    *out = s;
  }
}

__global__ void traps() {
  if (threadIdx.x == 3) __trap();  // TRAP-LINE
}

// A launch in a macro body; the launch in CHECKED's argument is written at the call.
#define LAUNCH_SET(buffer, n, value) set<<<1, (n)>>>((buffer), (value))
#define CHECKED(launch) \
  do {                  \
    launch;             \
    ++checked_launches; \
  } while (0)

int checked_launches = 0;

}  // namespace

namespace launch_e2e {

std::vector<float> fill_with_templates(int n) {
  std::vector<float> out(n), second(n);
  fill<float, 4><<<2, n / 2>>>(out.data(), 0.5f);
  (fill<float, 2>)<<<1, n>>>(second.data(), 3.0f);
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

std::vector<float> add_one_dim3(int n) {
  std::vector<float> x(n, 1.0f);
  cudaStream_t stream = nullptr;
  ns::add_one<<<dim3((n + 255) / 256), 256, 0, stream>>>(x.data(), n);
  return x;
}

std::vector<float> scale_deduced(int n) {
  std::vector<float> x(n, 3.0f);
  scale<<<1, n>>>(x.data(), 2.0f, n);  // T deduced as float
  return x;
}

std::vector<int> launched_from_macros(int n) {
  std::vector<int> out(n, 0);
  LAUNCH_SET(out.data(), n, 7);
  std::vector<int> second(n, 0);
  CHECKED(set<<<1, n>>>(second.data(), checked_launches + 40));
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

std::vector<int> default_arguments_and_stream_zero(int n) {
  std::vector<int> out(2 * n, 0);
  set_default<<<1, n, 0, 0>>>(out.data());
  set_default<<<1, n, 0, 0>>>(out.data() + n, 10);
  return out;
}

std::vector<int> launched_from_headers(int n) {
  std::vector<int> out(n, -1);
  launch_iota(out.data(), n);
  return out;
}

float sum_with_dynamic_shared(int n) {
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i + 1);
  float result = 0;
  block_sum<<<1, n, sizeof(std::array<float, 64>) / 64 * n>>>(in.data(), &result);
  return result;
}

const char* file_name() { return __FILE__; }

void trap_in_kernel() { traps<<<1, 32>>>(); }

}  // namespace launch_e2e
