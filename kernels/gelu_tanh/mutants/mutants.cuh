// gelu_tanh's mutants: deliberately wrong variants, one documented bug class each, registered in this
// folder's CMakeLists.txt through kverify_add_variant (the extension point a user's own variant
// takes). The mutation self-test (`kverify mutants`, a process per mutant) must kill every one; the
// mutant_gpuv_* ones are meant for a GPU-side tool (kernels/registry.hpp: killed_by_gpu_tools):
//   mutant_gpuv_far_oob_write  a write 2^36 bytes past y: a device fault (cuda: illegal address;
//                              emu: SIGSEGV) -> fault isolation, compute-sanitizer memcheck
//   mutant_gpuv_int32_index    32-bit element offsets: right below 2^31 elements, wrong (or
//                              faulting) above -> the huge Cases (kverify huge), and on emu and cuda
//                              the far layouts the catalogue draws
// This header is compiled once per backend (KV_BACKEND = emu or cuda); the launchers live in
// namespace KV_BACKEND.
#include <cstdint>
#include <type_traits>

#include "kernels/common/backend_launch.hpp"
#include "kernels/gelu_tanh/gelu_tanh_math.cuh"
#include "runtime/kernel_api.hpp"
// The op's argument builders, without its launchers (those live in kernels/gelu_tanh/gelu_tanh_*.cpp|cu).
#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/gelu_tanh/launchers.inl"
#pragma pop_macro("KV_BACKEND")

namespace kverify::kernels::gelu_tanh::mutants {

template <typename T>
struct ElementwiseArgs {
  T* x;  // not const: one mutant writes into it
  T* y;
  long long rows, cols, x_row_stride, x_col_stride, y_row_stride, y_col_stride;
};

// gelu_tanh with tanh written as (e^2u - 1) / (e^2u + 1): inf / inf = NaN from x ~ 10 on.
template <typename T>
__global__ void gelu_exp_tanh(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    const float x = kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride]);
    const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
    const float e = expf(2.0f * u);
    a.y[r * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(0.5f * x * (1.0f + (e - 1.0f) / (e + 1.0f)));  // BUG
  }
}

// gelu_tanh, correct, that also writes into its input.
template <typename T>
__global__ void gelu_writes_input(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    T* x = &a.x[r * a.x_row_stride + c * a.x_col_stride];
    const float v = kv::to_f32(*x);
    a.y[r * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(gelu_tanh_f32(v));
    *x = kv::from_f32<T>(0.0f);  // BUG
  }
}

// gelu_tanh with the cubic coefficient 0.0447 (instead of 0.044715), with the erf GELU, or with the
// textbook line 0.5 x (1 + tanhf(u)), whose 1 + tanhf(u) cancels for x << 0 (about 1e-5 relative
// at x = -3, exactly 0 at x = -6 where bf16 still holds -1.7e-10).
template <typename T, int kWhich>
__global__ void gelu_wrong_formula(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    const float x = kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride]);
    float y;
    if (kWhich == 0) {
      y = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.0447f * x * x * x)));  // BUG: 0.0447
    } else if (kWhich == 1) {
      y = 0.5f * x * (1.0f + erff(x * 0.70710678f));  // BUG: the erf GELU, not the tanh approximation
    } else if (kWhich == 2) {
      // Saturated as gelu_tanh_f32 is (+-inf and |x| >= 16), so that the cancellation is its one bug.
      y = fabsf(x) >= 16.0f
              ? (x > 0.0f ? x : -0.0f)
              : 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));  // BUG: cancels for x << 0
    } else if (kWhich == 4) {
      // gelu_tanh_f32 without its saturation branch, its inf * 0 NaN patched by comparing bits with
      // the NaN a host test printed: x86's 0xffc00000. BUG: the GPU's produced NaN is 0x7fffffff,
      // so on the device the patch never fires and +-inf give NaN.
      const float t = 1.5957691216057308f * (x * fmaf(0.044715f * x, x, 1.0f));
      const float e = expf(-fabsf(t));
      float d = (x * e) / (1.0f + e);
      if (__float_as_uint(d) == 0xffc00000u) d = 0.0f;  // x = +-inf: e = 0, x e = inf * 0
      y = copysignf(t >= 0.0f ? x - d : d, x);
    } else {
      // gelu_tanh_f32 (gelu_tanh_math.cuh) without its saturation branch. BUG: x = +-inf gives
      // x e = inf * 0 = NaN; every finite x, the overflowing x^3 beyond 7e12 included, is right.
      const float t = 1.5957691216057308f * (x * fmaf(0.044715f * x, x, 1.0f));
      const float e = expf(-fabsf(t));
      const float d = (x * e) / (1.0f + e);
      y = copysignf(t >= 0.0f ? x - d : d, x);
    }
    a.y[r * a.y_row_stride + c * a.y_col_stride] = kv::from_f32<T>(y);
  }
}

// gelu_tanh stored toward zero: the f32 value rounded to the 16-bit dtype and, where that rounded
// away from zero, stepped back one ulp (what __float2half_rz gives). Every element stays within the
// ulp it is allowed; their errors all lean toward zero (f32 stores are exact, and right).
template <typename T>
__device__ __forceinline__ T stored_toward_zero(float v) {
  T rounded = kv::from_f32<T>(v);
  if constexpr (!std::is_same_v<T, float>) {
    if (isfinite(v) && fabsf(kv::to_f32(rounded)) > fabsf(v)) {  // BUG: truncation, not round to nearest
      if constexpr (std::is_same_v<T, __half>)
        rounded = __ushort_as_half(static_cast<unsigned short>(__half_as_ushort(rounded) - 1));
      else
        rounded = __ushort_as_bfloat16(static_cast<unsigned short>(__bfloat16_as_ushort(rounded) - 1));
    }
  }
  return rounded;
}

