#include "tools/huge_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "core/dtype.hpp"
#include "core/op.hpp"
#include "pipeline/guarded_image.hpp"

#if KVERIFY_HAVE_CUDA
#include <cuda_runtime.h>

#include "runtime/cuda/device.hpp"
#endif

namespace kverify {

MemoryNeed memory_need(const Case& c) {
  MemoryNeed need;
  for (int t = 0; t < c.op->tensor_count; ++t) {
    const Layout2D l = c.layout(t);
    const std::uint64_t bytes = static_cast<std::uint64_t>(l.footprint()) * size_of(c.dtype) + 2 * GuardedImage::kCanaryBytes;
    need.device += bytes;
    need.host += bytes + static_cast<std::uint64_t>(l.footprint()) / 8;  // + the element bitmap
  }
  need.device += 64ull << 20;  // scratch (split_row's partials) and the CUDA context's own
  return need;
}

namespace {
std::optional<std::uint64_t> limit_from_env() {
  const char* v = std::getenv("KVERIFY_MEMORY_LIMIT_GIB");
  if (!v || !*v) return std::nullopt;
  return static_cast<std::uint64_t>(std::strtod(v, nullptr) * 1073741824.0);
}
}  // namespace

std::uint64_t host_available_bytes() {
  std::uint64_t avail = 0;
  std::ifstream in("/proc/meminfo");
  for (std::string key; in >> key;) {
    std::uint64_t kib = 0;
    in >> kib;
    if (key == "MemAvailable:") avail = kib * 1024;
    in.ignore(256, '\n');
  }
  if (const auto cap = limit_from_env()) avail = std::min(avail, *cap);
  return avail;
}

std::optional<std::uint64_t> device_free_bytes() {
#if KVERIFY_HAVE_CUDA
  if (!cuda::device_status().available) return std::nullopt;
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return std::nullopt;
  std::uint64_t avail = free_bytes;
  if (const auto cap = limit_from_env()) avail = std::min(avail, *cap);
  return avail;
#else
  return std::nullopt;
#endif
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / 1073741824.0);
  return buf;
}

std::optional<std::string> memory_refusal(const Case& c, Backend backend) {
  const MemoryNeed need = memory_need(c);
  // On emu the device memory is the host images themselves.
  const std::uint64_t host_need = need.host;
  if (const std::uint64_t avail = host_available_bytes(); host_need > avail)
    return "needs " + gib(host_need) + " of host memory, " + gib(avail) + " available";
  if (backend == Backend::cuda) {
    const auto free_bytes = device_free_bytes();
    if (!free_bytes) return std::string("no CUDA device to measure free memory on");
    if (need.device > *free_bytes) return "needs " + gib(need.device) + " of device memory, " + gib(*free_bytes) + " free";
  }
  return std::nullopt;
}

std::vector<std::int64_t> sampled_rows(const Case& c, int random_rows, std::uint64_t seed) {
  const int out = c.op->tensor_count - 1;  // the output is the last tensor of every op
  const std::int64_t rows = c.layout(out).rows;
  std::vector<std::int64_t> picked = {0, 1, rows / 2, rows - 2, rows - 1};
  // Rows holding element 2^31 and byte offset 2^32 of each tensor that has rows of the output's
  // (the row-wise ops' x and y, matmul's a and c): where 32-bit offsets wrap.
  for (int t = 0; t < c.op->tensor_count; ++t) {
    const Layout2D l = c.layout(t);
    if (l.rows != rows || l.row_stride <= 0) continue;
    for (const std::int64_t slot : {std::int64_t{1} << 31, (std::int64_t{1} << 32) / static_cast<std::int64_t>(size_of(c.dtype))})
      if (slot > l.offset) picked.push_back((slot - l.offset) / std::max(l.row_stride, std::int64_t{1}));
  }
  std::mt19937_64 rng(seed);
  for (int i = 0; i < random_rows; ++i) picked.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(rows)));
  std::vector<std::int64_t> result;
  for (auto r : picked)
    if (r >= 0 && r < rows) result.push_back(r);
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

std::vector<std::string> huge_case_lines() {
  return {
      // 2^31 + 65536 elements, 8 GiB per tensor: the wide-row softmax variants
      "op=softmax dtype=f32 shape=65536x32769",
      // 2^31 + 1024 elements in narrow rows: warp_per_row's 2^21 + 1 rows
      "op=softmax dtype=bf16 shape=2097153x1024",
      // 2^31 + 32768 elements, offsets past 4 GiB in bf16 (byte offset 2^32 = element 2^31)
      "op=gelu_tanh dtype=bf16 shape=32768x65537",
      "op=row_sum dtype=f32 shape=65535x32769",
      "op=row_sum dtype=bf16 shape=2097153x1024",
      // M*N = 2^31 + 4096 outputs, 8 GiB of C, small K
      "op=matmul_relu dtype=f32 shape=524289x4096x8",
  };
}

}  // namespace kverify
