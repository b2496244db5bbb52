// Measures emu's speed: context switches per second on a barrier-heavy kernel and on a
// shuffle-heavy one. `kverify check` runs it; reports/emu/NOTES.md quotes the figure with its machine.
#include <chrono>
#include <cstdio>
#include <vector>

#include "runtime/kernel_api.hpp"

namespace {

__global__ void barriers(int rounds, int* out) {
  __shared__ int s[256];
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < rounds; ++r) {
    s[threadIdx.x] = v;
    __syncthreads();
    v += s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void shuffles(int rounds, float* out) {
  float v = static_cast<float>(threadIdx.x);
  for (int r = 0; r < rounds; ++r)
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

template <typename F>
void measure(const char* what, F&& run) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto stats = run();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-28s %10.3g switches/s  (%llu switches, %llu threads, %.3f s)\n", what,
              static_cast<double>(stats.switches) / s, static_cast<unsigned long long>(stats.switches),
              static_cast<unsigned long long>(stats.threads), s);
}

}  // namespace

int main() {
  using kverify::emu::launch;
  using kverify::emu::LaunchOptions;
  std::vector<int> out(64 * 256);
  std::vector<float> fout(64 * 256);
  measure("barriers, thread order", [&] { return launch(dim3(64), dim3(256), 0, {}, barriers, 50, out.data()); });
  measure("barriers, schedule seed 1",
          [&] { return launch(dim3(64), dim3(256), 0, LaunchOptions{1}, barriers, 50, out.data()); });
  measure("warp shuffles, thread order", [&] { return launch(dim3(64), dim3(256), 0, {}, shuffles, 20, fout.data()); });
  return 0;
}
