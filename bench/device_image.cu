// The device image's kernels: grid-stride loops over the image's 8-byte words (canaries, hash) or
// over its elements (values, poison, run comparison, gathers). Counts and hashes are sums (of
// per-thread partials, one atomic add per block), so they do not depend on the order in which
// blocks run.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "bench/device_image.hpp"
#include "core/recipe_math.hpp"
#include "pipeline/guard_patterns.hpp"
#include "runtime/cuda/check.hpp"
#include "runtime/cuda/device.hpp"

namespace kverify::bench {
namespace {

using kverify::cuda::check;
namespace gp = guard_patterns;

constexpr int kThreads = 256;
constexpr std::size_t kCanary = GuardedImage::kCanaryBytes;

unsigned blocks_for(std::uint64_t work) {
  static const unsigned most = [] {
    int dev = 0, sms = 1;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    return static_cast<unsigned>(std::max(1, sms) * 8);
  }();
  return static_cast<unsigned>(std::clamp<std::uint64_t>((work + kThreads - 1) / kThreads, 1, most));
}

void finish(const char* what) {
  check(cudaGetLastError(), what);
  check(cudaDeviceSynchronize(), what);
}

// Layout2D's arithmetic, on the device.
struct Geometry {
  std::int64_t rows, cols, row_stride, col_stride, offset;
  unsigned element_bytes;
  std::uint64_t bytes;      // of the whole image
  std::uint64_t footprint;  // element slots from the first to one past the last addressed (Layout2D::footprint)
  const unsigned* bitmap;   // element slots of a non-contiguous layout; null: slots [offset, offset + rows * cols)
  __device__ std::int64_t slot(std::int64_t r, std::int64_t c) const {
    return offset + r * row_stride + c * col_stride;
  }
  __device__ std::uint64_t position(std::int64_t r, std::int64_t c) const {
    return kCanary + static_cast<std::uint64_t>(slot(r, c)) * element_bytes;
  }
  __device__ bool is_element_byte(std::uint64_t p) const {
    if (p < kCanary) return false;
    const std::uint64_t s = (p - kCanary) / element_bytes;
    if (s >= footprint) return false;
    if (!bitmap) return s >= static_cast<std::uint64_t>(offset) && s - offset < static_cast<std::uint64_t>(rows * cols);
    return (bitmap[s / 32] >> (s % 32)) & 1u;
  }
};

// An element of 1, 2, 4 or 8 bytes (u8 masks, f16/bf16, f32/i32, f64/i64).
__device__ std::uint64_t load_bits(const unsigned char* p, unsigned bytes) {
  switch (bytes) {
    case 1:
      return *p;
    case 2:
      return *reinterpret_cast<const std::uint16_t*>(p);
    case 4:
      return *reinterpret_cast<const std::uint32_t*>(p);
    default:
      return *reinterpret_cast<const std::uint64_t*>(p);
  }
}
__device__ void store_bits(unsigned char* p, unsigned bytes, std::uint64_t v) {
  switch (bytes) {
    case 1:
      *p = static_cast<unsigned char>(v);
      return;
    case 2:
      *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(v);
      return;
    case 4:
      *reinterpret_cast<std::uint32_t*>(p) = static_cast<std::uint32_t>(v);
      return;
    default:
      *reinterpret_cast<std::uint64_t*>(p) = v;
  }
}

// One atomic add per block of the threads' partial sums.
__device__ void add_to(unsigned long long* total, unsigned long long partial) {
  for (int d = 16; d > 0; d /= 2) partial += __shfl_down_sync(0xffffffffu, partial, d);
  __shared__ unsigned long long warp_sums[kThreads / 32];
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = partial;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long sum = 0;
    for (int w = 0; w < kThreads / 32; ++w) sum += warp_sums[w];
    atomicAdd(total, sum);
  }
}

__global__ void mark_elements(Geometry g, unsigned* bitmap) {
  const std::uint64_t n = static_cast<std::uint64_t>(g.rows) * g.cols;
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t s = static_cast<std::uint64_t>(
        g.slot(static_cast<std::int64_t>(i / g.cols), static_cast<std::int64_t>(i % g.cols)));
    atomicOr(bitmap + s / 32, 1u << (s % 32));
  }
}

enum class CanaryWork { fill_all, rewrite_others, count_damaged };

