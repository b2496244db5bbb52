// matmul_relu launchers for the cuda backend (nvcc).
#define KV_BACKEND cuda
#include "kernels/matmul_relu/launchers.inl"
