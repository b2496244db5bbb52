// The planted bug of the softmax_planted fuzz target: a copy of softmax/warp_per_row
// (kernels/softmax/softmax_warp_per_row.cuh) whose tail lanes pad the row's max with 0 instead of
// -inf, the classic masked-row bug. It is invisible when the row fills every lane's registers
// (cols = 32 * 2^k) and when the row holds a value above 0; it shows on a tail width with values
// that are all negative and far enough below 0 that exp(x - 0) underflows (e.g. values=const:-200
// or values=negative:1e4). Registered only in the softmax_planted fuzz binary: the proof that the
// fuzzer finds a tail bug (fuzz/tests/planted_bug_found.sh), never a production variant.
#include "fuzz/targets.hpp"
#include "kernels/common/backend_launch.hpp"
#include "kernels/common/block_reduce.cuh"
#include "kernels/registry.hpp"
#include "kernels/softmax/launchers.inl"  // softmax_args (no KV_BACKEND: no production launchers)

namespace kverify::fuzz {
namespace {

using kernels::MaxOp;
using kernels::SoftmaxArgs;
using kernels::SumOp;
using kernels::warp_reduce;

template <typename T, int kPerLane>
__global__ void __launch_bounds__(256) softmax_warp_per_row_zero_pad(SoftmaxArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const T* x = a.x + row * a.x_row_stride;
  T* y = a.y + row * a.y_row_stride;

  float v[kPerLane];
  float max = MaxOp::identity();
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    v[i] = c < a.cols ? kv::to_f32(x[c * a.x_col_stride]) : 0.0f;  // PLANTED: production pads with -inf
    max = fmaxf(max, v[i]);
  }
  max = warp_reduce(max, MaxOp{});
  float sum = 0.0f;
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    v[i] = c < a.cols ? expf(v[i] - max) : 0.0f;
    sum += v[i];
  }
  sum = warp_reduce(sum, SumOp{});
  for (int i = 0; i < kPerLane; ++i) {
    const long long c = lane + 32ll * i;
    if (c < a.cols) y[c * a.y_col_stride] = kv::from_f32<T>(v[i] / sum);
  }
}

void launch_zero_pad(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = kernels::softmax::softmax_args<T>(r);
    const dim3 grid(static_cast<unsigned>((args.rows + 7) / 8)), block(256);
    const long long per_lane = (args.cols + 31) / 32;
    if (per_lane <= 1) KV_LAUNCH((softmax_warp_per_row_zero_pad<T, 1>), grid, block, 0, r, args);
    else if (per_lane <= 2) KV_LAUNCH((softmax_warp_per_row_zero_pad<T, 2>), grid, block, 0, r, args);
    else if (per_lane <= 4) KV_LAUNCH((softmax_warp_per_row_zero_pad<T, 4>), grid, block, 0, r, args);
    else if (per_lane <= 8) KV_LAUNCH((softmax_warp_per_row_zero_pad<T, 8>), grid, block, 0, r, args);
    else if (per_lane <= 16) KV_LAUNCH((softmax_warp_per_row_zero_pad<T, 16>), grid, block, 0, r, args);
    else KV_LAUNCH((softmax_warp_per_row_zero_pad<T, 32>), grid, block, 0, r, args);
  });
}

const Variant kPlanted[] = {
    {.op = "softmax",
     .name = "planted_zero_pad",
     .strategy = "PLANTED BUG (fuzz demo): softmax/warp_per_row with the tail lanes' max padded with 0",
     .on_cuda = false,
     .max_rows = 0x7fffffffll * 8,
     .max_cols = kernels::softmax::kWarpPerRowMaxColumns,
     .mutant = true,
     .launch_emu = &launch_zero_pad},
};

}  // namespace

std::span<const Variant> planted_softmax_variants() { return kPlanted; }

}  // namespace kverify::fuzz
