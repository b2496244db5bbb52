// row_sum launchers for the cuda backend (nvcc).
#define KV_BACKEND cuda
#include "kernels/row_sum/launchers.inl"
