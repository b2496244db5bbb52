// emu: CUDA's device_launch_parameters.h for host-compiled kernel code (the model: runtime/emu/model/).
#pragma once
#include "../model/cuda_model.hpp"
