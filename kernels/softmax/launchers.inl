// The softmax launchers, written once: softmax_emu.cpp compiles them for emu and softmax_cuda.cu
// for the GPU, each defining KV_BACKEND (the namespace, emu or cuda) first.
// Each launcher maps a LaunchRequest to its kernel's grid, block and arguments.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "kernels/common/backend_launch.hpp"
#include "kernels/plan_overrides.hpp"
#include "kernels/softmax/softmax_block_per_row.cuh"
#include "kernels/softmax/softmax_block_regs.cuh"
#include "kernels/softmax/softmax_cluster_bulk.cuh"
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
// values per thread: rows_vec 32 lanes x 32 = 1024 columns, block_regs 1024 threads x 32 = 32768.
inline constexpr long long kRowsVecMaxColumns = 32 * kSoftmaxRegsMaxValues;
inline constexpr long long kBlockRegsMaxColumns =
    static_cast<long long>(kSoftmaxRegsMaxThreads) * kSoftmaxRegsMaxValues;
// block_on_chip keeps the row in shared memory: 224 KiB of f32 of the H200's 227 KiB per block.
inline constexpr long long kMaxOnChipColumns = 56 * 1024;

// Whether x and y both take 16-byte vectors (vec_io.cuh); otherwise the V = 1 instantiation runs.
inline bool softmax_vector_path(const LaunchRequest& r) {
  const std::size_t bytes = size_of(r.dtype);
  return vector_rows_ok(r.tensors[0].layout, reinterpret_cast<std::uintptr_t>(r.tensors[0].data), bytes) &&
         vector_rows_ok(r.tensors[1].layout, reinterpret_cast<std::uintptr_t>(r.tensors[1].data), bytes);
}

// cluster_bulk's shape (softmax_cluster_bulk.cuh): blocks per row, threads per block, slices in
// the ring. Measured on the H200 (reports/h200/perf.md, widths 4096 to 262144, f32 and bf16, every
// cluster size, 128-1024 threads, 1-3 stages): slices of up to 64 KiB (the fewest blocks per row),
// two stages of them with 512 threads (one block per SM: f32 65536 0.94 of the copy ceiling, with
// 256 threads 0.78); slices of 32 KiB, 256 threads and three stages (bf16 16384: 0.88); rows of
// 512 KiB and more over the largest cluster, 16 blocks of 256 threads, two stages of 32 KiB
// (bf16 262144: 0.83) or one of 64 KiB (f32 262144: 0.85; two stages 0.72): more blocks of a
// 16-block cluster fit a GPC when each takes less shared memory.
// Blocks of at most kBulkKeptExpsMaxThreads threads with at most kBulkMaxKeptExps exps each
// keep them in registers from the sum to the store (no exp recomputed, the stage refilled before
// the exchange): keep_exps, which every plan above allows. With the same plans, kept (one read of
// the slice) against recomputed: bf16 16384 0.90 / 0.86, bf16 65536 0.88 / 0.88, bf16 262144
// 0.91-0.92 / 0.83, f16 65536 0.90 / 0.89, f32 65536 0.91-0.92 / 0.91, f32 262144 0.90 / 0.84;
// other plans with kept exps (fewer stages, more blocks per row, 512 threads) lost 0.01-0.17.
struct BulkPlan {
  int cluster = 1;
  int threads = 256;
  int stages = 1;
  bool keep_exps = false;
};
inline constexpr long long kBulkMaxSliceBytes = 192 * 1024;
inline constexpr long long kClusterBulkMaxColumns = kBulkMaxCluster * kBulkMaxSliceBytes / 4;

// 16-byte vectors per block of a row of `cols` elements of `bytes` each over `cluster` blocks.
inline int bulk_slice_vectors(long long cols, std::size_t bytes, int cluster) {
  const long long per_vector = kVectorBytes / static_cast<long long>(bytes);
  const long long vectors = (cols + per_vector - 1) / per_vector;
  return static_cast<int>((vectors + cluster - 1) / cluster);
}

