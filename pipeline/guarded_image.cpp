#include "pipeline/guarded_image.hpp"

#include <signal.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/parallel.hpp"
#include "pipeline/guard_patterns.hpp"

namespace kverify {
namespace {

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

constexpr std::size_t kPage = 4096;
constexpr std::uint64_t kSparseAbove = std::uint64_t{1} << 30;  // image bytes
constexpr std::uint64_t kMaxSparseElements = std::uint64_t{1} << 20;
// Address space, not memory: a few of these beside the race detector's shadow fit in x86-64's 128 TiB;
// a larger footprint is planned as a dense one (and refused for its memory need).
constexpr std::uint64_t kSparseAtMost = std::uint64_t{4} << 40;
constexpr std::size_t kFarGuard = std::size_t{16} << 30;  // unmapped, each side: an int32 element offset's reach

std::size_t image_bytes(const Layout& layout, DType dtype) {
  return 2 * GuardedImage::kCanaryBytes + static_cast<std::size_t>(layout.footprint()) * size_of(dtype);
}

// The pages a sparse image maps: each element's, widened by kCanaryBytes on either side, merged;
// nullopt when the image should be dense (small, many elements, or mostly elements).
std::optional<std::vector<GuardedImage::Segment>> sparse_plan(const Layout& layout, DType dtype) {
  const std::size_t total = image_bytes(layout, dtype);
  if (total < kSparseAbove || total > kSparseAtMost ||
      static_cast<std::uint64_t>(layout.elements()) > kMaxSparseElements)
    return std::nullopt;
  const std::size_t esize = size_of(dtype), end = (total + kPage - 1) / kPage * kPage;
  std::vector<GuardedImage::Segment> windows;
  windows.reserve(static_cast<std::size_t>(layout.elements()));
  for (std::int64_t r = 0; r < layout.rows(); ++r)
    for (std::int64_t c = 0; c < layout.cols(); ++c) {
      const std::size_t p = GuardedImage::kCanaryBytes + static_cast<std::size_t>(layout.index(r, c)) * esize;
      const std::size_t from = (p - GuardedImage::kCanaryBytes) / kPage * kPage;
      const std::size_t to = std::min(end, (p + esize + GuardedImage::kCanaryBytes + kPage - 1) / kPage * kPage);
      if (!windows.empty() && from <= windows.back().end && from >= windows.back().begin)
        windows.back().end = std::max(windows.back().end, to);  // the common case: row-major order
      else
        windows.push_back({from, to});
    }
  std::sort(windows.begin(), windows.end(), [](const auto& x, const auto& y) { return x.begin < y.begin; });
  std::vector<GuardedImage::Segment> merged;
  std::size_t mapped = 0;
  for (const auto& w : windows) {
    if (!merged.empty() && w.begin <= merged.back().end) {
      mapped += std::max(merged.back().end, w.end) - merged.back().end;
      merged.back().end = std::max(merged.back().end, w.end);
    } else {
      merged.push_back(w);
      mapped += w.end - w.begin;
    }
  }
  if (mapped * 16 > total) return std::nullopt;
  return merged;
}

// A kernel's access into a far image's reserved range outside its mapped pages (an offset that
// wrapped in 32 bits lands up to 8 GiB from the tensor, in the guard) is a fault, and a fault would
// end the process: the handler maps the page (it reads as zeros), counts the access for the image's
// canary check, and lets the access go on. A fault anywhere else goes to the handler before ours.
struct FarRange {
  std::atomic<std::uintptr_t> begin{0}, end{0};
  std::atomic<std::uintptr_t> first_stray{0};
  std::atomic<std::uint64_t> strays{0};
};
constexpr int kFarRanges = 256;
FarRange g_far[kFarRanges];
struct sigaction g_previous_handler;

void on_fault(int signal, siginfo_t* info, void* context) {
  const auto a = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (FarRange& r : g_far)
    if (const std::uintptr_t b = r.begin.load(std::memory_order_acquire);
        b != 0 && a >= b && a < r.end.load(std::memory_order_acquire)) {  // begin 0: a slot being filled
      if (mprotect(reinterpret_cast<void*>(a / kPage * kPage), kPage, PROT_READ | PROT_WRITE) != 0) break;
      std::uintptr_t none = 0;
      r.first_stray.compare_exchange_strong(none, a);
      r.strays.fetch_add(1);
      return;
    }
  if (g_previous_handler.sa_flags & SA_SIGINFO) {
    if (g_previous_handler.sa_sigaction) return g_previous_handler.sa_sigaction(signal, info, context);
  } else if (g_previous_handler.sa_handler == SIG_IGN) {
    return;
  } else if (g_previous_handler.sa_handler != SIG_DFL) {
    return g_previous_handler.sa_handler(signal);
  }
  std::signal(signal, SIG_DFL);  // returning re-runs the access, which now ends the process
}

int watch_far_range(std::uintptr_t begin, std::uintptr_t end) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction sa {};
    sa.sa_sigaction = &on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous_handler);
  });
  for (int i = 0; i < kFarRanges; ++i) {
    std::uintptr_t free_slot = 0;
    if (g_far[i].end.compare_exchange_strong(free_slot, end)) {
      g_far[i].strays = 0;
      g_far[i].first_stray = 0;
      g_far[i].begin.store(begin, std::memory_order_release);
      return i;
    }
  }
  return -1;  // more far images at once than slots: a stray access then ends the process
}

}  // namespace

