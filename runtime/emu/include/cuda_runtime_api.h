// emu: CUDA's cuda_runtime_api.h for host-compiled kernel code (runtime/emu/model/cuda_model.hpp holds the model).
#pragma once
#include "../model/cuda_model.hpp"
