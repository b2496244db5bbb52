// layernorm launchers for the cuda backend (nvcc).
#define KV_BACKEND cuda
#include "kernels/layernorm/launchers.inl"
