// matmul_relu on the tensor cores (sm_80+ PTX, built for sm_90), f16/bf16 storage: C = relu(A B).
// cuda only: mma.sync / ldmatrix / cp.async have no emu model (the registry says so and the
// suites skip it on emu with that reason).
//
// Contract: as every matmul_relu variant (ops/matmul_relu/matmul_relu.hpp): f32 accumulation of the
// exactly-widened f16/bf16 inputs, ReLU once after the full K sum (NaN kept), one rounding to the
// storage dtype, any M, N, K >= 1.
// Layouts it takes (registry predicate in variants.cpp): A with unit column stride (k contiguous,
// any row stride); B with unit column stride (row-major, n contiguous) or unit row stride
// (column-major, k contiguous); C any strides. When A's and B's base addresses are 16-byte aligned
// and their leading dimensions are multiples of 8 elements, tiles stream in with cp.async (16
// bytes, zero-filled past M, N and K); otherwise (e.g. 4097 x 4095 x 4099 dense: odd leading
// dimensions) the block loads element pairs into registers (consecutive lanes on consecutive
// pairs of a row) before the compute of a K tile and stores them to shared memory after it. Both paths fill the same
// swizzled shared tiles.
//
// Tiling: block tile BM x BN, K tile 32, warps of WM x WN (64 x 64 or 32 x 32), each warp a grid
// of m16n8k16 mma.sync with f32 accumulators in registers. Shared memory: STAGES K tiles in a
// ring (cp.async.wait_group keeps STAGES - 1 in flight). A tile: BM rows of 32 k (64 bytes), the
// 16-byte chunk index XOR (row / 2) % 4; B column-major: the same with BN rows; B row-major: 32
// rows of BN n, chunk XOR row % 8. Either way the 8 row addresses of one ldmatrix phase land in 8
// distinct 16-byte bank groups. Fragments: ldmatrix.x4 (A, column-major B) and ldmatrix.x4.trans
// (row-major B).
// Epilogue: ReLU in registers (relu_keep_nan), rounding to the storage dtype, masked stores with
// C's strides. Tiles are visited in groups of 8 tile rows along a 1-D grid (L2 reuse of B).
// Error bound: the tensor core adds the products of each k16 step and the accumulator in a few
// wide additions (exact products, alignment to the largest exponent, truncation); each addition
// errs by at most about 2u of the magnitudes involved, and there are at most K/4 of them per
// output, within ops/matmul_relu/reference.cpp's gamma(K) sum|ab| bound (reports/h200/perf.md, matmul_relu).
#include <cstdint>

#include "kernels/common/backend_launch.hpp"
#include "kernels/matmul_relu/launchers.inl"               // without KV_BACKEND: matmul_relu_args only
#include "kernels/matmul_relu/matmul_relu_tiled_smem.cuh"  // MatmulReluArgs, relu_keep_nan
#include "runtime/cuda/check.hpp"
#include "runtime/cuda/device.hpp"

