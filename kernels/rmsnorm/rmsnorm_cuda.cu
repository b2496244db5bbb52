// rmsnorm launchers for the cuda backend (nvcc).
#define KV_BACKEND cuda
#include "kernels/rmsnorm/launchers.inl"
