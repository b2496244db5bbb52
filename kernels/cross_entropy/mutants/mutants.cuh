// cross_entropy's mutants: deliberately wrong variants, one documented bug class each, registered
// in this folder's CMakeLists.txt through kverify_add_variant (the extension point a user's own
// variant takes). The mutation self-test (`kverify mutants`) must kill every one:
//   mutant_no_max_subtraction     sum exp(x) with no max taken out: overflows past x = 88
//   mutant_no_rescale             an online max that grows without rescaling the sum so far
//   mutant_storage_accumulator    the sum of exponentials kept in the storage dtype (f16/bf16 round
//                                 it after every term; f32 is the production kernel)
//   mutant_ignore_index_unchecked the target gathered as it is, ignore_index too (x[-100]: a read
//                                 before the row, or a class's loss where 0 is due)
//   mutant_mean_over_all_rows     the mean divides by every row, the ignored ones too
//   mutant_prescaled_exp2         exp2f(fmaf(x, log2 e, -max log2 e)), the one-instruction exponent
//                                 of attention kernels: max log2 e rounds by u |max|, which as an
//                                 exponent scales every term by up to 2^(u |max|) (a row of 1e30s sums
//                                 to inf; right while |max| u << 1)
//   mutant_packed_shared_max      rows of up to 16 classes two to a warp, the max reduced over the
//                                 whole warp: a row's terms scaled by its neighbour's max, an ignored
//                                 neighbour's too (exact while the two maxima are near; a neighbour
//                                 far above leaves the row no term: an infinite loss)
// This header is compiled once per backend (KV_BACKEND = emu or cuda); the launchers live in
// namespace KV_BACKEND.
#include "kernels/common/backend_launch.hpp"
#include "kernels/common/row_plans.hpp"
#include "kernels/cross_entropy/cross_entropy_kernels.cuh"
#include "runtime/kernel_api.hpp"
// The op's argument builder, without its launchers (those live in kernels/cross_entropy/cross_entropy_*.cpp|cu).
#pragma push_macro("KV_BACKEND")
#undef KV_BACKEND
#include "kernels/cross_entropy/launchers.inl"
#pragma pop_macro("KV_BACKEND")

namespace kverify::kernels::cross_entropy::mutants {

// Which bug a mutant kernel plants (one kernel body, so each mutant differs from warp_per_row by
// its bug alone).
enum class Bug { none, no_max_subtraction, no_rescale, storage_accumulator, ignore_index_unchecked, prescaled_exp2 };

template <typename T, Bug bug>
__global__ void cross_entropy_warp_mutant(CrossEntropyArgs<T> a) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= a.rows) return;
  const unsigned lane = threadIdx.x % 32;
  if (bug != Bug::ignore_index_unchecked && cross_entropy_ignored(a, row)) {
    if (lane == 0) a.loss[row * a.loss_stride] = 0.0f;
    return;
  }
  const T* x = a.logits + row * a.logits_row_stride;
  OnlineSum p;
  if constexpr (bug == Bug::no_max_subtraction) {
    p.max = 0.0f;  // BUG: exp(x) itself
    for (long long c = lane; c < a.classes; c += 32) p.sum += expf(kv::to_f32(x[c * a.logits_col_stride]));
  } else if constexpr (bug == Bug::no_rescale) {
    for (long long c = lane; c < a.classes; c += 32) {
      const float v = kv::to_f32(x[c * a.logits_col_stride]);
      if (v == -INFINITY) continue;
      p.max = fmaxf(p.max, v);  // BUG: the sum so far is not rescaled to the new max
      p.sum += expf(v - p.max);
    }
  } else if constexpr (bug == Bug::storage_accumulator) {
    T sum = kv::from_f32<T>(0.0f);
    for (long long c = lane; c < a.classes; c += 32) {
      const float v = kv::to_f32(x[c * a.logits_col_stride]);
      if (v == -INFINITY) continue;
      if (v > p.max) {
        sum = kv::from_f32<T>(kv::to_f32(sum) * expf(p.max - v));
        p.max = v;
      }
      sum = kv::from_f32<T>(kv::to_f32(sum) + expf(v - p.max));  // BUG: rounded to the storage dtype
    }
    p.sum = kv::to_f32(sum);
  } else if constexpr (bug == Bug::prescaled_exp2) {
    for (long long c = lane; c < a.classes; c += 32) {
      const float v = kv::to_f32(x[c * a.logits_col_stride]);
      if (v == -INFINITY) continue;
      if (v > p.max) {
        p.sum *= exp2f((p.max - v) * kLog2e);
        p.max = v;
      }
      p.sum += exp2f(fmaf(v, kLog2e, -p.max * kLog2e));  // BUG: max log2(e) rounded, then an exponent
    }
  } else {
    for (long long c = lane; c < a.classes; c += 32) p.add(kv::to_f32(x[c * a.logits_col_stride]));
  }
  if constexpr (bug == Bug::no_max_subtraction) {
    for (int offset = 16; offset > 0; offset /= 2) p.sum += __shfl_xor_sync(0xffffffffu, p.sum, offset);
  } else {
    p = warp_merge(p);
  }
  if (lane == 0) cross_entropy_store(a, row, p);  // ignore_index_unchecked: x[target] for any target
}

