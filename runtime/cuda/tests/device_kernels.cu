// Small device kernels for the cuda runtime tests.
#include <cstdint>

#include "runtime/cuda/check.hpp"
#include "runtime/kernel_api.hpp"

namespace kverify::cuda::testing {

__global__ void convert_f32(const float* in, std::uint16_t* half_bits, std::uint16_t* bf16_bits, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half h = kv::from_f32<__half>(in[i]);
  const __nv_bfloat16 b = kv::from_f32<__nv_bfloat16>(in[i]);
  half_bits[i] = __half_as_ushort(h);
  bf16_bits[i] = __bfloat16_as_ushort(b);
}

void launch_convert_f32(const float* in, std::uint16_t* half_bits, std::uint16_t* bf16_bits, int n) {
  convert_f32<<<(n + 255) / 256, 256>>>(in, half_bits, bf16_bits, n);
  check_launch("convert_f32");
}

__global__ void write_far_out_of_bounds(float* p) { p[threadIdx.x + (1ll << 40)] = 1.0f; }

void launch_bad_configuration() {
  write_far_out_of_bounds<<<1, 4096>>>(nullptr);  // 4096 threads per block: rejected at launch
  check_launch("write_far_out_of_bounds");
}

}  // namespace kverify::cuda::testing
