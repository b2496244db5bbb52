// row_sum launchers for the emu backend.
#define KV_BACKEND emu
#include "kernels/row_sum/launchers.inl"