GuardedImage::Reservation::~Reservation() {
  if (slot >= 0) {
    g_far[slot].begin.store(0, std::memory_order_release);
    g_far[slot].end.store(0, std::memory_order_release);
  }
  munmap(base, bytes);
}

std::uint64_t GuardedImage::Reservation::strays() const { return slot >= 0 ? g_far[slot].strays.load() : 0; }
std::uintptr_t GuardedImage::Reservation::first_stray() const { return slot >= 0 ? g_far[slot].first_stray.load() : 0; }

std::optional<std::uint64_t> GuardedImage::sparse_bytes(const Layout& layout, DType dtype) {
  const auto plan = sparse_plan(layout, dtype);
  if (!plan) return std::nullopt;
  std::uint64_t mapped = 0;
  for (const auto& s : *plan) mapped += s.end - s.begin;
  return mapped;
}

void GuardedImage::allocate(const std::vector<Segment>* sparse_segments) {
  size_ = image_bytes(layout_, dtype_);
  if (!sparse_segments) {
    dense_.resize(size_);
    data_ = dense_.data();
    segments_ = {{0, size_}};
    return;
  }
  const std::size_t span = kFarGuard + (size_ + kPage - 1) / kPage * kPage + kFarGuard;
  void* p = mmap(nullptr, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw std::runtime_error("cannot reserve " + std::to_string(span >> 30) +
                             " GiB of address space for the far layout of tensor " + name_ + ": " +
                             std::strerror(errno));
  reservation_.reset(new Reservation{static_cast<unsigned char*>(p), span});  // in place: no temporary to unmap
  reservation_->slot = watch_far_range(reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p) + span);
  data_ = reservation_->base + kFarGuard;
  segments_ = *sparse_segments;
  for (const Segment& s : segments_)
    if (mprotect(data_ + s.begin, s.end - s.begin, PROT_READ | PROT_WRITE) != 0)
      throw std::runtime_error("cannot map the pages of tensor " + name_ + "'s far layout: " + std::strerror(errno));
}

GuardedImage::GuardedImage(std::string name, Layout layout, DType dtype, std::uint64_t salt)
    : name_(std::move(name)), layout_(layout), dtype_(dtype), salt_(salt) {
  const auto footprint = static_cast<std::size_t>(layout.footprint());
  if (const auto plan = sparse_plan(layout, dtype)) {
    allocate(&*plan);
    for (std::int64_t r = 0; r < layout.rows(); ++r)
      for (std::int64_t c = 0; c < layout.cols(); ++c)
        element_slots_.push_back(static_cast<std::uint64_t>(layout.index(r, c)));
    std::sort(element_slots_.begin(), element_slots_.end());
    for (const Segment& seg : segments_)
      for (std::size_t p = seg.begin; p < seg.end; ++p) data_[p] = canary_byte(p);
    return;
  }
  allocate(nullptr);
  is_element_.assign((footprint + 63) / 64, 0);
  const bool parallel = size_ >= kParallelBytes;
  // Rows in parallel for huge images; rows may share a bitmap word, hence the atomic or there.
  for_chunks(static_cast<std::size_t>(layout.rows()), parallel, 1, [&](std::size_t, std::size_t r0, std::size_t r1) {
    for (auto r = static_cast<std::int64_t>(r0); r < static_cast<std::int64_t>(r1); ++r)
      for (std::int64_t c = 0; c < layout.cols(); ++c) {
        const auto i = static_cast<std::size_t>(layout.index(r, c));
        if (parallel)
          std::atomic_ref<std::uint64_t>(is_element_[i / 64]).fetch_or(1ull << (i % 64), std::memory_order_relaxed);
        else
          is_element_[i / 64] |= 1ull << (i % 64);
      }
  });
  for_chunks(size_, parallel, 256, [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t p = b; p < e; ++p) data_[p] = canary_byte(p);
  });
}

