// Planted bugs for the sanitizer flavors of emu, run by ctest (runtime/emu/CMakeLists.txt):
//   shared-overflow  : a __shared__ array indexed past its end   -> ASan global-buffer-overflow
//   missing-barrier  : a shared-memory exchange without __syncthreads -> TSan data race
//   clean            : the same kernels without the bugs         -> no sanitizer report
#include <cstdio>
#include <cstring>
#include <vector>

#include "runtime/kernel_api.hpp"

namespace {

template <bool kOverflow>
__global__ void fill_shared(float* out) {
  __shared__ float tile[32];
  const unsigned i = kOverflow ? threadIdx.x + 1 : threadIdx.x;  // planted: thread 31 writes tile[32]
  float* row = tile;
  asm("" : "+r"(row));  // hide the array's bounds from UBSan's static checks: this demo is for ASan
  row[i] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

template <bool kWithBarrier>
__global__ void exchange(int* out) {
  __shared__ int slot[64];
  slot[threadIdx.x] = static_cast<int>(threadIdx.x);
  if (kWithBarrier) __syncthreads();
  out[threadIdx.x] = slot[63 - threadIdx.x];
}

}  // namespace

int main(int argc, char** argv) {
  using kverify::emu::launch;
  using kverify::emu::LaunchOptions;
  const char* mode = argc > 1 ? argv[1] : "";
  std::vector<float> f(64);
  std::vector<int> n(64);
  if (std::strcmp(mode, "shared-overflow") == 0) {
    launch(dim3(1), dim3(32), 0, {}, fill_shared<true>, f.data());
  } else if (std::strcmp(mode, "missing-barrier") == 0) {
    // The race exists under every order; several schedule seeds are run as a user would.
    for (std::uint64_t seed = 0; seed < 4; ++seed)
      launch(dim3(1), dim3(64), 0, LaunchOptions{seed}, exchange<false>, n.data());
  } else if (std::strcmp(mode, "clean") == 0) {
    launch(dim3(1), dim3(32), 0, {}, fill_shared<false>, f.data());
    for (std::uint64_t seed = 0; seed < 4; ++seed)
      launch(dim3(1), dim3(64), 0, LaunchOptions{seed}, exchange<true>, n.data());
  } else {
    std::fprintf(stderr, "usage: %s shared-overflow|missing-barrier|clean\n", argv[0]);
    return 2;
  }
  std::printf("%s: finished\n", mode);
  return 0;
}
