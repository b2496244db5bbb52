// gelu_tanh launchers for the emu backend (host compiler, runtime/emu/cuda_model.hpp).
#define KV_BACKEND emu
#include "kernels/gelu_tanh/launchers.inl"
