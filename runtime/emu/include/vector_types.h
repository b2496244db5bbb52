// emu: CUDA's vector_types.h for host-compiled kernel code.
#pragma once
#include "../model/vector_types.hpp"
