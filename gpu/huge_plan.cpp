#include "gpu/huge_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/case.hpp"
#include "core/dtype.hpp"
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
    const std::uint64_t bytes =
        static_cast<std::uint64_t>(l.footprint()) * size_of(c.dtype) + 2 * GuardedImage::kCanaryBytes;
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
    if (need.device > *free_bytes)
      return "needs " + gib(need.device) + " of device memory, " + gib(*free_bytes) + " free";
  }
  return std::nullopt;
}

std::vector<std::string> huge_case_lines() {
  std::vector<std::string> lines;
  for (const OpSpec* op : all_ops())
    for (std::string_view line : op->huge_cases) lines.emplace_back(line);
  return lines;
}

}  // namespace kverify