template <typename T>
__global__ void gelu_truncating_store(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    const float x = kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride]);
    a.y[r * a.y_row_stride + c * a.y_col_stride] = stored_toward_zero<T>(gelu_tanh_f32(x));
  }
}

// gelu_tanh in pairs of halves: __half2 loads and stores along each row when x's rows allow it
// (x 4-byte aligned with an even row stride and unit column stride). y's alignment is never
// looked at: an odd y offset or row stride puts every __half2 store at a 2-byte address, which the
// GPU refuses ("misaligned address").
template <typename T>
__global__ void gelu_half2_on_x_alignment(ElementwiseArgs<T> a, bool pairs) {
  const long long per_row = pairs ? (a.cols + 1) / 2 : a.cols;
  const long long n = a.rows * per_row;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / per_row, c = (i % per_row) * (pairs ? 2 : 1);
    if constexpr (std::is_same_v<T, __half>) {
      if (pairs && c + 1 < a.cols) {
        const __half2 x = *reinterpret_cast<const __half2*>(&a.x[r * a.x_row_stride + c]);
        const float2 f = __half22float2(x);
        *reinterpret_cast<__half2*>(&a.y[r * a.y_row_stride + c]) =  // BUG: y's alignment never checked
            __floats2half2_rn(gelu_tanh_f32(f.x), gelu_tanh_f32(f.y));
        continue;
      }
    }
    a.y[r * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(gelu_tanh_f32(kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride])));
  }
}

template <typename T>
__global__ void gelu_far_oob_write(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    a.y[r * a.y_row_stride + c * a.y_col_stride] =
        kv::from_f32<T>(gelu_tanh_f32(kv::to_f32(a.x[r * a.x_row_stride + c * a.x_col_stride])));
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    volatile unsigned char* wild = reinterpret_cast<unsigned char*>(a.y) + (1ll << 36);  // BUG: 64 GiB past y
    *wild = 1;
  }
}

template <typename T>
__global__ void gelu_int32_index(ElementwiseArgs<T> a) {
  const long long n = a.rows * a.cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / a.cols, c = i % a.cols;
    const int xi = static_cast<int>(r * a.x_row_stride + c * a.x_col_stride);  // BUG: 32-bit element offsets
    const int yi = static_cast<int>(r * a.y_row_stride + c * a.y_col_stride);
    a.y[yi] = kv::from_f32<T>(gelu_tanh_f32(kv::to_f32(a.x[xi])));
  }
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

template <typename T>
ElementwiseArgs<T> elementwise_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<T*>(x.data), static_cast<T*>(y.data), x.layout.rows,       x.layout.cols,
          x.layout.row_stride,     x.layout.col_stride,     y.layout.row_stride, y.layout.col_stride};
}

#define KV_GELU_MUTANT(name, ...)                                                                 \
  void name(const LaunchRequest& r) {                                                             \
    with_storage_type(r.dtype, [&]<typename T>() {                                                \
      mutants::__VA_ARGS__<<<dim3(64), dim3(256), 0, launch_stream(r)>>>(elementwise_args<T>(r)); \
      check_launch(#__VA_ARGS__);                                                                 \
    });                                                                                           \
  }
KV_GELU_MUTANT(exp_tanh, gelu_exp_tanh<T>)
KV_GELU_MUTANT(writes_input, gelu_writes_input<T>)
KV_GELU_MUTANT(wrong_constant, gelu_wrong_formula<T, 0>)
KV_GELU_MUTANT(erf, gelu_wrong_formula<T, 1>)
KV_GELU_MUTANT(tanhf_cancels, gelu_wrong_formula<T, 2>)
KV_GELU_MUTANT(infinity_unsaturated, gelu_wrong_formula<T, 3>)
KV_GELU_MUTANT(nan_bits_of_the_host, gelu_wrong_formula<T, 4>)
KV_GELU_MUTANT(truncating_store, gelu_truncating_store<T>)
KV_GELU_MUTANT(far_oob_write, gelu_far_oob_write<T>)
#undef KV_GELU_MUTANT

void half2_on_x_alignment(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = elementwise_args<T>(r);
    // The pair path's condition looks at x only.
    const bool pairs = std::is_same_v<T, __half> && a.x_col_stride == 1 && a.y_col_stride == 1 &&
                       a.x_row_stride % 2 == 0 && reinterpret_cast<std::uintptr_t>(a.x) % 4 == 0;
    mutants::gelu_half2_on_x_alignment<T><<<dim3(64), dim3(256), 0, launch_stream(r)>>>(a, pairs);
    check_launch("mutants::gelu_half2_on_x_alignment<T>");
  });
}

void int32_index(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = elementwise_args<T>(r);
    const long long blocks = (a.rows * a.cols + 255) / 256;
    mutants::gelu_int32_index<T>
        <<<dim3(static_cast<unsigned>(blocks < 65536 ? blocks : 65536)), dim3(256), 0, launch_stream(r)>>>(a);
    check_launch("mutants::gelu_int32_index<T>");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::gelu_tanh::mutants
