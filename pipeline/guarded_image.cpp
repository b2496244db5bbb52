#include "pipeline/guarded_image.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <thread>

#include "core/parallel.hpp"

namespace kverify {
namespace {

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

// Images past kParallelBytes (the huge Cases of `kverify huge`: gigabytes) are set up, checked and
// hashed on every core, in chunks of whole 256-byte blocks (so chunk edges fall between elements);
// smaller ones stay on one thread, exactly as before.
constexpr std::size_t kParallelBytes = std::size_t{64} << 20;

// f(chunk, begin, end) over [0, n) in chunks whose edges are multiples of `align`, on every core
// when `parallel`, else once on this thread.
template <typename F>
void for_chunks(std::size_t n, bool parallel, std::size_t align, F f) {
  const std::size_t threads = parallel ? std::max(1u, std::thread::hardware_concurrency()) : 1;
  if (threads == 1 || n < threads * align) {
    f(std::size_t{0}, std::size_t{0}, n);
    return;
  }
  const std::size_t step = ((n / threads) + align - 1) / align * align;
  std::vector<std::thread> pool;
  for (std::size_t i = 0, b = 0; b < n; ++i, b += step) pool.emplace_back([=, &f] { f(i, b, std::min(n, b + step)); });
  for (auto& t : pool) t.join();
}

}  // namespace

GuardedImage::GuardedImage(std::string name, Layout2D layout, DType dtype, std::uint64_t salt)
    : name_(std::move(name)), layout_(layout), dtype_(dtype), salt_(salt) {
  const auto footprint = static_cast<std::size_t>(layout.footprint());
  bytes_.resize(2 * kCanaryBytes + footprint * size_of(dtype));
  is_element_.assign((footprint + 63) / 64, 0);
  const bool parallel = bytes_.size() >= kParallelBytes;
  // Rows in parallel for huge images; rows may share a bitmap word, hence the atomic or there.
  for_chunks(static_cast<std::size_t>(layout.rows), parallel, 1, [&](std::size_t, std::size_t r0, std::size_t r1) {
    for (auto r = static_cast<std::int64_t>(r0); r < static_cast<std::int64_t>(r1); ++r)
      for (std::int64_t c = 0; c < layout.cols; ++c) {
        const auto i = static_cast<std::size_t>(layout.index(r, c));
        if (parallel)
          std::atomic_ref<std::uint64_t>(is_element_[i / 64]).fetch_or(1ull << (i % 64), std::memory_order_relaxed);
        else
          is_element_[i / 64] |= 1ull << (i % 64);
      }
  });
  for_chunks(bytes_.size(), parallel, 256, [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t p = b; p < e; ++p) bytes_[p] = canary_byte(p);
  });
}

unsigned char GuardedImage::canary_byte(std::size_t position) const {
  return static_cast<unsigned char>(mix(position ^ (salt_ << 40)) >> 56);
}

unsigned char* GuardedImage::element(std::int64_t r, std::int64_t c) {
  return bytes_.data() + origin() + static_cast<std::size_t>(layout_.index(r, c)) * size_of(dtype_);
}

std::uint64_t GuardedImage::element_bits(std::int64_t r, std::int64_t c) const {
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes_.data() + origin() + static_cast<std::size_t>(layout_.index(r, c)) * size_of(dtype_),
              size_of(dtype_));
  return bits;
}

std::uint64_t GuardedImage::poison_bits(Poison kind, std::uint64_t seed, std::int64_t r, std::int64_t c) const {
  if (kind == Poison::nan) {
    // Quiet NaNs with a recognisable payload.
    switch (dtype_) {
      case DType::f32:
        return 0x7fa5a5a5u;
      case DType::f16:
        return 0x7e5au;
      case DType::bf16:
        return 0x7fa5u;
      case DType::f64:
        return 0x7ff5a5a5a5a5a5a5ull;
    }
  }
  // A finite value in [-1e4, 1e4] that a kernel is unlikely to produce by accident.
  const std::uint64_t h =
      mix(seed ^ mix(static_cast<std::uint64_t>(r) * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(c)));
  const double v = (static_cast<double>(h >> 11) * 0x1.0p-53 * 2.0 - 1.0) * 1e4 + 0.123456789;
  std::uint64_t bits = 0;
  unsigned char buf[8];
  store_from_f64(dtype_, v, buf);
  std::memcpy(&bits, buf, size_of(dtype_));
  return bits;
}

