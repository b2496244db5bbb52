// matmul_relu launchers for the emu backend (host compiler, runtime/emu/model/cuda_model.hpp).
#define KV_BACKEND emu
#include "launchers.inl"  // by a relative path, so that kverify_emu_rewrite rewrites its launches too
