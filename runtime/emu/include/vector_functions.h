// emu: CUDA's vector_functions.h for host-compiled kernel code.
#pragma once
#include "../model/vector_types.hpp"
