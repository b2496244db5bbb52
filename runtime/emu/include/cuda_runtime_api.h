// emu: CUDA's cuda_runtime_api.h for host-compiled kernel code (runtime/emu/cuda_model.hpp holds the model).
#pragma once
#include "../cuda_model.hpp"
