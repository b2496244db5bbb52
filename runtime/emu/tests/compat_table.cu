// The emu/GPU compatibility table: the rows of compat_rows.hpp computed by a kernel, printed one
// per line as `name(inputs) = result [source]` in raw bits. One source, built twice:
//   emu_compat_table_cuda  nvcc, on the GPU (KVERIFY_HAVE_CUDA builds);
//   emu_compat_table       the host compiler against emu's CUDA headers.
// ctest compares emu's table with the committed compat_table.expected (whose toolkit rows come
// from the toolkit's host functions, compat_table_oracle.cpp); the GPU's is compared with the
// same file on a GPU run (`emu_compat_table_cuda | diff - compat_table.expected`): only a GPU
// establishes the device and approx rows.
//
//   --exhaustive   every f16/bf16 input of the 16-bit math functions: a hash of the results and
//                  the inputs where they differ from the correctly rounded value (a double result
//                  rounded once); on the GPU also __hdiv over all 2^32 f16 pairs.
//   --device       the device's properties, attributes, launch refusals and occupancy.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compat_rows.hpp"

#if defined(__CUDACC__)
#define COMPAT_LAUNCH(kernel, grid, block, shared, ...) kernel<<<(grid), (block), (shared)>>>(__VA_ARGS__)
#else
#define COMPAT_LAUNCH(kernel, grid, block, shared, ...) \
  ::kverify::emu::launch_kernel(kernel, (grid), (block), (shared), nullptr, __VA_ARGS__)
#endif

