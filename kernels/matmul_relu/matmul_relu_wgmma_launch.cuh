// The host side of matmul_relu/wgmma (matmul_relu_wgmma.cuh): how one planned problem
// (wgmma_plan.hpp) is launched. prepare() packs the operands the tensor copies cannot read in
// place, encodes the tensor maps and fills the kernel's parameters; launch_gemm() launches one
// instantiation of the persistent GEMM over the device's SMs;
// finish() adds the splits of a split-K plan. The production launcher
// (matmul_relu_wgmma_sm90a.cu) and the mutation self-test's planted bugs
// (mutants/wgmma_mutants.cuh) share them. nvcc for sm_90a only.
#pragma once

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/common/backend_launch.hpp"
#include "kernels/matmul_relu/matmul_relu_wgmma.cuh"
#include "kernels/matmul_relu/wgmma_plan.hpp"
#include "runtime/cuda/check.hpp"
#include "runtime/cuda/device.hpp"

#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/matmul_relu/launchers.inl"  // without KV_BACKEND: matmul_relu_args only
#pragma pop_macro("KV_BACKEND")

namespace kverify::kernels::matmul_relu::wgmma_gemm {
namespace {

// cuTensorMapEncodeTiled is a driver function; the statically linked runtime hands it out.
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    ::kverify::cuda::check(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &found),
        "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (found != cudaDriverEntryPointSuccess || f == nullptr)
      throw std::runtime_error(
          "matmul_relu/wgmma: the driver has no cuTensorMapEncodeTiled (tensor copies need a CUDA 12 driver)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  return fn;
}

// A tensor map over `rows` rows of `cols` 16-bit elements, rows `ld` elements apart, read in
// boxes of box_cols (64: one 128-byte swizzled row) x box_rows; outside the tensor, zeros.
template <typename T>
CUtensorMap tensor_map(const void* base, long long rows, long long cols, long long ld, unsigned box_rows,
                       const char* operand) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * 2};
  const cuuint32_t box[2] = {64, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUtensorMapDataType type =
      std::is_same_v<T, __half> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  const CUresult e = encode_tiled()(&map, type, 2, const_cast<void*>(base), dims, strides, box, element_strides,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (e != CUDA_SUCCESS)
    throw std::runtime_error(std::string("matmul_relu/wgmma: cuTensorMapEncodeTiled for ") + operand + " (" +
                             std::to_string(rows) + " x " + std::to_string(cols) + ", leading dimension " +
                             std::to_string(ld) + ") failed with CUresult " + std::to_string(static_cast<int>(e)));
  return map;
}

template <typename T>
void pack(const LaunchRequest& r, const T* src, long long rows, long long cols, long long row_stride,
          long long col_stride, T* dst, long long ld) {
  const unsigned x = static_cast<unsigned>(std::min<long long>((cols + 255) / 256, 1024));
  const unsigned y = static_cast<unsigned>(std::min<long long>(rows, 65535));
  pack_rows<T><<<dim3(x, y), 256, 0, launch_stream(r)>>>(src, rows, cols, row_stride, col_stride, dst, ld);
  check_launch("matmul_relu_wgmma pack_rows");
}

// Everything one launch of the GEMM needs.
struct Prepared {
  CUtensorMap a_map, b_map;
  Params params;
};

// Packs what the plan says, encodes the tensor maps, fills the parameters. `bug`: the host-side
// planted bugs of the mutation self-test (Bug::none in production).
template <typename T>
Prepared prepare(const LaunchRequest& r, const WgmmaPlan& plan, Bug bug = Bug::none) {
  const auto& device = ::kverify::cuda::device_status();
  if (device.compute_capability != 90)
    throw std::runtime_error(
        "matmul_relu/wgmma needs an sm_90 GPU (Hopper: it is built for sm_90a); this device is sm_" +
        std::to_string(device.compute_capability));
  const auto args = matmul_relu_args<T>(r);
  auto* workspace = static_cast<unsigned char*>(r.workspace);
  if (plan.workspace_bytes > 0 && workspace == nullptr)
    throw std::logic_error("matmul_relu/wgmma: the plan needs " + std::to_string(plan.workspace_bytes) +
                           " bytes of workspace and the request has none");

  const T* a = args.a;
  const T* b = args.b;
  if (plan.pack_a) {
    T* packed = reinterpret_cast<T*>(workspace + plan.pack_a_offset);
    pack(r, args.a, args.m, args.k, args.a_row_stride, args.a_col_stride, packed, plan.lda);
    a = packed;
  }
  if (plan.pack_b) {
    T* packed = reinterpret_cast<T*>(workspace + plan.pack_b_offset);
    pack(r, args.b, args.k, args.n, args.b_row_stride, args.b_col_stride, packed, plan.ldb);
    b = packed;
  }
  // The K extent the tensor maps declare: past it the copies read zeros.
  const long long k_extent = bug == Bug::unmasked_k_tail ? WgmmaPlan::k_blocks(args.k) * kBlockK : args.k;
  const bool b_n_major = plan.b_n_major || bug == Bug::b_orientation;
  Prepared out{tensor_map<T>(a, args.m, k_extent, plan.lda, WgmmaPlan::kTileM, "A"),
               b_n_major ? tensor_map<T>(b, k_extent, args.n, plan.ldb, WgmmaPlan::kBlockK, "B")
                         : tensor_map<T>(b, args.n, k_extent, plan.ldb, plan.tile_n, "B"),
               {}};
  Params& p = out.params;
  p.m = args.m;
  p.n = args.n;
  p.m_tiles = (args.m + kTileM - 1) / kTileM;
  p.n_tiles = (args.n + plan.tile_n - 1) / plan.tile_n;
  p.k_blocks = static_cast<int>(bug == Bug::dropped_k_tail ? args.k / kBlockK : WgmmaPlan::k_blocks(args.k));
  p.k_blocks_per_split = plan.k_blocks_per_split;
  p.splits = plan.splits;
  p.units = p.m_tiles * p.n_tiles * p.splits;
  p.c = args.c;
  p.c_row_stride = args.c_row_stride;
  p.c_col_stride = args.c_col_stride;
  p.partials = plan.splits > 1 ? reinterpret_cast<float*>(workspace + plan.partials_offset) : nullptr;
  return out;
}

template <typename T, int kTileN, int kStages, bool kBNMajor, int kPromoteEvery, Bug kBug = Bug::none>
void launch_gemm(const LaunchRequest& r, const Prepared& prepared) {
  auto* kernel = &matmul_relu_wgmma<T, kTileN, kStages, kBNMajor, kPromoteEvery, kBug>;
  constexpr int kShared = Layout<kTileN, kStages>::kSharedBytes;
  // Once per instantiation (and device: kverify uses one); a failure throws and is retried next time.
  static const bool shared_allowed = (allow_dynamic_shared(kernel, kShared, "matmul_relu_wgmma"), true);
  static_cast<void>(shared_allowed);
  const Params& p = prepared.params;
  const long long sms = ::kverify::cuda::device_status().multiprocessors;
  const unsigned grid = static_cast<unsigned>(std::min(p.units, sms));
  kernel<<<grid, kThreads, kShared, launch_stream(r)>>>(prepared.a_map, prepared.b_map, p);
  check_launch("matmul_relu_wgmma");
}

// The sum of the splits, the ReLU and the rounding, when the plan split K.
template <typename T, Bug kBug = Bug::none>
void finish(const LaunchRequest& r, const Params& p) {
  if (p.splits == 1) return;
  reduce_splits<T, kBug><<<split_sum_grid(p.m, p.n), kSplitSumThreads, 0, launch_stream(r)>>>(p);
  check_launch("matmul_relu_wgmma reduce_splits");
}

}  // namespace
}  // namespace kverify::kernels::matmul_relu::wgmma_gemm
