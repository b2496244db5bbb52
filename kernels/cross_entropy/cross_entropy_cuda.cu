// cross_entropy launchers for the cuda backend (nvcc).
#define KV_BACKEND cuda
#include "kernels/cross_entropy/launchers.inl"
