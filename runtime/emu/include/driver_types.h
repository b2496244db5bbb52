// emu: CUDA's driver_types.h for host-compiled kernel code (runtime/emu/cuda_model.hpp holds the model).
#pragma once
#include "../cuda_model.hpp"
