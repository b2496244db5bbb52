// The softmax launchers, written once: softmax_emu.cpp compiles them for emu and softmax_cuda.cu
// for the GPU, each defining KV_BACKEND (the namespace, emu or cuda) first.
// Each launcher maps a LaunchRequest to its kernel's grid, block and arguments.
#include <cmath>

#include "kernels/common/backend_launch.hpp"
#include "kernels/softmax/softmax_block_per_row.cuh"
#include "kernels/softmax/softmax_block_regs.cuh"
#include "kernels/softmax/softmax_online.cuh"
#include "kernels/softmax/softmax_rows_vec.cuh"
#include "kernels/softmax/softmax_warp_per_row.cuh"

#if defined(KV_BACKEND)
// By a relative path, so that kverify_emu_rewrite rewrites its extern __shared__ for emu; only
// the launchers (compiled through that rewrite) need it.
#include "softmax_block_on_chip.cuh"
#endif

namespace kverify::kernels::softmax {

template <typename T>
SoftmaxArgs<T> softmax_args(const LaunchRequest& r) {
  const DeviceTensor& x = r.tensors[0];
  const DeviceTensor& y = r.tensors[1];
  return {static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.rows,       x.layout.cols,
          x.layout.row_stride,           x.layout.col_stride,     y.layout.row_stride, y.layout.col_stride};
}

// Threads for a block-per-row kernel: one per column up to `max_threads`, a multiple of 32.
inline unsigned block_threads(long long cols, unsigned max_threads) {
  const long long warps = (cols + 31) / 32;
  return static_cast<unsigned>(32 * (warps < max_threads / 32 ? warps : max_threads / 32));
}

inline constexpr long long kWarpPerRowMaxColumns = 32 * 32;

// The register-resident variants (softmax_rows_vec.cuh, softmax_block_regs.cuh) hold at most 32
// values per thread: rows_vec 32 lanes x 32 = 1024 columns, block_regs 1024 threads x 32 = 32768,
// cluster_regs 8 blocks x 32768 = 262144.
inline constexpr long long kRowsVecMaxColumns = 32 * kSoftmaxRegsMaxValues;
inline constexpr long long kBlockRegsMaxColumns =
    static_cast<long long>(kSoftmaxRegsMaxThreads) * kSoftmaxRegsMaxValues;
inline constexpr long long kClusterRegsMaxColumns = kSoftmaxMaxCluster * kBlockRegsMaxColumns;
// block_on_chip keeps the row in shared memory: 224 KiB of f32 of the H200's 227 KiB per block.
inline constexpr long long kMaxOnChipColumns = 56 * 1024;

// Whether x and y both take 16-byte vectors (vec_io.cuh); otherwise the V = 1 instantiation runs.
inline bool softmax_vector_path(const LaunchRequest& r) {
  const std::size_t bytes = size_of(r.dtype);
  return vector_rows_ok(r.tensors[0].layout, reinterpret_cast<std::uintptr_t>(r.tensors[0].data), bytes) &&
         vector_rows_ok(r.tensors[1].layout, reinterpret_cast<std::uintptr_t>(r.tensors[1].data), bytes);
}

inline long long next_pow2(long long n) {
  long long p = 1;
  while (p < n) p *= 2;
  return p;
}

// Vectors per thread P for a block_regs slice of `vectors` vectors of V elements: as many as
// possible (the fewest threads per row: more blocks per SM, so one block's loads overlap another's
// reductions and stores), but >= 128 threads while the row allows, and the slice must fit 1024
// threads. P <= 32 / V values per thread (64 registers, no spill for V > 1 in nvcc's report;
// V = 1 stops at 16 unless the row needs 32, which spills: reports/h200/perf.md).
inline int regs_per_thread(long long vectors, int v) {
  int fit = 1;
  while ((vectors + fit - 1) / fit > kSoftmaxRegsMaxThreads) fit *= 2;
  int p = v == 1 ? 16 : kSoftmaxRegsMaxValues / v;
  if (p < fit) p = fit;
  while (p > fit && (vectors + p - 1) / p < 128) p /= 2;
  return p;
}
inline unsigned regs_threads(long long vectors, int p) {
  const long long t = ((vectors + p - 1) / p + 31) / 32 * 32;
  return static_cast<unsigned>(t < 32 ? 32 : t);
}

// Calls f.template operator()<P>() for the runtime p in {1, 2, 4, ..., kMax}.
template <int kMax, typename F>
void with_pow2(int p, F&& f) {
  if constexpr (kMax >= 1) {
    if (p == kMax) {
      f.template operator()<kMax>();
      return;
    }
    if constexpr (kMax > 1) with_pow2<kMax / 2>(p, f);
  }
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

// One block per row (rows <= 2^31 - 1, the grid's x limit); 32..256 threads.
void block_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    softmax_block_per_row<T>
        <<<dim3(static_cast<unsigned>(args.rows)), dim3(block_threads(args.cols, 256)), 0, launch_stream(r)>>>(args);
    check_launch("softmax_block_per_row<T>");
  });
}

