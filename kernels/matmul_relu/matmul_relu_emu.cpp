// matmul_relu launchers for the emu backend (host compiler, runtime/emu/cuda_model.hpp).
#define KV_BACKEND emu
#include "kernels/matmul_relu/launchers.inl"
