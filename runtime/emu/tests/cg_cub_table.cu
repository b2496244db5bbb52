// One table of cooperative-groups and CUB results, from the same source on the GPU (nvcc with the
// toolkit's cooperative_groups and CCCL: emu_cg_cub_table_cuda) and on emu (the host compiler with
// emu's headers: emu_cg_cub_table). Each row is a result of thread 0 (or of a named thread) as
// float bits, so the two tables can be compared bit for bit:
//
//   emu_cg_cub_table_cuda > gpu.txt          (on a GPU; tools/gpu-cg-cub-table.sh)
//   emu_cg_cub_table --compare gpu.txt       (anywhere: exit 1 and the rows that differ)
//
// The inputs mix magnitudes so that every change of summation order changes a float sum.
// Reductions are additions, maxima and minima only (nothing nvcc could contract into an FMA).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/cub.cuh>
#include <cuda/functional>
#include <fstream>
#include <string>
#include <vector>

#if !defined(__CUDACC__)
#include "runtime/kernel_api.hpp"
#endif

namespace cg = cooperative_groups;

namespace {

// Memory both sides can touch: managed memory on the GPU, host memory on emu (until emu has the
// CUDA runtime's allocation calls).
template <class T>
T* alloc(std::size_t n) {
#if defined(__CUDACC__)
  T* p = nullptr;
  if (cudaMallocManaged(&p, n * sizeof(T)) != cudaSuccess) {
    std::fprintf(stderr, "cudaMallocManaged failed\n");
    std::exit(2);
  }
  return p;
#else
  return new T[n];
#endif
}
template <class T>
void release(T* p) {
#if defined(__CUDACC__)
  cudaFree(p);
#else
  delete[] p;
#endif
}
void finish(const char* what) {
#if defined(__CUDACC__)
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
#else
  (void)what;
#endif
}

std::vector<std::string> rows;

void row(const std::string& name, float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  char line[160];
  std::snprintf(line, sizeof line, "%-44s %08x %.9g", name.c_str(), bits, static_cast<double>(v));
  rows.push_back(line);
}
void row(const std::string& name, long long v) {
  char line[160];
  std::snprintf(line, sizeof line, "%-44s %lld", name.c_str(), v);
  rows.push_back(line);
}

float tricky(int i) {
  static const float kParts[] = {1e8f, 1.0f, -1e8f, 3.25f, 7e7f, -0.5f, 1e-3f, -7e7f, 2.5e7f, 9.0f, 0.3f};
  return kParts[(i * 7) % 11] * (1.0f + 0.0625f * static_cast<float>(i % 13));
}

struct PlainAdd {  // not one of libcu++'s functors: CUB's ThreadReduce folds left to right
  __device__ float operator()(float a, float b) const { return a + b; }
};

// --- kernels -----------------------------------------------------------------------------------------

template <unsigned N>
__global__ void cg_reduce(const float* in, float* plus, float* maximum, float* minimum, int* isum) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  const unsigned t = block.thread_rank();
  plus[t] = cg::reduce(tile, in[t], cg::plus<float>());
  maximum[t] = cg::reduce(tile, in[t], cg::greater<float>());
  minimum[t] = cg::reduce(tile, in[t], cg::less<float>());
  isum[t] = cg::reduce(tile, static_cast<int>(in[t]) / 1000, cg::plus<int>());
}

template <int N>
__global__ void warp_sum(const float* in, int valid, float* out) {
  using WR = cub::WarpReduce<float, N>;
  __shared__ typename WR::TempStorage temp[(32 + N - 1) / N];
  const unsigned t = threadIdx.x;
  out[t] = valid < 0 ? WR(temp[t / N]).Sum(in[t]) : WR(temp[t / N]).Sum(in[t], valid);
}

template <int BT, cub::BlockReduceAlgorithm ALG>
__global__ void block_sum(const float* in, int valid, float* out) {
  using BR = cub::BlockReduce<float, BT, ALG>;
  __shared__ typename BR::TempStorage temp;
  const float v = in[threadIdx.x];
  const float r = valid < 0 ? BR(temp).Sum(v) : BR(temp).Sum(v, valid);
  if (threadIdx.x == 0) *out = r;
}