namespace kverify::kernels::matmul_relu {

namespace mma_detail {

constexpr int kBK = 32;

template <int BM_, int BN_, int WM_, int WN_, int STAGES_>
struct Config {
  static constexpr int BM = BM_, BN = BN_, WM = WM_, WN = WN_, STAGES = STAGES_;
  static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
  static constexpr int THREADS = 32 * WARPS_M * WARPS_N;
  static constexpr int MT = WM / 16, NT = WN / 8;  // mma tiles per warp
  static constexpr int A_ELEMS = BM * kBK, B_ELEMS = BN * kBK;
  static constexpr int A_CHUNKS = A_ELEMS / 8 / THREADS, B_CHUNKS = B_ELEMS / 8 / THREADS;  // per thread
  static constexpr int SMEM_BYTES = STAGES * (A_ELEMS + B_ELEMS) * 2;
  static_assert(A_ELEMS % (8 * THREADS) == 0 && B_ELEMS % (8 * THREADS) == 0, "whole chunks per thread");
  static_assert(NT % 2 == 0, "B fragments load two n8 tiles per ldmatrix.x4");
};
using Big = Config<128, 256, 64, 64, 4>;  // 8 warps, 96 KiB shared memory
using Small = Config<64, 64, 32, 32, 6>;  // 4 warps, 48 KiB: few-tile problems fill more SMs
// The register-staged (unaligned) path holds 16 words of staged pairs per thread: 64 x 32 warp
// tiles (64 accumulators) keep it clear of the 255-register limit (Big spills there).
using Mid = Config<128, 128, 64, 32, 4>;  // 8 warps, 64 KiB

template <typename T>
struct MmaName;
template <>
struct MmaName<__half> {
  static constexpr bool bf16 = false;
};
template <>
struct MmaName<__nv_bfloat16> {
  static constexpr bool bf16 = true;
};

__device__ __forceinline__ std::uint32_t smem_u32(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// 16 bytes global -> shared, only the first src_bytes read, the rest zero-filled.
__device__ __forceinline__ void cp_async16(std::uint32_t dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

template <bool kBf16>
__device__ __forceinline__ void mma16816(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                         std::uint32_t b1) {
  if constexpr (kBf16)
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  else
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Element offsets of a 16-byte chunk in the swizzled tiles.
// k-contiguous tile (A, column-major B): `row` of 32 k, chunk 0..3.
__device__ __forceinline__ int k_tile_offset(int row, int chunk) {
  return row * kBK + ((chunk ^ ((row >> 1) & 3)) * 8);
}
// n-contiguous tile (row-major B): row k of `bn` n, chunk 0..bn/8-1.
__device__ __forceinline__ int n_tile_offset(int k, int chunk, int bn) { return k * bn + ((chunk ^ (k & 7)) * 8); }

template <typename T, typename Cfg, bool kBRowMajor, bool kAligned>
__global__ void __launch_bounds__(Cfg::THREADS) matmul_relu_mma(MatmulReluArgs<T> p) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, STAGES = Cfg::STAGES, THREADS = Cfg::THREADS;
  constexpr int MT = Cfg::MT, NT = Cfg::NT;
  extern __shared__ __align__(128) unsigned char smem_raw[];
  T* const a_smem = reinterpret_cast<T*>(smem_raw);
  T* const b_smem = a_smem + STAGES * Cfg::A_ELEMS;

  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % 32, warp = tid / 32;
  const int wm0 = (warp / Cfg::WARPS_N) * Cfg::WM, wn0 = (warp % Cfg::WARPS_N) * Cfg::WN;
  const long long M = p.m, N = p.n, K = p.k;
  const long long lda = p.a_row_stride;
  const long long ldb = kBRowMajor ? p.b_row_stride : p.b_col_stride;
  const long long m_tiles = (M + BM - 1) / BM, n_tiles = (N + BN - 1) / BN;
  const long long k_tiles = (K + kBK - 1) / kBK;
  constexpr long long kGroup = 8;  // tile rows per raster group

  for (long long t = blockIdx.x; t < m_tiles * n_tiles; t += gridDim.x) {
    const long long group = t / (kGroup * n_tiles);
    const long long first_m = group * kGroup;
    const long long group_rows = (m_tiles - first_m) < kGroup ? (m_tiles - first_m) : kGroup;
    const long long in_group = t % (kGroup * n_tiles);
    const long long m0 = (first_m + in_group % group_rows) * BM;
    const long long n0 = (in_group / group_rows) * BN;

    // One 16-byte chunk of A (row, kc), of column-major B (n row, kc) or of row-major B (k row, nc):
    // where it lives and how many of its 8 elements exist.
    struct Chunk {
      const T* src;
      int valid;  // elements 0..8 (0: all zero)
    };
    auto a_chunk = [&](int c, long long k0) -> Chunk {
      const int row = c / (kBK / 8), kc = c % (kBK / 8);
      const long long m = m0 + row, k = k0 + kc * 8;
      if (m >= M || k >= K) return {p.a, 0};
      return {p.a + m * lda + k, static_cast<int>(K - k < 8 ? K - k : 8)};
    };
    auto b_chunk = [&](int c, long long k0) -> Chunk {
      if constexpr (kBRowMajor) {
        const int kr = c / (BN / 8), nc = c % (BN / 8);
        const long long k = k0 + kr, n = n0 + nc * 8;
        if (k >= K || n >= N) return {p.b, 0};
        return {p.b + k * ldb + n, static_cast<int>(N - n < 8 ? N - n : 8)};
      } else {
        const int row = c / (kBK / 8), kc = c % (kBK / 8);
        const long long n = n0 + row, k = k0 + kc * 8;
        if (n >= N || k >= K) return {p.b, 0};
        return {p.b + n * ldb + k, static_cast<int>(K - k < 8 ? K - k : 8)};
      }
    };
    auto a_offset = [&](int c) { return k_tile_offset(c / (kBK / 8), c % (kBK / 8)); };
    auto b_offset = [&](int c) {
      if constexpr (kBRowMajor)
        return n_tile_offset(c / (BN / 8), c % (BN / 8), BN);
      else
        return k_tile_offset(c / (kBK / 8), c % (kBK / 8));
    };

    // The register-staged path (unaligned layouts): element pairs, consecutive lanes on consecutive
    // pairs of one row (a warp's 2-byte loads cover one or two 64-128 byte runs, not 8 rows as a
    // chunk-per-thread mapping would), stored to shared memory as 32-bit words. Elements past M, N
    // or K are +0 (bits 0 in both dtypes).
    constexpr int A_PAIRS = BM * kBK / 2 / THREADS, B_PAIRS = BN * kBK / 2 / THREADS;
    std::uint32_t a_regs[kAligned ? 1 : A_PAIRS], b_regs[kAligned ? 1 : B_PAIRS];
    const std::uint16_t* a_bits = reinterpret_cast<const std::uint16_t*>(p.a);
    const std::uint16_t* b_bits = reinterpret_cast<const std::uint16_t*>(p.b);
    // Pair q of a k-contiguous tile: row q / 16, k 2 (q % 16); of a row-major B tile: row k
    // q / (BN / 2), n 2 (q % (BN / 2)).
    auto k_pair_offset = [](int q) { return k_tile_offset(q / 16, (q % 16) / 4) + (q % 4) * 2; };
    auto n_pair_offset = [](int q) { return n_tile_offset(q / (BN / 2), (q % (BN / 2)) / 4, BN) + (q % 4) * 2; };
    auto pair_at = [](const std::uint16_t* base, long long at, bool first, bool second) {
      const std::uint32_t lo = first ? base[at] : 0u;
      const std::uint32_t hi = second ? base[at + 1] : 0u;
      return lo | (hi << 16);
    };
    auto gather_tile = [&](long long k0) {
#pragma unroll
      for (int i = 0; i < A_PAIRS; ++i) {
        const int q = tid + i * THREADS;
        const long long m = m0 + q / 16, k = k0 + 2 * (q % 16);
        const bool row_in = m < M;
        a_regs[i] = pair_at(a_bits, m * lda + k, row_in && k < K, row_in && k + 1 < K);
      }
#pragma unroll
      for (int i = 0; i < B_PAIRS; ++i) {
        const int q = tid + i * THREADS;
        if constexpr (kBRowMajor) {
          const long long k = k0 + q / (BN / 2), n = n0 + 2 * (q % (BN / 2));
          const bool k_in = k < K;
          b_regs[i] = pair_at(b_bits, k * ldb + n, k_in && n < N, k_in && n + 1 < N);
        } else {
          const long long n = n0 + q / 16, k = k0 + 2 * (q % 16);
          const bool col_in = n < N;
          b_regs[i] = pair_at(b_bits, n * ldb + k, col_in && k < K, col_in && k + 1 < K);
        }
      }
    };
    // Issue the loads of K tile kt into stage s (aligned: cp.async; else: into registers).
    auto load_tile = [&](long long kt, int s) {
      const long long k0 = kt * kBK;
      if constexpr (kAligned) {
#pragma unroll
        for (int i = 0; i < Cfg::A_CHUNKS; ++i) {
          const int c = tid + i * THREADS;
          const Chunk ch = a_chunk(c, k0);
          cp_async16(smem_u32(a_smem + s * Cfg::A_ELEMS + a_offset(c)), ch.src, ch.valid * 2);
        }
#pragma unroll
        for (int i = 0; i < Cfg::B_CHUNKS; ++i) {
          const int c = tid + i * THREADS;
          const Chunk ch = b_chunk(c, k0);
          cp_async16(smem_u32(b_smem + s * Cfg::B_ELEMS + b_offset(c)), ch.src, ch.valid * 2);
        }
      } else {
        gather_tile(k0);
      }
    };
    auto store_tile = [&](int s) {  // register-staged path only
#pragma unroll
      for (int i = 0; i < A_PAIRS; ++i)
        *reinterpret_cast<std::uint32_t*>(a_smem + s * Cfg::A_ELEMS + k_pair_offset(tid + i * THREADS)) = a_regs[i];
#pragma unroll
      for (int i = 0; i < B_PAIRS; ++i) {
        const int q = tid + i * THREADS;
        *reinterpret_cast<std::uint32_t*>(b_smem + s * Cfg::B_ELEMS +
                                          (kBRowMajor ? n_pair_offset(q) : k_pair_offset(q))) = b_regs[i];
      }
    };

    float acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

          // Prologue: STAGES - 1 tiles in flight (one commit group each, empty past the last tile).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
      if (s < k_tiles) {
        load_tile(s, s);
        if constexpr (!kAligned) store_tile(s);
      }
      if constexpr (kAligned) cp_async_commit();
    }

    for (long long kt = 0; kt < k_tiles; ++kt) {
      if constexpr (kAligned) cp_async_wait<STAGES - 2>();  // tile kt has landed (this thread's part)
      __syncthreads();  // ... everyone's part; and stage (kt - 1) % STAGES is no longer read
      const long long next = kt + STAGES - 1;
      const int next_stage = static_cast<int>(next % STAGES);
      if (next < k_tiles) load_tile(next, next_stage);
      if constexpr (kAligned) cp_async_commit();

      const int s = static_cast<int>(kt % STAGES);
      const T* a_s = a_smem + s * Cfg::A_ELEMS;
      const T* b_s = b_smem + s * Cfg::B_ELEMS;
#pragma unroll
      for (int kk = 0; kk < kBK; kk += 16) {
        std::uint32_t af[MT][4];
        std::uint32_t bf[NT][2];
#pragma unroll
        for (int mt = 0; mt < MT; ++mt) {
          const int row = wm0 + mt * 16 + lane % 16;
          ldmatrix_x4(af[mt], smem_u32(a_s + k_tile_offset(row, kk / 8 + lane / 16)));
        }
#pragma unroll
        for (int np = 0; np < NT / 2; ++np) {
          std::uint32_t r[4];
          if constexpr (kBRowMajor) {
            const int k = kk + lane % 8 + ((lane / 8) % 2) * 8;
            ldmatrix_x4_trans(r, smem_u32(b_s + n_tile_offset(k, (wn0 + np * 16) / 8 + lane / 16, BN)));
          } else {
            const int n = wn0 + np * 16 + lane % 8 + (lane / 16) * 8;
            ldmatrix_x4(r, smem_u32(b_s + k_tile_offset(n, kk / 8 + (lane / 8) % 2)));
          }
          bf[2 * np][0] = r[0];
          bf[2 * np][1] = r[1];
          bf[2 * np + 1][0] = r[2];
          bf[2 * np + 1][1] = r[3];
        }
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
          for (int nt = 0; nt < NT; ++nt) mma16816<MmaName<T>::bf16>(acc[mt][nt], af[mt], bf[nt][0], bf[nt][1]);
      }
      // Register-staged path: the next tile's stage was last read in step kt - 1 (done by all at
      // the barrier above) and is next read in step `next` > kt, after another barrier.
      if constexpr (!kAligned)
        if (next < k_tiles) store_tile(next_stage);
    }
    if constexpr (kAligned) cp_async_wait<0>();
    __syncthreads();  // the next tile of C reuses the stages

    // Epilogue: accumulator (mt, nt, e) is row g (+8 for e >= 2), columns 2t, 2t + 1.
    const int g = lane / 4, t4 = lane % 4;
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const long long m = m0 + wm0 + mt * 16 + g + half * 8;
        if (m >= M) continue;
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const long long n = n0 + wn0 + nt * 8 + 2 * t4 + e;
            if (n < N)
              p.c[m * p.c_row_stride + n * p.c_col_stride] = kv::from_f32<T>(relu_keep_nan(acc[mt][nt][half * 2 + e]));
          }
      }
  }
}

template <typename T, typename Cfg, bool kBRowMajor, bool kAligned>
void launch(const LaunchRequest& r, const MatmulReluArgs<T>& args, long long tiles) {
  auto* kernel = &matmul_relu_mma<T, Cfg, kBRowMajor, kAligned>;
  // Once per instantiation (and device: kverify uses one); a failure throws and is retried next time.
  static const bool shared_allowed = (allow_dynamic_shared(kernel, Cfg::SMEM_BYTES, "matmul_relu_mma"), true);
  static_cast<void>(shared_allowed);
  const unsigned grid = static_cast<unsigned>(tiles < 0x7fffffffll ? tiles : 0x7fffffffll);
  kernel<<<dim3(grid), dim3(Cfg::THREADS), Cfg::SMEM_BYTES, launch_stream(r)>>>(args);
  check_launch("kernel");
}

// Which kernel a problem gets: B's orientation, the load path, and the tile configuration.
struct Plan {
  bool b_row_major, aligned;
};

template <typename T>
Plan plan_of(const MatmulReluArgs<T>& args) {
  // B's orientation. Row-major reads (k, n) at k * ldb + n: needs n contiguous or one column;
  // column-major reads n * ldb + k: needs k contiguous or one row (the registry's predicate
  // guarantees one of the two). Where both work, a unit column stride picks row-major.
  const bool row_ok = args.b_col_stride == 1 || args.n == 1, col_ok = args.b_row_stride == 1 || args.k == 1;
  const bool b_row_major = row_ok && (!col_ok || args.b_col_stride == 1);
  const long long ldb = b_row_major ? args.b_row_stride : args.b_col_stride;
  const auto aligned16 = [](const void* ptr) { return reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0; };
  const bool aligned =
      aligned16(args.a) && aligned16(args.b) && (args.m == 1 || args.a_row_stride % 8 == 0) && ldb % 8 == 0;
  return {b_row_major, aligned};
}

template <typename T, typename Cfg, bool kAligned>
void launch_config(const LaunchRequest& r, const MatmulReluArgs<T>& args, bool b_row_major) {
  const long long tiles = ((args.m + Cfg::BM - 1) / Cfg::BM) * ((args.n + Cfg::BN - 1) / Cfg::BN);
  if (b_row_major)
    launch<T, Cfg, true, kAligned>(r, args, tiles);
  else
    launch<T, Cfg, false, kAligned>(r, args, tiles);
}

}  // namespace mma_detail