__global__ void canaries(Geometry g, unsigned char* image, std::uint64_t salt, CanaryWork work,
                         unsigned long long* damaged) {
  unsigned long long count = 0;
  const std::uint64_t words = (g.bytes + 7) / 8;
  // A contiguous layout's elements are one run of bytes: words inside it hold no canary.
  const std::uint64_t run_begin = kCanary + static_cast<std::uint64_t>(g.offset) * g.element_bytes;
  const std::uint64_t run_end = run_begin + static_cast<std::uint64_t>(g.rows * g.cols) * g.element_bytes;
  for (std::uint64_t w = blockIdx.x * blockDim.x + threadIdx.x; w < words; w += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t p0 = w * 8;
    if (work != CanaryWork::fill_all && !g.bitmap && p0 >= run_begin && p0 + 8 <= run_end) continue;
    const unsigned n = g.bytes - p0 < 8 ? static_cast<unsigned>(g.bytes - p0) : 8u;
    std::uint64_t want = 0, mask = 0;  // the pattern, and the bytes of this word that are canaries
    for (unsigned k = 0; k < n; ++k) {
      if (work != CanaryWork::fill_all && g.is_element_byte(p0 + k)) continue;
      want |= std::uint64_t{gp::canary_byte(p0 + k, salt)} << (8 * k);
      mask |= std::uint64_t{0xff} << (8 * k);
    }
    if (mask == 0) continue;
    if (n == 8) {  // the image is 256-byte aligned: whole words are aligned
      auto* word = reinterpret_cast<std::uint64_t*>(image + p0);
      if (work == CanaryWork::count_damaged) {
        const std::uint64_t diff = (*word ^ want) & mask;
        for (unsigned k = 0; k < 8; ++k) count += ((diff >> (8 * k)) & 0xff) != 0;
      } else {
        *word = (*word & ~mask) | want;
      }
      continue;
    }
    for (unsigned k = 0; k < n; ++k) {
      if (!((mask >> (8 * k)) & 0xff)) continue;
      const auto b = static_cast<unsigned char>(want >> (8 * k));
      if (work == CanaryWork::count_damaged)
        count += image[p0 + k] != b;
      else
        image[p0 + k] = b;
    }
  }
  if (work == CanaryWork::count_damaged) add_to(damaged, count);
}

__global__ void hash_words(const unsigned char* image, std::uint64_t bytes, unsigned long long* total) {
  unsigned long long h = 0;
  const std::uint64_t words = (bytes + 7) / 8;
  for (std::uint64_t w = blockIdx.x * blockDim.x + threadIdx.x; w < words; w += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint64_t word = 0;
    if (w * 8 + 8 <= bytes) {
      word = *reinterpret_cast<const std::uint64_t*>(image + w * 8);
    } else {
      for (std::uint64_t p = w * 8; p < bytes; ++p) word |= std::uint64_t{image[p]} << (8 * (p - w * 8));
    }
    h += gp::mix(word ^ gp::mix(w + 1));
  }
  add_to(total, h);
}

__global__ void draw_values(Geometry g, unsigned char* image, DType dtype, recipe_math::Draw draw) {
  const std::uint64_t n = static_cast<std::uint64_t>(g.rows) * g.cols;
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto r = static_cast<std::int64_t>(i / g.cols), c = static_cast<std::int64_t>(i % g.cols);
    recipe_math::Draw d = draw;
    d.row = r, d.col = c, d.cols = g.cols;
    const double v = recipe_math::value(d);
    store_bits(image + g.position(r, c), g.element_bytes, storage_bits(dtype, v));
  }
}

__global__ void poison_elements(Geometry g, unsigned char* image, DType dtype, Poison kind, std::uint64_t seed) {
  const std::uint64_t n = static_cast<std::uint64_t>(g.rows) * g.cols;
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto r = static_cast<std::int64_t>(i / g.cols), c = static_cast<std::int64_t>(i % g.cols);
    const std::uint64_t bits =
        kind == Poison::nan ? gp::nan_poison_bits(dtype) : gp::random_poison_bits(dtype, seed, r, c);
    store_bits(image + g.position(r, c), g.element_bytes, bits);
  }
}

