// CUDA's memory spaces as a kernel file writes them, compiled for emu through the source
// rewrite (kverify_emu_rewrite): extern __shared__ (several declarations alias the one
// dynamic block), static __shared__, __shared__ in __device__ functions, __constant__ and
// __device__ globals through cudaMemcpyToSymbol, and host code that names its own gridDim.
// Launches are written as the `<<<>>>` rewrite emits them (kverify::emu::launch_kernel); that
// rewrite is not part of this test.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#if defined(threadIdx) || defined(blockIdx) || defined(blockDim) || defined(gridDim)
#error "the built-in index variables must not be macros"
#endif

namespace {

// --- extern __shared__ ---------------------------------------------------------------------------

struct SharedView {
  std::uintptr_t floats, ints, in_device_function, bytes;
  unsigned poison;  // the first word as the thread found it
  int through_alias;
};

__device__ std::uintptr_t address_from_device_function() {
  extern __shared__ double from_function[];
  return reinterpret_cast<std::uintptr_t>(from_function);
}

__global__ void alias_dynamic_shared(SharedView* out) {
  extern __shared__ float floats[];
  extern __shared__ __align__(16) int ints[];
  SharedView& v = out[blockIdx.x * blockDim.x + threadIdx.x];
  std::memcpy(&v.poison, &ints[threadIdx.x], 4);
  __syncthreads();
  v.floats = reinterpret_cast<std::uintptr_t>(floats);
  v.ints = reinterpret_cast<std::uintptr_t>(ints);
  v.in_device_function = address_from_device_function();
  v.bytes = kverify::emu::dynamic_shared_memory_bytes();
  ints[threadIdx.x] = static_cast<int>(threadIdx.x) * 10 + static_cast<int>(blockIdx.x);
  __syncthreads();
  v.through_alias = reinterpret_cast<int*>(floats)[blockDim.x - 1 - threadIdx.x];
}

TEST(EmuMemorySpaces, ExternSharedDeclarationsAliasOnePoisonedAlignedBlockOfTheLaunchSize) {
  std::vector<SharedView> out(3 * 64);
  kverify::emu::launch_kernel(alias_dynamic_shared, 3, 64, 1000, nullptr, out.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  for (int i = 0; i < 3 * 64; ++i) {
    const SharedView& v = out[i];
    EXPECT_EQ(v.floats, v.ints);
    EXPECT_EQ(v.floats, v.in_device_function);
    EXPECT_EQ(v.floats % 128, 0u) << "CUDA aligns dynamic shared memory to 128 bytes";
    EXPECT_EQ(v.bytes, 1000u);
    EXPECT_EQ(v.poison, 0xffffffffu) << "every block starts with poisoned (0xff) bytes";
    EXPECT_EQ(v.through_alias, (63 - i % 64) * 10 + i / 64);
  }
}

extern __shared__ float namespace_scope_shared[];

__global__ void namespace_scope_extern(float* out) {
  namespace_scope_shared[threadIdx.x] = 2.0f * threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = namespace_scope_shared[31 - threadIdx.x];
  float* as_pointer = namespace_scope_shared;
  if (threadIdx.x == 0) out[32] = as_pointer == kverify::emu::dynamic_shared_memory() ? 1.0f : 0.0f;
}

TEST(EmuMemorySpaces, NamespaceScopeExternSharedIsTheLaunchsBlock) {
  std::vector<float> out(33, -1);
  kverify::emu::launch_kernel(namespace_scope_extern, 1, 32, 32 * sizeof(float), nullptr, out.data());
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], 2.0f * (31 - t));
  EXPECT_EQ(out[32], 1.0f);
}

// --- __shared__ in __device__ functions, static __shared__ ----------------------------------------

__device__ int block_sum(int v) {
  __shared__ int partial[128];  // one array for the whole block, as in CUDA
  partial[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  const int total = partial[0];
  __syncthreads();
  return total;
}

__global__ void sums(int* out) {
  static __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  atomicAdd(&counter, 1);
  const int total = block_sum(static_cast<int>(threadIdx.x + blockIdx.x));
  __syncthreads();
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = total;
    out[2 * blockIdx.x + 1] = counter;
  }
}

TEST(EmuMemorySpaces, SharedArraysInDeviceFunctionsAndStaticSharedArePerBlock) {
  std::vector<int> out(8, 0);
  kverify::emu::ScheduleScope seed(7);
  kverify::emu::launch_kernel(sums, 4, 128, 0, nullptr, out.data());
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(out[2 * b], 127 * 128 / 2 + 128 * b);
    EXPECT_EQ(out[2 * b + 1], 128);
  }
}

