#include "pipeline/memory_plan.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "core/dtype.hpp"
#include "core/expectation.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/sampled_check.hpp"  // follows_output_rows

#if KVERIFY_HAVE_CUDA
#include <cuda_runtime.h>

#include "runtime/cuda/device.hpp"
#endif

namespace kverify {
namespace {

// Per reference element: its Expected, the eager baseline's value and the comparison's error.
constexpr std::uint64_t kReferenceBytesPerElement = sizeof(Expected) + 2 * sizeof(double);
// Below this a Case fits on any machine kverify runs on: no /proc/meminfo or cudaMemGetInfo per Case
// (the fuzzer and the properties check thousands of small Cases a second).
constexpr std::uint64_t kAlwaysFits = 64ull << 20;

// Saturating: a Case whose footprint is near 2^64 bytes must read as "too big", not wrap to small.
std::uint64_t add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

}  // namespace

std::optional<std::uint64_t> memory_limit_from_env() {
  const char* v = std::getenv("KVERIFY_MEMORY_LIMIT_GIB");
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  const double gib = std::strtod(v, &end);
  constexpr double kMostGiB = 1 << 24;  // 16 PiB: past any machine, within a uint64_t of bytes
  if (end == v || *end != '\0' || !(gib > 0) || !(gib <= kMostGiB))
    throw InputError("KVERIFY_MEMORY_LIMIT_GIB='" + std::string(v) +
                     "': not a memory size in GiB (accepted: a number above 0 and up to 16777216, e.g. 8 or 0.5; "
                     "unset for no cap)");
  return static_cast<std::uint64_t>(gib * 1073741824.0);
}

MemoryNeed memory_need(const Case& c, int image_sets, std::int64_t reference_elements) {
  MemoryNeed need;
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    const auto footprint = static_cast<std::uint64_t>(c.layout(t).footprint());
    const DType dtype = tensor_dtype(c, t);
    if (const auto mapped = GuardedImage::sparse_bytes(c.layout(t), dtype)) {  // a far layout: its pages only
      need.device = add(need.device, *mapped);
      need.host = add(need.host, mul(static_cast<std::uint64_t>(image_sets), *mapped));
      continue;
    }
    const std::uint64_t bytes = add(mul(footprint, size_of(dtype)), 2 * GuardedImage::kCanaryBytes);
    need.device = add(need.device, bytes);
    need.host = add(need.host, mul(static_cast<std::uint64_t>(image_sets), add(bytes, footprint / 8)));  // + bitmap
  }
  need.host = add(need.host, mul(static_cast<std::uint64_t>(reference_elements), kReferenceBytesPerElement));
  need.device = add(need.device, 64ull << 20);  // scratch (split_row's partials) and the CUDA context's own
  return need;
}

MemoryNeed device_check_need(const Case& c, std::int64_t reference_elements) {
  MemoryNeed need;
  // The op's rows checked: reference elements over the outputs' elements per row of the op.
  const std::int64_t op_rows = c.op->rows_dim >= 0 ? c.shape[static_cast<std::size_t>(c.op->rows_dim)] : 1;
  const auto checked_rows = static_cast<std::uint64_t>(
      reference_elements / std::max<std::int64_t>(1, output_elements(c) / std::max<std::int64_t>(1, op_rows)));
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    const Layout l = c.layout(t);
    const DType dtype = tensor_dtype(c, t);
    const auto footprint = static_cast<std::uint64_t>(l.footprint());
    std::uint64_t bytes = add(mul(footprint, size_of(dtype)), 2 * GuardedImage::kCanaryBytes);
    if (!l.contiguous_row_major()) bytes = add(bytes, footprint / 8);  // the element map
    const bool output = c.op->tensors[static_cast<std::size_t>(t)].output;
    need.device = add(need.device, mul(output ? 2 : 1, bytes));  // an output: one image per run
    // Copied to the host: the checked rows of a tensor cut with the op's rows, any other whole.
    const auto per_row = static_cast<std::uint64_t>(l.elements() / std::max<std::int64_t>(1, op_rows));
    const std::uint64_t elements =
        c.op->follows_rows(t) ? mul(checked_rows, per_row) : static_cast<std::uint64_t>(l.elements());
    need.host = add(need.host, mul(elements, size_of(dtype)));
  }
  need.host = add(need.host, mul(static_cast<std::uint64_t>(reference_elements), kReferenceBytesPerElement));
  need.device = add(need.device, 64ull << 20);
  return need;
}

MemoryNeed full_check_need(const Case& c) { return memory_need(c, 2, output_elements(c)); }

std::uint64_t host_available_bytes() {
  std::uint64_t avail = 0;
  std::ifstream in("/proc/meminfo");
  for (std::string key; in >> key;) {
    std::uint64_t kib = 0;
    in >> kib;
    if (key == "MemAvailable:") avail = kib * 1024;
    in.ignore(256, '\n');
  }
  if (const auto cap = memory_limit_from_env()) avail = std::min(avail, *cap);
  return avail;
}

std::optional<std::uint64_t> device_free_bytes() {
#if KVERIFY_HAVE_CUDA
  if (!cuda::device_status().available) return std::nullopt;
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return std::nullopt;
  std::uint64_t avail = free_bytes;
  if (const auto cap = memory_limit_from_env()) avail = std::min(avail, *cap);
  return avail;
#else
  return std::nullopt;
#endif
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  if (bytes < (1ull << 30))  // "0.0 GiB" would hide the numbers of a small limit
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / 1048576.0);
  else
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / 1073741824.0);
  return buf;
}

std::optional<std::string> memory_refusal(const MemoryNeed& need, Backend backend) {
  const bool on_device = backend == Backend::cuda;
  if (need.host < kAlwaysFits && (!on_device || need.device < kAlwaysFits + (64ull << 20)) && !memory_limit_from_env())
    return std::nullopt;
  // On emu the device memory is the host images themselves.
  if (const std::uint64_t avail = host_available_bytes(); need.host > avail)
    return "needs " + gib(need.host) + " of host memory, " + gib(avail) + " available";
  if (on_device) {
    const auto free_bytes = device_free_bytes();
    if (!free_bytes) return std::string("no CUDA device to measure free memory on");
    if (need.device > *free_bytes)
      return "needs " + gib(need.device) + " of device memory, " + gib(*free_bytes) + " free";
  }
  return std::nullopt;
}

}  // namespace kverify