__global__ void differences(Geometry g, const unsigned char* first, const unsigned char* second, DType dtype,
                            std::uint64_t seed, unsigned long long* counts) {
  unsigned long long unwritten = 0, changed = 0;
  const std::uint64_t n = static_cast<std::uint64_t>(g.rows) * g.cols;
  const std::uint64_t nan_bits = gp::nan_poison_bits(dtype);
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto r = static_cast<std::int64_t>(i / g.cols), c = static_cast<std::int64_t>(i % g.cols);
    const std::uint64_t p = g.position(r, c);
    const std::uint64_t a = load_bits(first + p, g.element_bytes), b = load_bits(second + p, g.element_bytes);
    if (a == b) continue;
    if (a == nan_bits && b == gp::random_poison_bits(dtype, seed, r, c))
      ++unwritten;
    else
      ++changed;
  }
  add_to(counts, unwritten);
  add_to(counts + 1, changed);
}

__global__ void gather(Geometry g, const unsigned char* image, const std::int64_t* rows, std::uint64_t row_count,
                       unsigned char* out) {
  const std::uint64_t n = row_count * g.cols;
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::int64_t r = rows[i / g.cols], c = static_cast<std::int64_t>(i % g.cols);
    store_bits(out + i * g.element_bytes, g.element_bytes, load_bits(image + g.position(r, c), g.element_bytes));
  }
}

using cuda::DeviceBuffer;

Geometry geometry_of(const Layout2D& l, DType dtype, std::size_t bytes, const unsigned* bitmap) {
  return {l.rows,       l.cols,
          l.row_stride, l.col_stride,
          l.offset,     static_cast<unsigned>(size_of(dtype)),
          bytes,        static_cast<std::uint64_t>(l.footprint()),
          bitmap};
}

}  // namespace

struct DeviceImage::Impl {
  std::unique_ptr<DeviceBuffer> image, bitmap;
  Geometry geometry{};
  unsigned char* base() const { return static_cast<unsigned char*>(image->data()); }
};

DeviceImage::DeviceImage(std::string name, Layout full, DType dtype, std::uint64_t salt)
    : name_(std::move(name)), layout_(full), dtype_(dtype), salt_(salt), impl_(std::make_unique<Impl>()) {
  if (!full.as_2d()) throw std::logic_error("DeviceImage: tensor " + name_ + "'s dimensions do not collapse into rows");
  const Layout2D layout = rows_ = *full.as_2d();
  bytes_ = 2 * kCanary + static_cast<std::size_t>(layout.footprint()) * size_of(dtype);
  impl_->image = std::make_unique<DeviceBuffer>(bytes_);
  const unsigned* bitmap = nullptr;
  if (!layout.contiguous_row_major()) {
    impl_->bitmap = std::make_unique<DeviceBuffer>((static_cast<std::size_t>(layout.footprint()) + 31) / 32 * 4);
    impl_->bitmap->fill(0);
    bitmap = static_cast<const unsigned*>(impl_->bitmap->data());
  }
  impl_->geometry = geometry_of(layout, dtype, bytes_, bitmap);
  if (bitmap) {
    mark_elements<<<blocks_for(static_cast<std::uint64_t>(layout.elements())), kThreads>>>(
        impl_->geometry, static_cast<unsigned*>(impl_->bitmap->data()));
  }
  canaries<<<blocks_for(bytes_ / 8), kThreads>>>(impl_->geometry, impl_->base(), salt_, CanaryWork::fill_all, nullptr);
  finish("the device image's canaries");
}

DeviceImage::~DeviceImage() = default;

void* DeviceImage::element0() const {
  return impl_->base() + kCanary + static_cast<std::size_t>(layout_.offset) * size_of(dtype_);
}

void DeviceImage::draw(const recipe_math::Draw& draw) {
  draw_values<<<blocks_for(static_cast<std::uint64_t>(layout_.elements())), kThreads>>>(impl_->geometry, impl_->base(),
                                                                                        dtype_, draw);
  finish("drawing the inputs on the device");
}

void DeviceImage::poison(Poison kind, std::uint64_t seed) {
  poison_elements<<<blocks_for(static_cast<std::uint64_t>(layout_.elements())), kThreads>>>(
      impl_->geometry, impl_->base(), dtype_, kind, seed);
  finish("poisoning the outputs on the device");
}

