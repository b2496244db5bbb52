#define KV_BACKEND cuda
#include "kernels/scale/launchers.inl"
