// 16-byte vector access to rows of a strided rank-2 tensor, shared by the vectorized softmax,
// row_sum and gelu_tanh variants. A kernel is instantiated twice per dtype:
//   V = 16 / sizeof(T)  the fast path: unit column stride and every row starting on a 16-byte
//                       boundary (the launcher checks the real pointers with vector_rows_ok);
//                       whole vectors are one ld/st.global.v4, a row's last partial vector is
//                       done element by element (tails are never read past the row's end);
//   V = 1               any strides and offsets: one element per access through col_stride.
// So these variants take every Case; only their speed depends on the layout.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/layout.hpp"
#include "runtime/kernel_api.hpp"

namespace kverify::kernels {

inline constexpr int kVectorBytes = 16;

template <typename T>
inline constexpr int kLanesPerVector = kVectorBytes / static_cast<int>(sizeof(T));

template <typename T, int V>
struct alignas(V * sizeof(T)) VecOf {
  T lane[V];
};

// Host side: whether every row of `l`, whose element (0,0) is at byte address `address`, can be
// read with aligned 16-byte vectors (unit column stride, 16-byte aligned row starts).
inline bool vector_rows_ok(const Layout2D& l, std::uintptr_t address, std::size_t element_bytes) {
  const bool unit_cols = l.cols == 1 || l.col_stride == 1;
  const bool aligned_rows =
      l.rows == 1 || (static_cast<std::uint64_t>(l.row_stride) * element_bytes) % kVectorBytes == 0;
  return unit_cols && aligned_rows && address % kVectorBytes == 0;
}

// Loads the V elements of `row` starting at column `c` (a multiple of V when V > 1) as f32;
// columns at or past `cols` get `pad`.
template <typename T, int V>
__device__ __forceinline__ void load_vec(const T* row, long long col_stride, long long cols, long long c, float pad,
                                         float (&out)[V]) {
  if constexpr (V == 1) {
    out[0] = c < cols ? kv::to_f32(row[c * col_stride]) : pad;
  } else if (c + V <= cols) {
    const VecOf<T, V> v = *reinterpret_cast<const VecOf<T, V>*>(row + c);
#pragma unroll
    for (int k = 0; k < V; ++k) out[k] = kv::to_f32(v.lane[k]);
  } else {
#pragma unroll
    for (int k = 0; k < V; ++k) out[k] = c + k < cols ? kv::to_f32(row[c + k]) : pad;
  }
}

// The vector at column `c` of `row` as stored, when it lies wholly inside the row (c + V <= cols):
// no bounds test and no conversion, so a loop over whole vectors keeps a 16-bit vector in 4
// registers (load_vec's f32 values take 8) and converts each lane where it uses it.
template <typename T, int V>
__device__ __forceinline__ VecOf<T, V> load_whole_vec(const T* row, long long col_stride, long long c) {
  if constexpr (V == 1) {
    return VecOf<T, V>{{row[c * col_stride]}};
  } else {
    return *reinterpret_cast<const VecOf<T, V>*>(row + c);
  }
}

// One 16-byte store. nvcc turned the plain struct store into V scalar stores in some
// instantiations (the PTX of a clustered softmax kernel had no st.global.v4: reports/h200/perf.md);
// the instruction is spelled out so that it cannot.
template <typename T, int V>
__device__ __forceinline__ void store_16_bytes(T* at, const VecOf<T, V>& v) {
#if defined(__CUDACC__)
  if constexpr (sizeof(T) == 4) {
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(at), "f"(float(v.lane[0])), "f"(float(v.lane[1])),
                 "f"(float(v.lane[2])), "f"(float(v.lane[3]))
                 : "memory");
  } else {
    unsigned w[4];
    memcpy(w, &v, sizeof w);
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(at), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3])
                 : "memory");
  }
#else
  *reinterpret_cast<VecOf<T, V>*>(at) = v;
#endif
}

// V f32 values rounded to the storage type; 16-bit lanes two at a time (one packed conversion
// instruction per pair, where lane by lane takes one each).
template <typename T, int V>
__device__ __forceinline__ VecOf<T, V> pack_vec(const float (&in)[V]) {
  VecOf<T, V> v;
  if constexpr (std::is_same_v<T, __nv_bfloat16> && V % 2 == 0) {
#pragma unroll
    for (int k = 0; k < V; k += 2) {
      const __nv_bfloat162 pair = __floats2bfloat162_rn(in[k], in[k + 1]);
      v.lane[k] = pair.x;
      v.lane[k + 1] = pair.y;
    }
  } else if constexpr (std::is_same_v<T, __half> && V % 2 == 0) {
#pragma unroll
    for (int k = 0; k < V; k += 2) {
      const __half2 pair = __floats2half2_rn(in[k], in[k + 1]);
      v.lane[k] = pair.x;
      v.lane[k + 1] = pair.y;
    }
  } else {
#pragma unroll
    for (int k = 0; k < V; ++k) v.lane[k] = kv::from_f32<T>(in[k]);
  }
  return v;
}

// Stores the in-range elements of `in` to columns c .. c+V-1 of `row`.
template <typename T, int V>
__device__ __forceinline__ void store_vec(T* row, long long col_stride, long long cols, long long c,
                                          const float (&in)[V]) {
  if constexpr (V == 1) {
    if (c < cols) row[c * col_stride] = kv::from_f32<T>(in[0]);
  } else if (c + V <= cols) {
    store_16_bytes<T, V>(row + c, pack_vec<T, V>(in));
  } else {
#pragma unroll
    for (int k = 0; k < V; ++k)
      if (c + k < cols) row[c + k] = kv::from_f32<T>(in[k]);
  }
}

// Pairwise sum of V values (log2 V levels: keeps the per-element addition depth small).
template <int V>
__device__ __forceinline__ float tree_sum(const float (&v)[V]) {
  float t[V];
#pragma unroll
  for (int k = 0; k < V; ++k) t[k] = v[k];
#pragma unroll
  for (int half = V / 2; half > 0; half /= 2)
#pragma unroll
    for (int k = 0; k < half; ++k) t[k] += t[k + half];
  return t[0];
}

}  // namespace kverify::kernels
