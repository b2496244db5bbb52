// matmul_relu's mutants: deliberately wrong variants, one documented bug class each, registered in this
// folder's CMakeLists.txt through kverify_add_variant (the extension point a user's own variant
// takes). The mutation self-test (`kverify mutants`) must kill every one.
// This header is compiled once per backend (KV_BACKEND = emu or cuda); the launchers live in
// namespace KV_BACKEND.
#include <cmath>

#include "kernels/common/backend_launch.hpp"
#include "runtime/kernel_api.hpp"
// The op's argument builders, without its launchers (those live in kernels/matmul_relu/matmul_relu_*.cpp|cu).
#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/matmul_relu/launchers.inl"
#pragma pop_macro("KV_BACKEND")

namespace kverify::kernels::matmul_relu::mutants {

// matmul_relu, one thread per output, K walked in tiles of 16, each with one bug:
//   kBug 0: ReLU applied to every K tile's partial sum
//   kBug 1: the K tail is not masked (reads A and B past K)
//   kBug 2: the N tail store is not masked (writes past C's edge)
//   kBug 3: A read as row-major whatever its strides
//   kBug 4: the last partial K tile dropped
//   kBug 5: the accumulator rounded to f16 after every product
//   kBug 6: the result one f32 ulp high: within tolerance on real values, only exact mode sees it
//   kBug 7: none in the kernel; its launcher caps the grid at 32 column tiles (512 columns), so the
//           columns past them are never written (a skinny Case, 2x600x8, shows it at once)
//   kBug 8: ReLU written fmaxf(acc, 0.0f), which returns 0 for a NaN sum (the contract: NaN stays
//           NaN); only a Case with NaN or inf inputs sees it
//   kBug 9: K tiles counted in 8 bits: past 256 tiles (K 4096) the count wraps and the first tiles
//           are read again in place of the last; only a K past 4096 sees it
template <typename T, int kBug>
__global__ void matmul_buggy(MatmulReluArgs<T> a) {
  const long long n = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long m = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y;
  // BUG 2 leaves only the N tail unmasked: its stray stores stay within 15 elements of a row's end
  // (the row gap, or the buffer's back canary for the last row), never further.
  if (m >= a.m || (kBug != 2 && n >= a.n)) return;
  float acc = 0.0f;
  if (n < a.n) {
    const long long k_end = kBug == 1 ? (a.k + 15) / 16 * 16 : kBug == 4 ? a.k / 16 * 16 : a.k;
    unsigned char tile = 0;
    for (long long k1 = 0; k1 < k_end; k1 += 16, ++tile) {
      const long long k0 = kBug == 9 ? tile * 16LL : k1;  // BUG 9: an 8-bit tile count
      for (long long k = k0; k < k0 + 16 && k < k_end; ++k) {
        const long long a_index = kBug == 3 ? m * a.k + k : m * a.a_row_stride + k * a.a_col_stride;
        acc = fmaf(kv::to_f32(a.a[a_index]), kv::to_f32(a.b[k * a.b_row_stride + n * a.b_col_stride]), acc);
        if (kBug == 5) acc = kv::to_f32(kv::from_f32<__half>(acc));  // BUG 5: an f16 accumulator
      }
      if (kBug == 0) acc = acc > 0.0f ? acc : 0.0f;  // BUG 0: ReLU per K tile
    }
  }
  float y = kBug == 8 ? fmaxf(acc, 0.0f) : acc > 0.0f ? acc : (acc != acc ? acc : 0.0f);  // BUG 8
  if (kBug == 6) y = nextafterf(y, INFINITY);                                             // BUG 6: one ulp off
  a.c[m * a.c_row_stride + n * a.c_col_stride] = kv::from_f32<T>(y);                      // BUG 2 writes past M/N too
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

template <int kBug>
void matmul_buggy(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = matmul_relu_args<T>(r);
    const dim3 grid(static_cast<unsigned>((a.n + 15) / 16), static_cast<unsigned>((a.m + 15) / 16));
    mutants::matmul_buggy<T, kBug><<<grid, dim3(16, 16), 0, launch_stream(r)>>>(a);
    check_launch("mutants::matmul_buggy<T, kBug>");
  });
}
void relu_per_k_tile(const LaunchRequest& r) { matmul_buggy<0>(r); }
void unmasked_k_tail(const LaunchRequest& r) { matmul_buggy<1>(r); }
void unmasked_n_store(const LaunchRequest& r) { matmul_buggy<2>(r); }
void a_as_row_major(const LaunchRequest& r) { matmul_buggy<3>(r); }
void dropped_k_tail(const LaunchRequest& r) { matmul_buggy<4>(r); }
void f16_accumulator(const LaunchRequest& r) { matmul_buggy<5>(r); }
void one_ulp_high(const LaunchRequest& r) { matmul_buggy<6>(r); }
void relu_drops_nan(const LaunchRequest& r) { matmul_buggy<8>(r); }
void k_tiles_in_8_bits(const LaunchRequest& r) { matmul_buggy<9>(r); }
void capped_grid(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = matmul_relu_args<T>(r);
    const long long column_tiles = (a.n + 15) / 16;
    const dim3 grid(static_cast<unsigned>(column_tiles < 32 ? column_tiles : 32),  // BUG: a capped grid
                    static_cast<unsigned>((a.m + 15) / 16));
    mutants::matmul_buggy<T, 7><<<grid, dim3(16, 16), 0, launch_stream(r)>>>(a);
    check_launch("mutants::matmul_buggy<T, 7>");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::matmul_relu::mutants