GuardedImage::GuardedImage(const GuardedImage& o)
    : name_(o.name_),
      layout_(o.layout_),
      dtype_(o.dtype_),
      salt_(o.salt_),
      is_element_(o.is_element_),
      element_slots_(o.element_slots_) {
  allocate(o.sparse() ? &o.segments_ : nullptr);
  for (const Segment& seg : segments_) std::memcpy(data_ + seg.begin, o.data_ + seg.begin, seg.end - seg.begin);
}

GuardedImage& GuardedImage::operator=(const GuardedImage& o) {
  if (this != &o) *this = GuardedImage(o);
  return *this;
}

bool GuardedImage::is_element_slot(std::size_t slot) const {
  if (sparse()) return std::binary_search(element_slots_.begin(), element_slots_.end(), slot);
  return (is_element_[slot / 64] >> (slot % 64)) & 1u;
}

unsigned char GuardedImage::canary_byte(std::size_t position) const {
  return guard_patterns::canary_byte(position, salt_);
}

unsigned char* GuardedImage::element(std::int64_t r, std::int64_t c) {
  return data_ + origin() + static_cast<std::size_t>(layout_.index(r, c)) * size_of(dtype_);
}

std::uint64_t GuardedImage::element_bits(std::int64_t r, std::int64_t c) const {
  std::uint64_t bits = 0;
  std::memcpy(&bits, data_ + origin() + static_cast<std::size_t>(layout_.index(r, c)) * size_of(dtype_),
              size_of(dtype_));
  return bits;
}

std::uint64_t GuardedImage::poison_bits(Poison kind, std::uint64_t seed, std::int64_t r, std::int64_t c) const {
  return kind == Poison::nan ? guard_patterns::nan_poison_bits(dtype_)
                             : guard_patterns::random_poison_bits(dtype_, seed, r, c);
}

void GuardedImage::poison(Poison kind, std::uint64_t seed, unsigned threads) {
  const std::uint64_t nan_bits = guard_patterns::nan_poison_bits(dtype_);
  const std::size_t esize = size_of(dtype_);
  parallel_for(layout_.rows(), threads, [&](std::int64_t r0, std::int64_t r1) {
    for (std::int64_t r = r0; r < r1; ++r)
      for (std::int64_t c = 0; c < layout_.cols(); ++c) {
        const std::uint64_t bits =
            kind == Poison::nan ? nan_bits : guard_patterns::random_poison_bits(dtype_, seed, r, c);
        std::memcpy(element(r, c), &bits, esize);
      }
  });
}

std::string GuardedImage::describe_position(std::size_t p) const {
  const std::size_t data_end = size_ - kCanaryBytes;
  if (p < kCanaryBytes) return "front canary, " + std::to_string(kCanaryBytes - p) + " bytes before the buffer";
  if (p >= data_end) return "back canary, " + std::to_string(p - data_end) + " bytes past the buffer's end";
  const std::size_t slot = (p - kCanaryBytes) / size_of(dtype_);
  const auto s = static_cast<std::int64_t>(slot);
  if (s < layout_.offset) return "offset prefix, element slot " + std::to_string(slot);
  // The nearest preceding element in row-major slot order gives a readable location.
  const std::int64_t rel = s - layout_.offset;
  const auto m = layout_.as_2d();
  if (!m || m->row_stride < 1) return "gap between elements (element slot " + std::to_string(slot) + ")";
  if (m->row_stride >= m->col_stride) {
    const std::int64_t r = rel / m->row_stride;
    return "gap in row " + std::to_string(r) + " (element slot " + std::to_string(slot) + ", " +
           std::to_string(rel - r * m->row_stride) + " slots after the row's start)";
  }
  const std::int64_t c = rel / m->col_stride;
  return "gap in column " + std::to_string(c) + " (element slot " + std::to_string(slot) + ")";
}

