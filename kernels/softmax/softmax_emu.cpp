// softmax launchers for the emu backend (host compiler, runtime/emu/cuda_model.hpp).
#define KV_BACKEND emu
#include "kernels/softmax/launchers.inl"