namespace {

struct DeviceRow {
  int op;
  unsigned long long a, b, c;
};

__device__ __half h(unsigned long long v) { return __ushort_as_half(static_cast<unsigned short>(v)); }
__device__ __nv_bfloat16 bf(unsigned long long v) { return __ushort_as_bfloat16(static_cast<unsigned short>(v)); }
__device__ float f(unsigned long long v) { return __uint_as_float(static_cast<unsigned int>(v)); }
__device__ unsigned long long hb(__half v) { return __half_as_ushort(v); }
__device__ unsigned long long bb(__nv_bfloat16 v) { return __bfloat16_as_ushort(v); }
__device__ unsigned long long fb(float v) { return __float_as_uint(v); }
__device__ unsigned long long ib(int v) { return static_cast<unsigned int>(v); }

__device__ unsigned long long compute(const DeviceRow& r) {
  using compat::Op;
  const unsigned long long a = r.a, b = r.b, c = r.c;
  const unsigned ua = static_cast<unsigned>(a), ub = static_cast<unsigned>(b), uc = static_cast<unsigned>(c);
  switch (static_cast<Op>(r.op)) {
    case Op::f32_to_f16:
      return hb(__float2half_rn(f(a)));
    case Op::f16_to_f32:
      return fb(__half2float(h(a)));
    case Op::f32_to_bf16:
      return bb(__float2bfloat16_rn(f(a)));
    case Op::bf16_to_f32:
      return fb(__bfloat162float(bf(a)));
    case Op::f64_to_f16:
      return hb(__double2half(__longlong_as_double(static_cast<long long>(a))));
    case Op::f64_to_bf16:
      return bb(__double2bfloat16(__longlong_as_double(static_cast<long long>(a))));
    case Op::hadd:
      return hb(__hadd(h(a), h(b)));
    case Op::hsub:
      return hb(__hsub(h(a), h(b)));
    case Op::hmul:
      return hb(__hmul(h(a), h(b)));
    case Op::hdiv:
      return hb(__hdiv(h(a), h(b)));
    case Op::hadd_bf:
      return bb(__hadd(bf(a), bf(b)));
    case Op::hsub_bf:
      return bb(__hsub(bf(a), bf(b)));
    case Op::hmul_bf:
      return bb(__hmul(bf(a), bf(b)));
    case Op::hdiv_bf:
      return bb(__hdiv(bf(a), bf(b)));
    case Op::hfma:
      return hb(__hfma(h(a), h(b), h(c)));
    case Op::hfma_bf:
      return bb(__hfma(bf(a), bf(b), bf(c)));
    case Op::hfma_relu:
      return hb(__hfma_relu(h(a), h(b), h(c)));
    case Op::hmax:
      return hb(__hmax(h(a), h(b)));
    case Op::hmin:
      return hb(__hmin(h(a), h(b)));
    case Op::hmax_nan:
      return hb(__hmax_nan(h(a), h(b)));
    case Op::hmin_nan:
      return hb(__hmin_nan(h(a), h(b)));
    case Op::hmax_bf:
      return bb(__hmax(bf(a), bf(b)));
    case Op::hmin_bf:
      return bb(__hmin(bf(a), bf(b)));
    case Op::hmax_nan_bf:
      return bb(__hmax_nan(bf(a), bf(b)));
    case Op::hmin_nan_bf:
      return bb(__hmin_nan(bf(a), bf(b)));
    case Op::hneg:
      return hb(__hneg(h(a)));
    case Op::habs:
      return hb(__habs(h(a)));
    case Op::hneg_bf:
      return bb(__hneg(bf(a)));
    case Op::habs_bf:
      return bb(__habs(bf(a)));
    case Op::heq:
      return __heq(h(a), h(b));
    case Op::hne:
      return __hne(h(a), h(b));
    case Op::hlt:
      return __hlt(h(a), h(b));
    case Op::hge:
      return __hge(h(a), h(b));
    case Op::hneu:
      return __hneu(h(a), h(b));
    case Op::hisnan:
      return __hisnan(h(a));
    case Op::hisinf:
      return ib(__hisinf(h(a)));
    case Op::heq_bf:
      return __heq(bf(a), bf(b));
    case Op::hlt_bf:
      return __hlt(bf(a), bf(b));
    case Op::hexp:
      return hb(hexp(h(a)));
    case Op::hexp2:
      return hb(hexp2(h(a)));
    case Op::hlog:
      return hb(hlog(h(a)));
    case Op::hsqrt:
      return hb(hsqrt(h(a)));
    case Op::hrsqrt:
      return hb(hrsqrt(h(a)));
    case Op::hrcp:
      return hb(hrcp(h(a)));
    case Op::hexp_bf:
      return bb(hexp(bf(a)));
    case Op::hsqrt_bf:
      return bb(hsqrt(bf(a)));
    case Op::hrsqrt_bf:
      return bb(hrsqrt(bf(a)));
    case Op::h2int_rz:
      return ib(__half2int_rz(h(a)));
    case Op::h2ll_rz:
      return static_cast<unsigned long long>(__half2ll_rz(h(a)));
    case Op::int2h_rn:
      return hb(__int2half_rn(static_cast<int>(a)));
    case Op::ll2bf_rn:
      return bb(__ll2bfloat16_rn(static_cast<long long>(a)));
    case Op::bf2int_rz:
      return ib(__bfloat162int_rz(bf(a)));
    case Op::popc:
      return ib(__popc(ua));
    case Op::popcll:
      return ib(__popcll(a));
    case Op::clz:
      return ib(__clz(static_cast<int>(ua)));
    case Op::clzll:
      return ib(__clzll(static_cast<long long>(a)));
    case Op::ffs:
      return ib(__ffs(static_cast<int>(ua)));
    case Op::ffsll:
      return ib(__ffsll(static_cast<long long>(a)));
    case Op::brev:
      return __brev(ua);
    case Op::brevll:
      return __brevll(a);
    case Op::byte_perm:
      return __byte_perm(ua, ub, uc);
    case Op::funnelshift_l:
      return __funnelshift_l(ua, ub, uc);
    case Op::funnelshift_lc:
      return __funnelshift_lc(ua, ub, uc);
    case Op::funnelshift_r:
      return __funnelshift_r(ua, ub, uc);
    case Op::funnelshift_rc:
      return __funnelshift_rc(ua, ub, uc);
    case Op::umulhi:
      return __umulhi(ua, ub);
    case Op::mulhi:
      return ib(__mulhi(static_cast<int>(ua), static_cast<int>(ub)));
    case Op::umul64hi:
      return __umul64hi(a, b);
    case Op::mul64hi:
      return static_cast<unsigned long long>(__mul64hi(static_cast<long long>(a), static_cast<long long>(b)));
    case Op::sad:
      return __sad(static_cast<int>(ua), static_cast<int>(ub), uc);
    case Op::usad:
      return __usad(ua, ub, uc);
    case Op::hadd_int:
      return ib(__hadd(static_cast<int>(ua), static_cast<int>(ub)));
    case Op::rhadd:
      return ib(__rhadd(static_cast<int>(ua), static_cast<int>(ub)));
    case Op::mul24:
      return ib(__mul24(static_cast<int>(ua), static_cast<int>(ub)));
    case Op::umul24:
      return __umul24(ua, ub);
    case Op::float2int_rn:
      return ib(__float2int_rn(f(a)));
    case Op::float2int_rz:
      return ib(__float2int_rz(f(a)));
    case Op::float2int_ru:
      return ib(__float2int_ru(f(a)));
    case Op::float2int_rd:
      return ib(__float2int_rd(f(a)));
    case Op::float2uint_rn:
      return __float2uint_rn(f(a));
    case Op::float2ll_rn:
      return static_cast<unsigned long long>(__float2ll_rn(f(a)));
    case Op::float2ll_rz:
      return static_cast<unsigned long long>(__float2ll_rz(f(a)));
    case Op::int2float_rn:
      return fb(__int2float_rn(static_cast<int>(ua)));
    case Op::int2float_rz:
      return fb(__int2float_rz(static_cast<int>(ua)));
    case Op::int2float_ru:
      return fb(__int2float_ru(static_cast<int>(ua)));
    case Op::int2float_rd:
      return fb(__int2float_rd(static_cast<int>(ua)));
    case Op::ll2float_rn:
      return fb(__ll2float_rn(static_cast<long long>(a)));
    case Op::fadd_rz:
      return fb(__fadd_rz(f(a), f(b)));
    case Op::fadd_ru:
      return fb(__fadd_ru(f(a), f(b)));
    case Op::fadd_rd:
      return fb(__fadd_rd(f(a), f(b)));
    case Op::fmul_rz:
      return fb(__fmul_rz(f(a), f(b)));
    case Op::fmul_ru:
      return fb(__fmul_ru(f(a), f(b)));
    case Op::fdiv_rn:
      return fb(__fdiv_rn(f(a), f(b)));
    case Op::fdiv_rz:
      return fb(__fdiv_rz(f(a), f(b)));
    case Op::fdiv_ru:
      return fb(__fdiv_ru(f(a), f(b)));
    case Op::fsqrt_rn:
      return fb(__fsqrt_rn(f(a)));
    case Op::frcp_rn:
      return fb(__frcp_rn(f(a)));
    case Op::fmaf_rn:
      return fb(__fmaf_rn(f(a), f(b), f(c)));
    case Op::saturatef:
      return fb(__saturatef(f(a)));
    case Op::expf_fast:
      return fb(__expf(f(a)));
    case Op::logf_fast:
      return fb(__logf(f(a)));
    case Op::sinf_fast:
      return fb(__sinf(f(a)));
    case Op::cosf_fast:
      return fb(__cosf(f(a)));
    case Op::exp10f_fast:
      return fb(__exp10f(f(a)));
    case Op::log2f_fast:
      return fb(__log2f(f(a)));
    case Op::powf_fast:
      return fb(__powf(f(a), f(b)));
    case Op::fdividef:
      return fb(__fdividef(f(a), f(b)));
  }
  return 0xdeadbeefdeadbeefull;
}

__global__ void compute_rows(const DeviceRow* rows, unsigned long long* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = compute(rows[i]);
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <typename T>
T* device_copy(const std::vector<T>& host) {
  T* d = nullptr;
  check(cudaMalloc(reinterpret_cast<void**>(&d), host.size() * sizeof(T)), "cudaMalloc");
  check(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  return d;
}

void print_table() {
  std::vector<DeviceRow> rows;
  for (const compat::Row& r : compat::kRows) rows.push_back({static_cast<int>(r.op), r.a, r.b, r.c});
  DeviceRow* d_rows = device_copy(rows);
  unsigned long long* d_out = nullptr;
  check(cudaMalloc(reinterpret_cast<void**>(&d_out), rows.size() * sizeof(unsigned long long)), "cudaMalloc");
  COMPAT_LAUNCH(compute_rows, dim3((compat::kRowCount + 127) / 128), dim3(128), 0, d_rows, d_out, compat::kRowCount);
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "synchronize");
  std::vector<unsigned long long> out(rows.size());
  check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (int i = 0; i < compat::kRowCount; ++i) {
    const compat::Row& r = compat::kRows[i];
    std::printf("%s(", r.name);
    const unsigned long long args[] = {r.a, r.b, r.c};
    for (int k = 0; k < r.arity; ++k) std::printf("%s0x%llx", k ? ", " : "", args[k]);
    std::printf(") = 0x%llx [%s]\n", out[i], compat::source_name(r.source));
  }
  cudaFree(d_rows);
  cudaFree(d_out);
}

// --- --exhaustive ------------------------------------------------------------------------------------

enum Unary { u_exp, u_exp2, u_exp10, u_log, u_log2, u_log10, u_sqrt, u_rsqrt, u_rcp, u_sin, u_cos, u_count };
const char* const kUnaryNames[] = {"hexp",  "hexp2",  "hexp10", "hlog", "hlog2", "hlog10",
                                   "hsqrt", "hrsqrt", "hrcp",   "hsin", "hcos"};

__device__ double reference(int fn, double x) {
  switch (fn) {
    case u_exp:
      return exp(x);
    case u_exp2:
      return exp2(x);
    case u_exp10:
      return exp10(x);
    case u_log:
      return log(x);
    case u_log2:
      return log2(x);
    case u_log10:
      return log10(x);
    case u_sqrt:
      return sqrt(x);
    case u_rsqrt:
      return x == 0 ? 1.0 / x : 1.0 / sqrt(x);
    case u_rcp:
      return 1.0 / x;
    case u_sin:
      return sin(x);
    case u_cos:
      return cos(x);
  }
  return 0;
}

template <typename H>
__device__ H apply(int fn, H x) {
  switch (fn) {
    case u_exp:
      return hexp(x);
    case u_exp2:
      return hexp2(x);
    case u_exp10:
      return hexp10(x);
    case u_log:
      return hlog(x);
    case u_log2:
      return hlog2(x);
    case u_log10:
      return hlog10(x);
    case u_sqrt:
      return hsqrt(x);
    case u_rsqrt:
      return hrsqrt(x);
    case u_rcp:
      return hrcp(x);
    case u_sin:
      return hsin(x);
    case u_cos:
      return hcos(x);
  }
  return x;
}

// out[i] = f(input i), ref[i] = the double result rounded once (NaN compared as any NaN).
__global__ void unary_all(int fn, int bf16, unsigned short* out, unsigned short* ref) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned short bits = static_cast<unsigned short>(i);
  if (bf16) {
    const __nv_bfloat16 x = __ushort_as_bfloat16(bits);
    out[i] = __bfloat16_as_ushort(apply(fn, x));
    ref[i] = __bfloat16_as_ushort(__double2bfloat16(reference(fn, static_cast<double>(__bfloat162float(x)))));
  } else {
    const __half x = __ushort_as_half(bits);
    out[i] = __half_as_ushort(apply(fn, x));
    ref[i] = __half_as_ushort(__double2half(reference(fn, static_cast<double>(__half2float(x)))));
  }
}

bool is_nan16(unsigned short v, int bf16) { return (v & 0x7fff) > (bf16 ? 0x7f80 : 0x7c00); }

void exhaustive_unary() {
  unsigned short *d_out = nullptr, *d_ref = nullptr;
  check(cudaMalloc(reinterpret_cast<void**>(&d_out), 65536 * 2), "cudaMalloc");
  check(cudaMalloc(reinterpret_cast<void**>(&d_ref), 65536 * 2), "cudaMalloc");
  std::vector<unsigned short> out(65536), ref(65536);
  for (int bf16 = 0; bf16 < 2; ++bf16)
    for (int fn = 0; fn < u_count; ++fn) {
      COMPAT_LAUNCH(unary_all, dim3(256), dim3(256), 0, fn, bf16, d_out, d_ref);
      check(cudaGetLastError(), "launch");
      check(cudaMemcpy(out.data(), d_out, 65536 * 2, cudaMemcpyDeviceToHost), "cudaMemcpy");
      check(cudaMemcpy(ref.data(), d_ref, 65536 * 2, cudaMemcpyDeviceToHost), "cudaMemcpy");
      unsigned long long hash = 1469598103934665603ull;  // FNV-1a over the results
      int differ = 0;
      std::printf("%s(%s) over all 65536 inputs:", kUnaryNames[fn], bf16 ? "bf16" : "f16");
      for (int i = 0; i < 65536; ++i) {
        hash = (hash ^ out[i]) * 1099511628211ull;
        const bool same = out[i] == ref[i] || (is_nan16(out[i], bf16) && is_nan16(ref[i], bf16));
        if (!same && ++differ <= 6) std::printf(" [0x%04x -> 0x%04x, rounded 0x%04x]", i, out[i], ref[i]);
      }
      std::printf(" %d differ from the double result rounded once; hash 0x%016llx\n", differ, hash);
    }
  cudaFree(d_out);
  cudaFree(d_ref);
}

#if defined(__CUDACC__)
__device__ bool is_nan16_device(unsigned short v) { return (v & 0x7fff) > 0x7c00; }

__global__ void hdiv_all(unsigned long long* differ, unsigned int* first) {
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const __half a = __ushort_as_half(static_cast<unsigned short>(i >> 16));
  const __half b = __ushort_as_half(static_cast<unsigned short>(i & 0xffff));
  const unsigned short got = __half_as_ushort(__hdiv(a, b));
  const unsigned short want =
      __half_as_ushort(__double2half(static_cast<double>(__half2float(a)) / static_cast<double>(__half2float(b))));
  if (got != want && !(is_nan16_device(got) && is_nan16_device(want))) {
    const unsigned long long k = atomicAdd(differ, 1ull);
    if (k < 8) first[k] = static_cast<unsigned int>(i);
  }
}
#endif

void exhaustive_hdiv() {
#if defined(__CUDACC__)
  unsigned long long* d_differ = nullptr;
  unsigned int* d_first = nullptr;
  check(cudaMalloc(reinterpret_cast<void**>(&d_differ), sizeof(unsigned long long)), "cudaMalloc");
  check(cudaMalloc(reinterpret_cast<void**>(&d_first), 8 * sizeof(unsigned int)), "cudaMalloc");
  check(cudaMemset(d_differ, 0, sizeof(unsigned long long)), "cudaMemset");
  hdiv_all<<<1u << 24, 256>>>(d_differ, d_first);
  check(cudaGetLastError(), "launch");
  unsigned long long differ = 0;
  unsigned int first[8] = {};
  check(cudaMemcpy(&differ, d_differ, sizeof differ, cudaMemcpyDeviceToHost), "cudaMemcpy");
  check(cudaMemcpy(first, d_first, sizeof first, cudaMemcpyDeviceToHost), "cudaMemcpy");
  std::printf("__hdiv over all 2^32 f16 pairs: %llu differ from the correctly rounded quotient", differ);
  for (unsigned long long k = 0; k < differ && k < 8; ++k)
    std::printf(" [0x%04x / 0x%04x]", first[k] >> 16, first[k] & 0xffff);
  std::printf("\n");
#else
  std::printf("__hdiv over all 2^32 f16 pairs: not run on emu (emu's __hdiv is the correctly rounded quotient)\n");
#endif
}

// --- --device ----------------------------------------------------------------------------------------

__global__ void probe_kernel(int* out) {
  if (out) out[threadIdx.x] = static_cast<int>(threadIdx.x);
}
__global__ void probe_kernel_big(int* out) {
  if (out) out[threadIdx.x] = static_cast<int>(threadIdx.x);
}

void print_device() {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  std::printf("name %s\n", p.name);
#define P(field) std::printf(#field " %lld\n", static_cast<long long>(p.field))
  P(totalGlobalMem);
  P(sharedMemPerBlock);
  P(regsPerBlock);
  P(warpSize);
  P(memPitch);
  P(maxThreadsPerBlock);
  P(maxThreadsDim[0]);
  P(maxThreadsDim[1]);
  P(maxThreadsDim[2]);
  P(maxGridSize[0]);
  P(maxGridSize[1]);
  P(maxGridSize[2]);
  P(totalConstMem);
  P(major);
  P(minor);
  P(textureAlignment);
  P(texturePitchAlignment);
  P(multiProcessorCount);
  P(integrated);
  P(canMapHostMemory);
  P(concurrentKernels);
  P(ECCEnabled);
  P(asyncEngineCount);
  P(unifiedAddressing);
  P(memoryBusWidth);
  P(l2CacheSize);
  P(persistingL2CacheMaxSize);
  P(maxThreadsPerMultiProcessor);
  P(streamPrioritiesSupported);
  P(globalL1CacheSupported);
  P(localL1CacheSupported);
  P(sharedMemPerMultiprocessor);
  P(regsPerMultiprocessor);
  P(managedMemory);
  P(isMultiGpuBoard);
  P(hostNativeAtomicSupported);
  P(pageableMemoryAccess);
  P(concurrentManagedAccess);
  P(computePreemptionSupported);
  P(canUseHostPointerForRegisteredMem);
  P(cooperativeLaunch);
  P(sharedMemPerBlockOptin);
  P(pageableMemoryAccessUsesHostPageTables);
  P(directManagedMemAccessFromHost);
  P(maxBlocksPerMultiProcessor);
  P(accessPolicyMaxWindowSize);
  P(reservedSharedMemPerBlock);
  P(hostRegisterSupported);
  P(sparseCudaArraySupported);
  P(hostRegisterReadOnlySupported);
  P(timelineSemaphoreInteropSupported);
  P(memoryPoolsSupported);
  P(gpuDirectRDMASupported);
  P(gpuDirectRDMAFlushWritesOptions);
  P(gpuDirectRDMAWritesOrdering);
  P(memoryPoolSupportedHandleTypes);
  P(deferredMappingCudaArraySupported);
  P(ipcEventSupported);
  P(clusterLaunch);
  P(unifiedFunctionPointers);
  P(maxTexture1D);
  P(maxTexture2D[0]);
  P(maxTexture2D[1]);
  P(maxTexture3D[0]);
  P(surfaceAlignment);
#undef P
  const struct {
    const char* name;
    cudaDeviceAttr attr;
  } attrs[] = {{"ClockRate", cudaDevAttrClockRate},
               {"MemoryClockRate", cudaDevAttrMemoryClockRate},
               {"SingleToDoublePrecisionPerfRatio", cudaDevAttrSingleToDoublePrecisionPerfRatio},
               {"ComputeMode", cudaDevAttrComputeMode},
               {"KernelExecTimeout", cudaDevAttrKernelExecTimeout},
               {"GpuOverlap", cudaDevAttrGpuOverlap},
               {"MaxSharedMemoryPerBlockOptin", cudaDevAttrMaxSharedMemoryPerBlockOptin}};
  for (const auto& a : attrs) {
    int v = -1;
    const cudaError_t e = cudaDeviceGetAttribute(&v, a.attr, 0);
    std::printf("attribute %s %d (%s)\n", a.name, v, cudaGetErrorName(e));
  }
  // Launch refusals: CUDA's error per planted configuration (and none is sticky).
  const struct {
    const char* what;
    dim3 grid, block;
    size_t shared;
  } launches[] = {{"1025 threads", dim3(1), dim3(1025), 0},
                  {"32x32x2 threads", dim3(1), dim3(32, 32, 2), 0},
                  {"block z 65", dim3(1), dim3(1, 1, 65), 0},
                  {"block 0", dim3(1), dim3(0), 0},
                  {"grid y 65536", dim3(1, 65536), dim3(1), 0},
                  {"grid z 65536", dim3(1, 1, 65536), dim3(1), 0},
                  {"grid x 2^31", dim3(0x80000000u), dim3(1), 0},
                  {"grid 0", dim3(0), dim3(1), 0},
                  {"dynamic shared 48 KiB", dim3(1), dim3(32), 48 * 1024},
                  {"dynamic shared 48 KiB + 1", dim3(1), dim3(32), 48 * 1024 + 1},
                  {"dynamic shared 227 KiB + 1", dim3(1), dim3(32), 232448 + 1},
                  {"1025 threads and 48 KiB + 1", dim3(1), dim3(1025), 48 * 1024 + 1}};
  for (const auto& l : launches) {
    COMPAT_LAUNCH(probe_kernel, l.grid, l.block, l.shared, nullptr);
    const cudaError_t e = cudaGetLastError();
    const cudaError_t after = cudaDeviceSynchronize();
    std::printf("launch %s: %s (synchronize: %s)\n", l.what, cudaGetErrorName(e), cudaGetErrorName(after));
  }
  std::printf(
      "cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 232448): %s\n",
      cudaGetErrorName(cudaFuncSetAttribute(probe_kernel_big, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448)));
  std::printf(
      "cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 232449): %s\n",
      cudaGetErrorName(cudaFuncSetAttribute(probe_kernel_big, cudaFuncAttributeMaxDynamicSharedMemorySize, 232449)));
  (void)cudaGetLastError();
  COMPAT_LAUNCH(probe_kernel_big, dim3(1), dim3(32), 232448, nullptr);
  std::printf("launch with 227 KiB after the attribute: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaFuncAttributes fa{};
  check(cudaFuncGetAttributes(&fa, probe_kernel), "cudaFuncGetAttributes");
  std::printf(
      "probe_kernel: numRegs %d sharedSizeBytes %zu maxThreadsPerBlock %d maxDynamicSharedSizeBytes %d "
      "preferredShmemCarveout %d ptxVersion %d binaryVersion %d\n",
      fa.numRegs, fa.sharedSizeBytes, fa.maxThreadsPerBlock, fa.maxDynamicSharedSizeBytes, fa.preferredShmemCarveout,
      fa.ptxVersion, fa.binaryVersion);
  const struct {
    int block;
    size_t shared;
  } occ[] = {{32, 0}, {100, 0}, {256, 0}, {1024, 0}, {64, 48 * 1024}, {64, 100 * 1024}, {128, 20 * 1024}, {32, 1}};
  for (const auto& o : occ) {
    int n = -1;
    const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, probe_kernel_big, o.block, o.shared);
    std::printf("occupancy block %d shared %zu: %d (%s)\n", o.block, o.shared, n, cudaGetErrorName(e));
  }
  check(cudaFuncSetAttribute(probe_kernel_big, cudaFuncAttributePreferredSharedMemoryCarveout, 50), "carveout");
  int n = -1;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, probe_kernel_big, 64, 40 * 1024), "occupancy");
  std::printf("occupancy carveout 50%% block 64 shared 40960: %d\n", n);
}

}  // namespace

int main(int argc, char** argv) {
  const bool exhaustive = argc > 1 && std::strcmp(argv[1], "--exhaustive") == 0;
  const bool device = argc > 1 && std::strcmp(argv[1], "--device") == 0;
  if (device) {
    print_device();
  } else if (exhaustive) {
    exhaustive_unary();
    exhaustive_hdiv();
  } else {
    print_table();
  }
  return 0;
}
