// gelu_tanh launchers for the cuda backend (nvcc).
#define KV_BACKEND cuda
#include "kernels/gelu_tanh/launchers.inl"