// `__shared__ __align__(16)` as float4 tiles are declared (nvcc takes the alignment after the
// memory space; emu's __shared__ is `static`, so __align__ must be an attribute that may follow it).
__global__ void aligned_tile(std::uintptr_t* out) {
  __shared__ __align__(16) float tile[2][6];
  __shared__ __align__(64) unsigned char bytes[3];
  if (threadIdx.x == 0) {
    out[0] = reinterpret_cast<std::uintptr_t>(&tile[1][0]) - reinterpret_cast<std::uintptr_t>(&tile[0][0]);
    out[1] = reinterpret_cast<std::uintptr_t>(tile) % 16;
    out[2] = reinterpret_cast<std::uintptr_t>(bytes) % 64;
  }
}

TEST(EmuMemorySpaces, AlignedSharedArraysAfterTheMemorySpace) {
  std::vector<std::uintptr_t> out(3, 1);
  kverify::emu::launch_kernel(aligned_tile, 1, 32, 0, nullptr, out.data());
  EXPECT_EQ(out[0], 6 * sizeof(float));
  EXPECT_EQ(out[1], 0u);
  EXPECT_EQ(out[2], 0u);
}

// --- __constant__ and __device__ globals ---------------------------------------------------------

__constant__ float coefficients[4];
__device__ float results[16];
__device__ int device_counter;

__global__ void use_globals() {
  results[threadIdx.x] = coefficients[threadIdx.x % 4] * static_cast<float>(threadIdx.x);
  atomicAdd(&device_counter, 1);
}

TEST(EmuMemorySpaces, ConstantAndDeviceGlobalsRoundTripThroughTheSymbolCopies) {
  const float c[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  ASSERT_EQ(cudaMemcpyToSymbol(coefficients, c, sizeof c), cudaSuccess);
  const int zero = 0;
  ASSERT_EQ(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero), cudaSuccess);
  const float three = 30.0f;
  ASSERT_EQ(cudaMemcpyToSymbol(coefficients, &three, sizeof three, 2 * sizeof(float)), cudaSuccess) << "offset";
  kverify::emu::launch_kernel(use_globals, 1, 16, 0, nullptr);
  float r[16];
  ASSERT_EQ(cudaMemcpyFromSymbol(r, results, sizeof r), cudaSuccess);
  const float want_c[4] = {1.0f, 2.0f, 30.0f, 4.0f};
  for (int t = 0; t < 16; ++t) EXPECT_EQ(r[t], want_c[t % 4] * t);
  int n = -1;
  ASSERT_EQ(cudaMemcpyFromSymbol(&n, device_counter, sizeof n), cudaSuccess);
  EXPECT_EQ(n, 16);
  float tail[2];
  EXPECT_EQ(cudaMemcpyFromSymbol(tail, results, sizeof tail, 14 * sizeof(float)), cudaSuccess);
  EXPECT_EQ(tail[1], 15.0f * 4.0f);
  void* address = nullptr;
  ASSERT_EQ(cudaGetSymbolAddress(&address, results), cudaSuccess);
  EXPECT_EQ(address, static_cast<void*>(results));
  size_t size = 0;
  ASSERT_EQ(cudaGetSymbolSize(&size, coefficients), cudaSuccess);
  EXPECT_EQ(size, sizeof coefficients);
  // CUDA's refusals: past the symbol's end, a direction the copy cannot have, a non-symbol.
  EXPECT_EQ(cudaMemcpyToSymbol(coefficients, c, sizeof c, sizeof(float)), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToSymbol(coefficients, c, sizeof c, 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemcpyToSymbol(&coefficients, c, sizeof c), cudaErrorInvalidSymbol);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidSymbol) << "the last failure is the thread's last error";
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// --- host code naming the built-in variables -------------------------------------------------------

__global__ void fill_grid_shape(unsigned* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (int k = 0; k < 6; ++k) out[k] = (&gridDim.x)[k % 3] * 100 + (&blockDim.x)[k % 3] * (k < 3 ? 1 : 0);
}

TEST(EmuMemorySpaces, HostCodeDeclaresItsOwnGridDimAndBlockDim) {
  dim3 gridDim(2, 3);
  dim3 blockDim;
  blockDim.x = 8;
  const uint3 threadIdx = make_uint3(1, 2, 3);  // a host variable of that name too
  std::vector<unsigned> out(6, 0);
  kverify::emu::launch_kernel(fill_grid_shape, gridDim, blockDim, 0, nullptr, out.data());
  EXPECT_EQ(out[0], 2u * 100 + 8);
  EXPECT_EQ(out[1], 3u * 100 + 1);
  EXPECT_EQ(out[2], 1u * 100 + 1);
  EXPECT_EQ(out[3], 200u);
  EXPECT_EQ(threadIdx.z, 3u);
  const uint3 as_uint3 = gridDim;  // dim3 <-> uint3 as CUDA has them
  const dim3 back(as_uint3);
  EXPECT_EQ(back.y, 3u);
  EXPECT_EQ(dim3().z, 1u);
}

}  // namespace
