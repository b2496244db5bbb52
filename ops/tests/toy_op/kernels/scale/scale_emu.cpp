#define KV_BACKEND emu
#include "kernels/scale/launchers.inl"
