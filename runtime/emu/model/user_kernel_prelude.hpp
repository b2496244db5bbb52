// Included by the emu TU of a kverify_add_kernel registration before the user's .cu, which is then
// compiled inside a namespace of its own (cmake/KverifyVariants.cmake): everything such a file may
// include from outside itself is included here first, at global scope, so that its own #include
// lines inside the namespace find include guards and add nothing. What is not here (a third-party
// library found through INCLUDE_DIRS) is included inside the namespace: fine for the user's own
// headers, an error for a library's, which then belongs in this list or in the user's stand-in.
#pragma once

#if __has_include(<bits/stdc++.h>)
#include <bits/stdc++.h>  // the whole C++ standard library (libstdc++, with GCC and Clang)
#endif
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_functions.h>
#include <device_launch_parameters.h>
#include <math_constants.h>
#include <vector_functions.h>
#include <vector_types.h>
#include <cub/cub.cuh>
#include <cuda/functional>

#include "kernels/common/backend_launch.hpp"
#include "kernels/launch_request.hpp"
#include "runtime/emu/model/launch_syntax.hpp"  // what the rewritten copy includes first
#include "runtime/kernel_api.hpp"