// A warp per row, 8 rows per block; registers per lane: the next power of two >= cols / 32.
void warp_per_row(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    if (args.cols > kWarpPerRowMaxColumns)
      throw std::invalid_argument("softmax/warp_per_row takes rows of at most 1024 columns");
    const dim3 grid(static_cast<unsigned>((args.rows + 7) / 8)), block(256);
    const long long per_lane = (args.cols + 31) / 32;
    if (per_lane <= 1)
      softmax_warp_per_row<T, 1><<<grid, block, 0, launch_stream(r)>>>(args);
    else if (per_lane <= 2)
      softmax_warp_per_row<T, 2><<<grid, block, 0, launch_stream(r)>>>(args);
    else if (per_lane <= 4)
      softmax_warp_per_row<T, 4><<<grid, block, 0, launch_stream(r)>>>(args);
    else if (per_lane <= 8)
      softmax_warp_per_row<T, 8><<<grid, block, 0, launch_stream(r)>>>(args);
    else if (per_lane <= 16)
      softmax_warp_per_row<T, 16><<<grid, block, 0, launch_stream(r)>>>(args);
    else
      softmax_warp_per_row<T, 32><<<grid, block, 0, launch_stream(r)>>>(args);
    check_launch("softmax_warp_per_row");
  });
}

// One block per row with the row in dynamic shared memory; up to 1024 threads.
void block_on_chip(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    if (args.cols > kMaxOnChipColumns)
      throw std::invalid_argument("softmax/block_on_chip takes rows of at most 57344 columns");
    const std::size_t shared = static_cast<std::size_t>(args.cols) * sizeof(float);
    allow_dynamic_shared(softmax_block_on_chip<T>, shared, "softmax_block_on_chip");
    softmax_block_on_chip<T>
        <<<dim3(static_cast<unsigned>(args.rows)), dim3(block_threads(args.cols, 1024)), shared, launch_stream(r)>>>(
            args);
    check_launch("softmax_block_on_chip<T>");
  });
}

// One block per row, streaming: any width.
void online(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    softmax_online<T>
        <<<dim3(static_cast<unsigned>(args.rows)), dim3(block_threads(args.cols, 1024)), 0, launch_stream(r)>>>(args);
    check_launch("softmax_online<T>");
  });
}

// rows_vec: P vectors per lane and G = (the row's vectors) / P lanes per row (powers of two, G <= 32).
// More vectors per lane keep more loads in flight per warp, but only with G >= 8 lanes per row
// (each load and store instruction then covers whole 128-byte runs of a row): on the H200, width
// 32 with G = 2, P = 4 (f32) and G = 1, P = 4 (bf16) fell from 0.94 / 0.80 of the copy ceiling to
// 0.78 / 0.66, while width 128 f32 with G = 8, P = 4 rose from 0.92 to 0.97 (reports/h200/perf.md).
// A lane adds its P exps in sequence: the sum's depth log2 V + (P - 1) + log2 G (the first
// addition, to 0, is exact) must stay within the policy's n/32 + log2 n (ops/softmax/reference.cpp).
// The any-layout path (V = 1) keeps one vector per lane below 32 lanes (fewer instantiations).
inline int log2_pow2(long long p) {
  int l = 0;
  while ((1LL << l) < p) ++l;
  return l;
}
inline int rows_vec_per_lane(long long cols, int v) {
  const long long padded = next_pow2((cols + v - 1) / v);  // the row's vectors, rounded up
  if (padded > 32 || v == 1) return static_cast<int>(padded > 32 ? padded / 32 : 1);
  const double allowed = static_cast<double>(cols) / 32 + std::log2(static_cast<double>(cols));
  for (int p = 4; p > 1; p /= 2)
    if (padded / p >= 8 && log2_pow2(v) + (p - 1) + log2_pow2(padded / p) <= allowed) return p;
  return 1;
}