namespace cuda {

// Aligned: the big tile (128 x 256) when it gives at least two waves of blocks, else the small one
// (64 x 64); unaligned (register-staged): 128 x 128 under the same rule, else 64 x 64.
void mma_sync(const LaunchRequest& r) {
  using namespace mma_detail;
  auto run = [&]<typename T>() {
    const auto args = matmul_relu_args<T>(r);
    const Plan plan = plan_of(args);
    auto tiles = [&](long long bm, long long bn) { return ((args.m + bm - 1) / bm) * ((args.n + bn - 1) / bn); };
    const long long enough = 2LL * ::kverify::cuda::device_status().multiprocessors;
    if (plan.aligned) {
      if (tiles(Big::BM, Big::BN) >= enough)
        launch_config<T, Big, true>(r, args, plan.b_row_major);
      else
        launch_config<T, Small, true>(r, args, plan.b_row_major);
    } else {
      if (tiles(Mid::BM, Mid::BN) >= enough)
        launch_config<T, Mid, false>(r, args, plan.b_row_major);
      else
        launch_config<T, Small, false>(r, args, plan.b_row_major);
    }
  };
  switch (r.dtype) {
    case DType::f16:
      run.template operator()<__half>();
      return;
    case DType::bf16:
      run.template operator()<__nv_bfloat16>();
      return;
    default:
      throw std::invalid_argument(
          "matmul_relu/mma_sync takes f16 or bf16 storage (f32 has no TF32-free tensor-core path)");
  }
}

}  // namespace cuda
}  // namespace kverify::kernels::matmul_relu
