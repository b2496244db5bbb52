// emu: CUDA's cuda_fp16.h for host-compiled kernel code (both 16-bit types live in one header).
#pragma once
#include "../model/fp16.hpp"