// cross_entropy_total with the count of every row.
template <typename T>
__global__ void cross_entropy_total_over_all_rows(CrossEntropyArgs<T> a) {
  __shared__ float scratch[32];
  float sum = 0.0f;
  for (long long r = threadIdx.x; r < a.rows; r += blockDim.x)
    if (!cross_entropy_ignored(a, r)) sum += a.loss[r * a.loss_stride];
  sum = block_reduce(sum, SumOp{}, scratch);
  if (threadIdx.x == 0) *a.total = a.mean ? sum / static_cast<float>(a.rows) : sum;  // BUG: rows, not those kept
}

// Two rows of up to 16 classes a warp, a half-warp a row, as kernels for small vocabularies pack
// them; the row's ignore_index checked only when its loss is stored.
template <typename T>
__global__ void cross_entropy_packed_shared_max(CrossEntropyArgs<T> a) {
  const long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 16;
  const unsigned lane = threadIdx.x % 16;
  const bool live = row < a.rows;  // a row past the end still takes part in the shuffles
  float v = -INFINITY;
  if (live && lane < a.classes) v = kv::to_f32(a.logits[row * a.logits_row_stride + lane * a.logits_col_stride]);
  OnlineSum p;
  p.max = v;
  for (int offset = 16; offset > 0; offset /= 2)  // BUG: offset 16 reaches the other half-warp's row
    p.max = fmaxf(p.max, __shfl_xor_sync(0xffffffffu, p.max, offset));
  p.sum = v == -INFINITY ? 0.0f : expf(v - p.max);
  for (int offset = 8; offset > 0; offset /= 2) p.sum += __shfl_xor_sync(0xffffffffu, p.sum, offset);
  if (!live || lane != 0) return;
  if (cross_entropy_ignored(a, row)) {
    a.loss[row * a.loss_stride] = 0.0f;
    return;
  }
  cross_entropy_store(a, row, p);
}

#if defined(KV_BACKEND)
namespace KV_BACKEND {

template <Bug bug>
void warp_mutant(const LaunchRequest& r, const char* name, bool total_over_all_rows = false) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = cross_entropy_args<T>(r);
    cross_entropy_warp_mutant<T, bug>
        <<<dim3(static_cast<unsigned>((a.rows + kWarpRowsPerBlock - 1) / kWarpRowsPerBlock)),
           dim3(32 * kWarpRowsPerBlock), 0, launch_stream(r)>>>(a);
    check_launch(name);
    if (total_over_all_rows)
      cross_entropy_total_over_all_rows<T><<<1, 256, 0, launch_stream(r)>>>(a);
    else
      cross_entropy_total<T><<<1, 256, 0, launch_stream(r)>>>(a);
    check_launch(name);
  });
}

void no_max_subtraction(const LaunchRequest& r) { warp_mutant<Bug::no_max_subtraction>(r, "no_max_subtraction"); }
void no_rescale(const LaunchRequest& r) { warp_mutant<Bug::no_rescale>(r, "no_rescale"); }
void storage_accumulator(const LaunchRequest& r) { warp_mutant<Bug::storage_accumulator>(r, "storage_accumulator"); }
void ignore_index_unchecked(const LaunchRequest& r) {
  warp_mutant<Bug::ignore_index_unchecked>(r, "ignore_index_unchecked");
}
void mean_over_all_rows(const LaunchRequest& r) { warp_mutant<Bug::none>(r, "mean_over_all_rows", true); }
void prescaled_exp2(const LaunchRequest& r) { warp_mutant<Bug::prescaled_exp2>(r, "prescaled_exp2"); }
// Up to 16 classes: the packed kernel; wider rows: the warp-per-row kernel as it is.
void packed_shared_max(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const auto a = cross_entropy_args<T>(r);
    if (a.classes > 16) return warp_mutant<Bug::none>(r, "packed_shared_max");
    cross_entropy_packed_shared_max<T>
        <<<dim3(static_cast<unsigned>((a.rows + 15) / 16)), dim3(256), 0, launch_stream(r)>>>(a);
    check_launch("packed_shared_max");
    cross_entropy_total<T><<<1, 256, 0, launch_stream(r)>>>(a);
    check_launch("packed_shared_max");
  });
}

}  // namespace KV_BACKEND
#endif

}  // namespace kverify::kernels::cross_entropy::mutants