template <int BT, cub::BlockReduceAlgorithm ALG>
__global__ void block_sum_items(const float* in, float* out) {
  using BR = cub::BlockReduce<float, BT, ALG>;
  __shared__ typename BR::TempStorage temp;
  float items[4];
  for (int i = 0; i < 4; ++i) items[i] = in[threadIdx.x * 4 + i];
  const float r = BR(temp).Sum(items);
  if (threadIdx.x == 0) *out = r;
}

template <int BT, cub::BlockReduceAlgorithm ALG, class Op>
__global__ void block_reduce(const float* in, Op op, float* out) {
  using BR = cub::BlockReduce<float, BT, ALG>;
  __shared__ typename BR::TempStorage temp;
  const float r = BR(temp).Reduce(in[threadIdx.x], op);
  if (threadIdx.x == 0) *out = r;
}

template <cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
__global__ void load_store(const int* in, int valid, int* loaded, int* stored) {
  using BL = cub::BlockLoad<int, 64, 4, LOAD>;
  using BS = cub::BlockStore<int, 64, 4, STORE>;
  __shared__ typename BL::TempStorage load_temp;
  __shared__ typename BS::TempStorage store_temp;
  int items[4];
  BL(load_temp).Load(in, items, valid, -1);
  for (int i = 0; i < 4; ++i) loaded[threadIdx.x * 4 + i] = items[i];
  BS(store_temp).Store(stored, items, valid + 17);
}

// --- the table -----------------------------------------------------------------------------------------

const char* name(cub::BlockReduceAlgorithm a) {
  return a == cub::BLOCK_REDUCE_RAKING            ? "raking"
         : a == cub::BLOCK_REDUCE_WARP_REDUCTIONS ? "warp_reductions"
                                                  : "raking_commutative";
}

template <unsigned N>
void cg_rows(const float* in) {
  float *plus = alloc<float>(64), *maximum = alloc<float>(64), *minimum = alloc<float>(64);
  int* isum = alloc<int>(64);
  cg_reduce<N><<<1, 64>>>(in, plus, maximum, minimum, isum);
  finish("cg_reduce");
  const std::string tile = "/tile" + std::to_string(N);
  row("cg_reduce_plus_f32" + tile + "/t0", plus[0]);
  row("cg_reduce_plus_f32" + tile + "/t" + std::to_string(2 * N - 1), plus[2 * N - 1]);
  row("cg_reduce_greater_f32" + tile + "/t0", maximum[0]);
  row("cg_reduce_less_f32" + tile + "/t0", minimum[0]);
  row("cg_reduce_plus_i32" + tile + "/t0", static_cast<long long>(isum[0]));
  release(plus);
  release(maximum);
  release(minimum);
  release(isum);
}

template <int N>
void warp_rows(const float* in) {
  const int block = (N & (N - 1)) != 0 ? N : 32;  // a size that does not divide 32: one logical warp
  float* out = alloc<float>(32);
  for (int valid : {-1, N - 1, N / 2 + 1}) {
    if (valid == 0) continue;
    warp_sum<N><<<1, block>>>(in, valid, out);
    finish("warp_sum");
    const std::string base =
        "cub_warp_sum_f32/w" + std::to_string(N) + (valid < 0 ? "" : "/valid" + std::to_string(valid));
    row(base + "/lane0", out[0]);
    if (block >= 2 * N) row(base + "/lane" + std::to_string(N), out[N]);
  }
  release(out);
}

template <int BT, cub::BlockReduceAlgorithm ALG>
void block_rows(const float* in) {
  float* out = alloc<float>(1);
  for (int valid : {-1, BT - 5, BT / 2 + 3}) {
    if (valid <= 0 && valid != -1) continue;
    block_sum<BT, ALG><<<1, BT>>>(in, valid, out);
    finish("block_sum");
    row(std::string("cub_block_sum_f32/") + name(ALG) + "/" + std::to_string(BT) +
            (valid < 0 ? "" : "/valid" + std::to_string(valid)),
        *out);
  }
  release(out);
}

