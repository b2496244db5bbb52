// The host API of launcher.cu (a CUDA source with <<<>>> launches), as plain C++ for the test
// that calls it.
#pragma once

#include <vector>

namespace launch_e2e {

// Each runs its kernels through <<<>>> launches written the ways users write them and returns
// what they produced.
std::vector<float> fill_with_templates(int n);              // k<T, 4><<<...>>>, (k<T, 2>)<<<...>>>
std::vector<float> add_one_dim3(int n);                     // ns::k<<<dim3((n + 255) / 256), 256, 0, s>>>
std::vector<float> scale_deduced(int n);                    // template arguments deduced from the call
std::vector<int> launched_from_macros(int n);               // a launch in a macro body, one in a macro argument
std::vector<int> default_arguments_and_stream_zero(int n);  // <<<g, b, 0, 0>>>, defaults left out
std::vector<int> launched_from_headers(int n);              // launchers in kernels.cuh and sub/offset.cuh
float sum_with_dynamic_shared(int n);                       // shmem from sizeof(std::array<...>) expressions
const char* file_name();                                    // __FILE__ of launcher.cu
void trap_in_kernel();                                      // a kernel that calls __trap(); throws LaunchError

}  // namespace launch_e2e