// Vectors per thread (a power of two) and the threads that cover a slice with them.
inline int bulk_vectors_per_thread(int slice_vectors, int threads) {
  int p = 1;
  while (p < kBulkMaxVectorsPerThread && static_cast<long long>(p) * threads < slice_vectors) p *= 2;
  return p;
}
inline int bulk_block_threads(int slice_vectors, int p) {
  return std::max(32, (slice_vectors + p - 1) / p + 31) / 32 * 32;
}

// Why a plan cannot keep its exps in registers; empty when it can.
inline std::string bulk_keep_exps_problem(long long cols, std::size_t bytes, const BulkPlan& plan) {
  const int slice_vectors = bulk_slice_vectors(cols, bytes, plan.cluster);
  const int p = bulk_vectors_per_thread(slice_vectors, plan.threads);
  const int threads = bulk_block_threads(slice_vectors, p);
  const long long exps = static_cast<long long>(p) * (kVectorBytes / static_cast<long long>(bytes));
  if (threads <= kBulkKeptExpsMaxThreads && exps <= kBulkMaxKeptExps) return "";
  return "the plan gives blocks of " + std::to_string(threads) + " threads with " + std::to_string(exps) +
         " exps each; kept exps need at most " + std::to_string(kBulkKeptExpsMaxThreads) + " threads and " +
         std::to_string(kBulkMaxKeptExps) + " exps";
}

