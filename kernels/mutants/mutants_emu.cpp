// Mutant launchers for the emu backend.
#define KV_BACKEND emu
#include "kernels/mutants/launchers.inl"