template <typename T, int V>
void rows_vec_launch(const LaunchRequest& r, const SoftmaxArgs<T>& args) {
  const long long vectors = (args.cols + V - 1) / V;
  const int p = rows_vec_per_lane(args.cols, V);
  const int g = static_cast<int>(next_pow2(vectors) / p < 32 ? next_pow2(vectors) / p : 32);
  const long long rows_per_block = 256 / g;
  const dim3 grid(static_cast<unsigned>((args.rows + rows_per_block - 1) / rows_per_block)), block(256);
  if (g == 32) {
    with_pow2<32 / V>(p, [&]<int P>() {
      softmax_rows_vec<T, V, 32, P><<<grid, block, 0, launch_stream(r)>>>(args);
      check_launch("softmax_rows_vec<T, V, 32, P>");
    });
  } else if constexpr (V == 1) {
    with_pow2<16>(g, [&]<int G>() {
      softmax_rows_vec<T, V, G, 1><<<grid, block, 0, launch_stream(r)>>>(args);
      check_launch("softmax_rows_vec<T, V, G, 1>");
    });
  } else {
    with_pow2<16>(g, [&]<int G>() {
      with_pow2<4>(p, [&]<int P>() {
        softmax_rows_vec<T, V, G, P><<<grid, block, 0, launch_stream(r)>>>(args);
        check_launch("softmax_rows_vec<T, V, G, P>");
      });
    });
  }
}

void rows_vec(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    if (args.cols > kRowsVecMaxColumns)
      throw std::invalid_argument("softmax/rows_vec takes rows of at most 1024 columns");
    if (softmax_vector_path(r))
      rows_vec_launch<T, kLanesPerVector<T>>(r, args);
    else
      rows_vec_launch<T, 1>(r, args);
  });
}

inline unsigned rows_grid(long long rows) { return static_cast<unsigned>(rows < 65535 ? rows : 65535); }

template <typename T, int V>
void block_regs_launch(const LaunchRequest& r, const SoftmaxArgs<T>& args) {
  const long long vectors = (args.cols + V - 1) / V;
  const int p = regs_per_thread(vectors, V);
  const dim3 grid(1, rows_grid(args.rows)), block(regs_threads(vectors, p));
  with_pow2<kSoftmaxRegsMaxValues / V>(p, [&]<int P>() {
    softmax_block_regs<T, V, P, false><<<grid, block, 0, launch_stream(r)>>>(args);
    check_launch("softmax_block_regs<T, V, P, false>");
  });
}

void block_regs(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    if (args.cols > kBlockRegsMaxColumns)
      throw std::invalid_argument("softmax/block_regs takes rows of at most 32768 columns");
    if (softmax_vector_path(r))
      block_regs_launch<T, kLanesPerVector<T>>(r, args);
    else
      block_regs_launch<T, 1>(r, args);
  });
}

#if defined(__CUDACC__)
// cluster_regs: C = 2, 4 or 8 blocks per row (the portable cluster sizes): at least the C whose
// slices fit 1024 threads x 32 values, doubled while each block keeps >= 128 threads at 32 values
// (more, smaller blocks: several per SM, so loads of one overlap the exchange of another); at least
// 2 so that even narrow Cases exercise the distributed shared memory exchange.
template <typename T, int V>
void cluster_regs_launch(const LaunchRequest& r, const SoftmaxArgs<T>& args) {
  const long long vectors = (args.cols + V - 1) / V;
  const long long per_thread = kSoftmaxRegsMaxValues / V;
  const long long per_block_max = static_cast<long long>(kSoftmaxRegsMaxThreads) * per_thread;
  unsigned c = 2;
  while ((vectors + c - 1) / c > per_block_max) c *= 2;
  while (c < kSoftmaxMaxCluster && (vectors + 2 * c - 1) / (2 * c) >= 128 * per_thread) c *= 2;
  const long long slice = (vectors + c - 1) / c;
  const int p = regs_per_thread(slice, V);
  with_pow2<kSoftmaxRegsMaxValues / V>(p, [&]<int P>() {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(c, rows_grid(args.rows));
    config.blockDim = dim3(regs_threads(slice, p));
    config.dynamicSmemBytes = 0;
    config.stream = static_cast<cudaStream_t>(r.stream);
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = c;
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    config.attrs = attribute;
    config.numAttrs = 1;
    ::kverify::cuda::check(cudaLaunchKernelEx(&config, softmax_block_regs<T, V, P, true>, args),
                           "cudaLaunchKernelEx(softmax_block_regs, cluster) for softmax/cluster_regs");
  });
}

void cluster_regs(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    if (args.cols > kClusterRegsMaxColumns)
      throw std::invalid_argument("softmax/cluster_regs takes rows of at most 262144 columns");
    if (softmax_vector_path(r))
      cluster_regs_launch<T, kLanesPerVector<T>>(r, args);
    else
      cluster_regs_launch<T, 1>(r, args);
  });
}
#else
// Thread-block clusters and distributed shared memory exist only on sm_90; the registry marks
// cluster_regs on_emu = false, so this is reached only by a direct call.
void cluster_regs(const LaunchRequest&) {
  throw std::invalid_argument("softmax/cluster_regs runs only on the cuda backend (sm_90 thread-block clusters)");
}
#endif

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::softmax