void GuardedImage::poison(Poison kind, std::uint64_t seed, unsigned threads) {
  parallel_for(layout_.rows, threads, [&](std::int64_t r0, std::int64_t r1) {
    for (std::int64_t r = r0; r < r1; ++r)
      for (std::int64_t c = 0; c < layout_.cols; ++c) {
        const std::uint64_t bits = poison_bits(kind, seed, r, c);
        std::memcpy(element(r, c), &bits, size_of(dtype_));
      }
  });
}

std::string GuardedImage::describe_position(std::size_t p) const {
  const std::size_t data_end = bytes_.size() - kCanaryBytes;
  if (p < kCanaryBytes) return "front canary, " + std::to_string(kCanaryBytes - p) + " bytes before the buffer";
  if (p >= data_end) return "back canary, " + std::to_string(p - data_end) + " bytes past the buffer's end";
  const std::size_t slot = (p - kCanaryBytes) / size_of(dtype_);
  const auto s = static_cast<std::int64_t>(slot);
  if (s < layout_.offset) return "offset prefix, element slot " + std::to_string(slot);
  // The nearest preceding element in row-major slot order gives a readable location.
  const std::int64_t rel = s - layout_.offset;
  if (layout_.row_stride >= layout_.col_stride) {
    const std::int64_t r = rel / layout_.row_stride;
    return "gap in row " + std::to_string(r) + " (element slot " + std::to_string(slot) + ", " +
           std::to_string(rel - r * layout_.row_stride) + " slots after the row's start)";
  }
  const std::int64_t c = rel / layout_.col_stride;
  return "gap in column " + std::to_string(c) + " (element slot " + std::to_string(slot) + ")";
}

std::vector<std::string> GuardedImage::damaged_canaries(std::size_t limit, std::size_t* total) const {
  const std::size_t esize = size_of(dtype_);
  const std::size_t data_end = bytes_.size() - kCanaryBytes;
  // Chunks of whole 256-byte blocks: an element never straddles a chunk edge (kCanaryBytes and
  // every element size divide 256). Findings are merged in position order.
  struct Part {
    std::vector<std::string> found;
    std::size_t count = 0;
  };
  const bool parallel = bytes_.size() >= kParallelBytes;
  std::vector<Part> parts(parallel ? std::max(1u, std::thread::hardware_concurrency()) + 1 : 1);
  for_chunks(bytes_.size(), parallel, 256, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    Part& part = parts[chunk];
    for (std::size_t p = begin; p < end; ++p) {
      if (p >= kCanaryBytes && p < data_end) {
        const std::size_t slot = (p - kCanaryBytes) / esize;
        if ((is_element_[slot / 64] >> (slot % 64)) & 1u) {
          p = kCanaryBytes + (slot + 1) * esize - 1;  // skip the element's bytes
          continue;
        }
      }
      if (bytes_[p] != canary_byte(p)) {
        ++part.count;
        // One report per damaged element-sized slot.
        if (part.found.size() < limit && (part.found.empty() || p < kCanaryBytes || p >= data_end ||
                                          (p - kCanaryBytes) % esize == 0 || bytes_[p - 1] == canary_byte(p - 1)))
          part.found.push_back(describe_position(p));
      }
    }
  });
  std::vector<std::string> found;
  std::size_t count = 0;
  for (auto& part : parts) {
    count += part.count;
    for (auto& f : part.found)
      if (found.size() < limit) found.push_back(std::move(f));
  }
  if (total) *total = count;
  return found;
}

std::uint64_t GuardedImage::hash() const {
  if (bytes_.size() >= kParallelBytes) {  // huge: FNV-1a of each chunk, combined in order
    const std::size_t chunks = std::max(1u, std::thread::hardware_concurrency()) + 1;
    std::vector<std::uint64_t> partial(chunks, 0);
    for_chunks(bytes_.size(), true, 256, [&](std::size_t chunk, std::size_t b, std::size_t e) {
      std::uint64_t h = 0xcbf29ce484222325ull;
      for (std::size_t i = b; i < e; i += 8) {  // e - b is a multiple of 8 except at the very end
        std::uint64_t w = 0;
        std::memcpy(&w, bytes_.data() + i, std::min<std::size_t>(8, e - i));
        h = (h ^ w) * 0x100000001b3ull;
      }
      partial[chunk] = h;
    });
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (auto p : partial) h = (h ^ p) * 0x100000001b3ull;
    return h;
  }
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over 8-byte words, then the tail
  std::size_t i = 0;
  for (; i + 8 <= bytes_.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, bytes_.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
  }
  for (; i < bytes_.size(); ++i) h = (h ^ bytes_[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace kverify