inline BulkPlan bulk_plan(long long cols, std::size_t bytes) {
  constexpr long long kSmallSlice = 32 * 1024, kLargeSlice = 64 * 1024, kWideRow = 512 * 1024;
  const auto slice_of = [&](int cluster) {
    return static_cast<long long>(bulk_slice_vectors(cols, bytes, cluster)) * kVectorBytes;
  };
  BulkPlan plan;
  if (cols * static_cast<long long>(bytes) >= kWideRow) {
    plan.cluster = kBulkMaxCluster;
    plan.threads = 256;
    plan.stages = slice_of(plan.cluster) <= kSmallSlice ? 2 : 1;
  } else {
    while (plan.cluster < kBulkMaxCluster && slice_of(plan.cluster) > kLargeSlice) plan.cluster *= 2;
    const bool large = slice_of(plan.cluster) > kSmallSlice;
    plan.threads = large ? 512 : 256;
    plan.stages = large ? 2 : 3;
  }
  // Development hook for the plan sweep (kernels/plan_overrides.hpp). A plan that does not fit the
  // device fails its launch with the reason.
  const auto forced = bulk_plan_override();
  const int keep = forced ? forced->keep : -1;  // -1: kept where the plan allows
  if (forced) plan = BulkPlan{forced->cluster, forced->threads, forced->stages, false};
  const std::string problem = bulk_keep_exps_problem(cols, bytes, plan);
  if (keep == 1 && !problem.empty())
    throw std::invalid_argument(std::string("KVERIFY_BULK_PLAN='") + std::getenv("KVERIFY_BULK_PLAN") +
                                "': cannot keep the exps: " + problem);
  plan.keep_exps = keep == -1 ? problem.empty() : keep == 1;
  return plan;
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

// rows_vec: G lanes per row, P vectors per lane, R rows per lane group. Rows of up to 32 vectors
// take one vector per lane (G = the row's vectors rounded up to a power of two, P = 1), wider ones
// G = 32 lanes and P = the row's vectors / 32. f32 rows of one vector per lane take R = 2 rows per
// group (two loads in flight per lane), f16/bf16 R = 1. Measured on the H200 (reports/h200/perf.md):
// width 32 f32 0.97 -> 1.00 of the copy ceiling with R = 2, bf16 0.97 -> 0.91; width 128 bf16
// G = 16, P = 1 0.96 against G = 8, P = 2 0.86, f32 G = 32, P = 1, R = 2 0.98 against G = 8, P = 4
// 0.97. A lane's sum has depth log2 V + (P - 1) + log2 G, counting additions of elements only
// (those of the zero padding are exact): within the policy's n/32 + log2 n (ops/softmax/reference.cpp).
// Blocks of 128 threads, and 64 for 16-bit rows of 4 or more vectors per lane: SM registers are
// handed out per block, and those rows take ~53 registers per thread, 4 blocks of 256 (32 warps)
// where blocks of 64 give 36; a smaller block also frees its slot sooner. Measured on the H200
// (reports/h200/perf.md), fraction of the copy ceiling, 256 / 128 / 64 threads: bf16 1024 0.81 /
// 0.91 / 0.93, bf16 512 0.94 / 0.98 / 0.98, bf16 128 0.95 / 0.97 / 0.78 (a block of 64 holds 4
// rows: the block count, not the memory, sets the pace), f32 128 and 256 0.98 / 1.00 / 1.00,
// f32 1024 0.98 / 0.97 / 0.97.
template <typename T>
constexpr int rows_vec_threads(int vectors_per_lane) {
  return sizeof(T) == 2 && vectors_per_lane >= 4 ? 64 : 128;
}

template <typename T, int V>
void rows_vec_launch(const LaunchRequest& r, const SoftmaxArgs<T>& args) {
  constexpr bool kTwoRowsPerGroup = sizeof(T) == 4 && V > 1;  // for rows of one vector per lane
  const long long vectors = (args.cols + V - 1) / V;
  const long long padded = next_pow2(vectors);
  const int g = static_cast<int>(padded < 32 ? padded : 32);
  const int p = static_cast<int>(padded > 32 ? padded / 32 : 1);
  const int threads = rows_vec_threads<T>(p);
  const long long rows_per_block = threads / g * (kTwoRowsPerGroup && p == 1 ? 2 : 1);
  const dim3 grid(static_cast<unsigned>((args.rows + rows_per_block - 1) / rows_per_block)), block(threads);
  const auto launch = [&]<int G, int P>() {
    constexpr int R = kTwoRowsPerGroup && P == 1 ? 2 : 1;
    softmax_rows_vec<T, V, G, P, R><<<grid, block, 0, launch_stream(r)>>>(args);
    check_launch("softmax_rows_vec<T, V, G, P, R>");
  };
  if (g == 32)
    with_pow2<32 / V>(p, [&]<int P>() { launch.template operator()<32, P>(); });
  else
    with_pow2<16>(g, [&]<int G>() { launch.template operator()<G, 1>(); });
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
    softmax_block_regs<T, V, P><<<grid, block, 0, launch_stream(r)>>>(args);
    check_launch("softmax_block_regs<T, V, P>");
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
// cluster_bulk: a cluster of `cluster` blocks of `threads` per row, a ring of `stages` slices per
// block (softmax_cluster_bulk.cuh). The persistent grid holds as many clusters as the device
// keeps resident at once (cudaOccupancyMaxActiveClusters), at most one per row.
template <typename T>
void cluster_bulk_launch(const LaunchRequest& r, const SoftmaxArgs<T>& args, const BulkPlan& plan) {
  const int slice_vectors = bulk_slice_vectors(args.cols, sizeof(T), plan.cluster);
  const int p = bulk_vectors_per_thread(slice_vectors, plan.threads);
  const int threads = bulk_block_threads(slice_vectors, p);
  const std::size_t shared = static_cast<std::size_t>(plan.stages) * slice_vectors * kVectorBytes;
  with_pow2<kBulkMaxVectorsPerThread>(p, [&]<int P>() {
    // bulk_plan keeps the exps only where P V fits kBulkMaxKeptExps.
    const auto kernel = [&] {
      if constexpr (P * kLanesPerVector<T> <= kBulkMaxKeptExps)
        return plan.keep_exps ? softmax_cluster_bulk<T, P, true> : softmax_cluster_bulk<T, P, false>;
      else
        return softmax_cluster_bulk<T, P, false>;
    }();
    cudaLaunchConfig_t config{};
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = shared;
    config.stream = launch_stream(r);
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = static_cast<unsigned>(plan.cluster);
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    config.attrs = attribute;
    config.numAttrs = 1;
    config.gridDim = dim3(static_cast<unsigned>(plan.cluster), 1);
    // The attributes and the occupancy query cost host time that a timed launch would include:
    // once per instantiation, configuration and device.
    static std::mutex mutex;
    static std::map<std::tuple<int, int, int, std::size_t, bool>, int> resident_clusters;
    int device = 0;
    ::kverify::cuda::check(cudaGetDevice(&device), "cudaGetDevice for softmax/cluster_bulk");
    int resident = 0;
    {
      const std::lock_guard<std::mutex> lock(mutex);
      const auto key = std::make_tuple(device, plan.cluster, threads, shared, plan.keep_exps);
      if (const auto found = resident_clusters.find(key); found != resident_clusters.end()) {
        resident = found->second;
      } else {
        // The kernel's limits, set to the most any plan takes: every configuration cached here
        // stays launchable.
        int optin = 0;
        ::kverify::cuda::check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                               "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin) for softmax/cluster_bulk");
        cudaFuncAttributes attributes{};
        ::kverify::cuda::check(cudaFuncGetAttributes(&attributes, kernel),
                               "cudaFuncGetAttributes for softmax/cluster_bulk");
        allow_dynamic_shared(kernel, static_cast<std::size_t>(optin) - attributes.sharedSizeBytes,
                             "softmax_cluster_bulk");
        ::kverify::cuda::check(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
                               "cudaFuncSetAttribute(NonPortableClusterSizeAllowed) for softmax/cluster_bulk");
        ::kverify::cuda::check(cudaOccupancyMaxActiveClusters(&resident, kernel, &config),
                               "cudaOccupancyMaxActiveClusters for softmax/cluster_bulk");
        resident_clusters[key] = resident;
      }
    }
    if (resident < 1)
      throw std::invalid_argument("softmax/cluster_bulk: no cluster of " + std::to_string(plan.cluster) +
                                  " blocks of " + std::to_string(threads) + " threads and " + std::to_string(shared) +
                                  " bytes of shared memory fits this device");
    config.gridDim =
        dim3(static_cast<unsigned>(plan.cluster), static_cast<unsigned>(args.rows < resident ? args.rows : resident));
    ::kverify::cuda::check(cudaLaunchKernelEx(&config, kernel, args, slice_vectors, plan.stages),
                           "cudaLaunchKernelEx(softmax_cluster_bulk) for softmax/cluster_bulk");
  });
}

// Layouts that bulk copies cannot read (a column stride, unaligned rows) run the any-layout
// register kernels: block_regs up to 32768 columns, the streaming online kernel beyond.
void cluster_bulk(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = softmax_args<T>(r);
    if (args.cols > kClusterBulkMaxColumns)
      throw std::invalid_argument("softmax/cluster_bulk takes rows of at most " +
                                  std::to_string(kClusterBulkMaxColumns) + " columns");
    if (softmax_vector_path(r))
      cluster_bulk_launch<T>(r, args, bulk_plan(args.cols, sizeof(T)));
    else if (args.cols <= kBlockRegsMaxColumns)
      block_regs_launch<T, 1>(r, args);
    else
      online(r);
  });
}
#else
// Bulk copies, mbarriers and thread-block clusters exist only on sm_90; the registry marks
// cluster_bulk on_emu = false, so this is reached only by a direct call.
void cluster_bulk(const LaunchRequest&) {
  throw std::invalid_argument("softmax/cluster_bulk runs only on the cuda backend (sm_90 bulk copies and clusters)");
}
#endif

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::softmax