std::vector<std::string> GuardedImage::damaged_canaries(std::size_t limit, std::size_t* total) const {
  const std::size_t esize = size_of(dtype_);
  const std::size_t data_end = size_ - kCanaryBytes;
  // Chunks of whole 256-byte blocks: an element never straddles a chunk edge (kCanaryBytes and
  // every element size divide 256; a sparse image's segments are whole pages). Findings are merged
  // in position order.
  struct Part {
    std::vector<std::string> found;
    std::size_t count = 0;
  };
  const auto scan = [&](Part& part, std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) {
      if (p >= kCanaryBytes && p < data_end) {
        const std::size_t slot = (p - kCanaryBytes) / esize;
        if (is_element_slot(slot)) {
          p = kCanaryBytes + (slot + 1) * esize - 1;  // skip the element's bytes
          continue;
        }
      }
      if (data_[p] != canary_byte(p)) {
        ++part.count;
        // One report per damaged element-sized slot.
        if (part.found.size() < limit && (part.found.empty() || p < kCanaryBytes || p >= data_end ||
                                          (p - kCanaryBytes) % esize == 0 || data_[p - 1] == canary_byte(p - 1)))
          part.found.push_back(describe_position(p));
      }
    }
  };
  const bool parallel = !sparse() && size_ >= kParallelBytes;
  std::vector<Part> parts(parallel ? std::max(1u, std::thread::hardware_concurrency()) + 1 : 1);
  if (sparse())
    for (const Segment& seg : segments_) scan(parts[0], seg.begin, seg.end);
  else
    for_chunks(size_, parallel, 256,
               [&](std::size_t chunk, std::size_t b, std::size_t e) { scan(parts[chunk], b, e); });
  std::vector<std::string> found;
  std::size_t count = 0;
  if (sparse() && reservation_->strays() > 0) {  // accesses outside every element's pages
    const auto at = static_cast<std::intptr_t>(reservation_->first_stray() - reinterpret_cast<std::uintptr_t>(data_));
    count += reservation_->strays();
    found.push_back("an access " +
                    (at < 0 ? std::to_string(-at) + " bytes before the buffer"
                     : static_cast<std::size_t>(at) >= size_
                         ? std::to_string(at - static_cast<std::intptr_t>(size_)) + " bytes past the buffer's end"
                         : "at byte " + std::to_string(at) + ", on a page of the far layout that holds no element") +
                    " (pages of the reserved range touched: " + std::to_string(reservation_->strays()) +
                    "; an element offset computed in 32 bits wraps 2^32 elements away)");
  }
  for (auto& part : parts) {
    count += part.count;
    for (auto& f : part.found)
      if (found.size() < limit) found.push_back(std::move(f));
  }
  if (total) *total = count;
  return found;
}

namespace {
// FNV-1a over 8-byte words, then the tail.
std::uint64_t fnv(std::uint64_t h, const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
}  // namespace

std::uint64_t GuardedImage::hash() const {
  constexpr std::uint64_t kBasis = 0xcbf29ce484222325ull;
  if (!sparse() && size_ >= kParallelBytes) {  // huge: the hash of each chunk, combined in order
    const std::size_t chunks = std::max(1u, std::thread::hardware_concurrency()) + 1;
    std::vector<std::uint64_t> partial(chunks, 0);
    for_chunks(size_, true, 256, [&](std::size_t chunk, std::size_t b, std::size_t e) {
      partial[chunk] = fnv(kBasis, data_ + b, e - b);
    });
    std::uint64_t h = kBasis;
    for (auto p : partial) h = (h ^ p) * 0x100000001b3ull;
    return h;
  }
  std::uint64_t h = kBasis;
  for (const Segment& seg : segments_) h = fnv(h, data_ + seg.begin, seg.end - seg.begin);
  return h;
}

}  // namespace kverify