void DeviceImage::copy_elements_from(const void* device_elements) {
  check(cudaMemcpy(element0(), device_elements,
                   static_cast<std::size_t>(layout_.footprint() - layout_.offset) * size_of(dtype_),
                   cudaMemcpyDeviceToDevice),
        "copying a device image's elements");
}

void DeviceImage::rewrite_canaries() {
  canaries<<<blocks_for(bytes_ / 8), kThreads>>>(impl_->geometry, impl_->base(), salt_, CanaryWork::rewrite_others,
                                                 nullptr);
  finish("rewriting the canaries on the device");
}

namespace {
// Device counters, zeroed, read back after the kernels that add to them.
struct Counters {
  DeviceBuffer memory;
  explicit Counters(int n) : memory(sizeof(unsigned long long) * static_cast<std::size_t>(n)) { memory.fill(0); }
  unsigned long long* data() const { return static_cast<unsigned long long*>(memory.data()); }
  std::vector<unsigned long long> read() const {
    std::vector<unsigned long long> v(memory.bytes() / sizeof(unsigned long long));
    memory.download(v.data());
    return v;
  }
};
}  // namespace

std::uint64_t DeviceImage::hash() const {
  Counters total(1);
  hash_words<<<blocks_for(bytes_ / 8), kThreads>>>(impl_->base(), bytes_, total.data());
  finish("hashing a device image");
  return total.read()[0];
}

std::uint64_t DeviceImage::damaged_canary_bytes() const {
  Counters damaged(1);
  canaries<<<blocks_for(bytes_ / 8), kThreads>>>(impl_->geometry, impl_->base(), salt_, CanaryWork::count_damaged,
                                                 damaged.data());
  finish("checking the canaries on the device");
  return damaged.read()[0];
}

std::vector<unsigned char> DeviceImage::gather_rows(const std::vector<std::int64_t>& rows) const {
  const std::size_t es = size_of(dtype_);
  std::vector<unsigned char> host(rows.size() * static_cast<std::size_t>(rows_.cols) * es);
  if (rows.empty()) return host;
  DeviceBuffer list(rows.size() * sizeof(std::int64_t)), out(host.size());
  list.upload(rows.data());
  gather<<<blocks_for(host.size() / es), kThreads>>>(impl_->geometry, impl_->base(),
                                                     static_cast<const std::int64_t*>(list.data()), rows.size(),
                                                     static_cast<unsigned char*>(out.data()));
  finish("gathering the sampled rows on the device");
  out.download(host.data());
  return host;
}

GuardedImage DeviceImage::to_host() const {
  GuardedImage host(name_, layout_, dtype_, salt_);
  if (host.sparse() || host.bytes() != bytes_)
    throw std::logic_error("DeviceImage::to_host: the host lays " + name_ + " out differently");
  check(cudaMemcpy(host.data(), impl_->base(), bytes_, cudaMemcpyDeviceToHost), "copying a device image to the host");
  return host;
}

DeviceImage::RunDifferences DeviceImage::compare_runs(const DeviceImage& first, const DeviceImage& second,
                                                      std::uint64_t poison_seed) {
  if (first.bytes_ != second.bytes_ || !(first.layout_ == second.layout_))
    throw std::logic_error("DeviceImage::compare_runs: images of different layouts");
  Counters counts(2);
  differences<<<blocks_for(static_cast<std::uint64_t>(first.layout_.elements())), kThreads>>>(
      first.impl_->geometry, first.impl_->base(), second.impl_->base(), first.dtype_, poison_seed, counts.data());
  finish("comparing two runs on the device");
  const auto c = counts.read();
  return {static_cast<std::int64_t>(c[0]), static_cast<std::int64_t>(c[1])};
}

void draw_on_device(void* element0, const Layout2D& layout, DType dtype, const recipe_math::Draw& draw) {
  // A Geometry whose image starts kCanary bytes before the tensor's first slot: positions land on
  // element0 + index * size.
  auto* base =
      static_cast<unsigned char*>(element0) - kCanary - static_cast<std::size_t>(layout.offset) * size_of(dtype);
  const Geometry g = geometry_of(layout, dtype, 0, nullptr);
  draw_values<<<blocks_for(static_cast<std::uint64_t>(layout.elements())), kThreads>>>(g, base, dtype, draw);
  finish("drawing the inputs on the device");
}

}  // namespace kverify::bench
