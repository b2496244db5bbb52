// Kernels and a launcher in a header included by launcher.cu.
#pragma once

#include "sub/offset.cuh"

__global__ void iota_kernel(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x); }

inline void launch_iota(int* out, int n) {
  iota_kernel<<<1, n>>>(out);
  launch_add_offset(out, n, 100);
}
