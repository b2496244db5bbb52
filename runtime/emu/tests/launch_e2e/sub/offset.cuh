// Reached from kernels.cuh through a relative include: its launcher is rewritten too.
#pragma once

__global__ void add_offset(int* out, int offset) { out[threadIdx.x] += offset; }

inline void launch_add_offset(int* out, int n, int offset) { add_offset<<<1, n>>>(out, offset); }