template <cub::BlockReduceAlgorithm ALG>
void block_alg_rows(const float* in) {
  block_rows<24, ALG>(in);
  block_rows<32, ALG>(in);
  block_rows<48, ALG>(in);
  block_rows<64, ALG>(in);
  block_rows<96, ALG>(in);
  block_rows<128, ALG>(in);
  block_rows<256, ALG>(in);
  block_rows<512, ALG>(in);
  block_rows<1024, ALG>(in);
  float* out = alloc<float>(1);
  block_sum_items<128, ALG><<<1, 128>>>(in, out);
  finish("block_sum_items");
  row(std::string("cub_block_sum_items4_f32/") + name(ALG) + "/128", *out);
  block_reduce<128, ALG><<<1, 128>>>(in, ::cuda::maximum<>{}, out);
  finish("block_reduce maximum");
  row(std::string("cub_block_reduce_maximum_f32/") + name(ALG) + "/128", *out);
  block_reduce<128, ALG><<<1, 128>>>(in, PlainAdd{}, out);
  finish("block_reduce PlainAdd");
  row(std::string("cub_block_reduce_plainadd_f32/") + name(ALG) + "/128", *out);
  release(out);
}

template <cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
void load_store_rows(const char* load_name, const int* in) {
  int *loaded = alloc<int>(256), *stored = alloc<int>(256);
  for (int i = 0; i < 256; ++i) stored[i] = -3;
  load_store<LOAD, STORE><<<1, 64>>>(in, 200, loaded, stored);
  finish("load_store");
  long long l = 0, s = 0;
  for (int k = 0; k < 256; ++k) {
    l += static_cast<long long>(k + 1) * loaded[k];
    s += static_cast<long long>(k + 1) * stored[k];
  }
  row(std::string("cub_block_load_checksum/") + load_name, l);
  row(std::string("cub_block_store_checksum/") + load_name, s);
  release(loaded);
  release(stored);
}

int compare(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    return 2;
  }
  std::vector<std::string> want;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') want.push_back(line);
  int differ = 0;
  for (std::size_t i = 0; i < rows.size() || i < want.size(); ++i) {
    const std::string got = i < rows.size() ? rows[i] : "(missing)";
    const std::string expected = i < want.size() ? want[i] : "(missing)";
    if (got != expected) {
      ++differ;
      std::printf("differs: here  %s\n         there %s\n", got.c_str(), expected.c_str());
    }
  }
  std::printf("%zu rows, %d differ from %s\n", rows.size(), differ, path);
  return differ == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  float* in = alloc<float>(1024);
  for (int i = 0; i < 1024; ++i) in[i] = tricky(i);
  int* ints = alloc<int>(256);
  for (int i = 0; i < 256; ++i) ints[i] = 7 + i * 3;

  cg_rows<2>(in);
  cg_rows<4>(in);
  cg_rows<8>(in);
  cg_rows<16>(in);
  cg_rows<32>(in);
  warp_rows<1>(in);
  warp_rows<2>(in);
  warp_rows<4>(in);
  warp_rows<8>(in);
  warp_rows<16>(in);
  warp_rows<32>(in);
  warp_rows<3>(in);
  warp_rows<24>(in);
  block_alg_rows<cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in);
  block_alg_rows<cub::BLOCK_REDUCE_RAKING>(in);
  block_alg_rows<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in);
  load_store_rows<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>("direct", ints);
  load_store_rows<cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>("striped", ints);
  load_store_rows<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>("vectorize", ints);
  load_store_rows<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>("transpose", ints);
  load_store_rows<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>("warp_transpose", ints);
  load_store_rows<cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>(
      "warp_transpose_timesliced", ints);
  release(in);
  release(ints);

  if (argc == 3 && std::string(argv[1]) == "--compare") return compare(argv[2]);
  for (const std::string& r : rows) std::printf("%s\n", r.c_str());
  return 0;
}
