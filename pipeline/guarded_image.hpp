// The host image of one tensor's device buffer, guarded:
//
//   [front canary][ elements and the gaps between them (canaried) ][back canary]
//
// Every byte that is not an element (the canary zones, the offset prefix, the padding between
// strided rows and columns) holds a position-dependent canary pattern; after a launch, any such
// byte that changed is a write out of bounds (or into a gap). Outputs are poisoned before each
// launch: first with a NaN pattern, then with random finite values, so an element the kernel never
// wrote differs between the two runs. Inputs are hashed before and after.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/layout.hpp"
#include "core/tensor_view.hpp"

namespace kverify {

enum class Poison : std::uint8_t { nan, random_finite };

// Far layouts (a small tensor whose strides or offset put elements past 2^31 elements or 4 GiB,
// e.g. shape=3x5 x.strides=2147483659,1): the image reserves its whole address range, maps only
// the pages that hold elements, each with at least kCanaryBytes of canary on either side, and keeps
// 16 GiB of reserved, unmapped address space before and after it (what an offset wrapped in 32 bits
// reaches); an access anywhere else in that range is counted (the page then reads as zeros) and
// damaged_canaries() reports it. Used when the image is between 1 GiB and 4 TiB and the mapped pages
// are at most a sixteenth of it; segments() lists what is mapped (a dense image: one segment, all of it).
class GuardedImage {
 public:
  static constexpr std::size_t kCanaryBytes = 1024;  // each side; keeps 256-byte alignment

  GuardedImage(std::string name, Layout layout, DType dtype, std::uint64_t salt);
  GuardedImage(const GuardedImage& other);
  GuardedImage& operator=(const GuardedImage& other);
  GuardedImage(GuardedImage&&) noexcept = default;
  GuardedImage& operator=(GuardedImage&&) noexcept = default;
  ~GuardedImage() = default;

  const std::string& name() const { return name_; }
  const Layout& layout() const { return layout_; }
  DType dtype() const { return dtype_; }
  std::size_t bytes() const { return size_; }
  unsigned char* data() { return data_; }
  const unsigned char* data() const { return data_; }
  // Byte offset of the layout's element index 0 (where the kernel's pointer points).
  std::size_t origin() const { return kCanaryBytes; }

  struct Segment {
    std::size_t begin, end;  // bytes [begin, end) of the image
  };
  bool sparse() const { return reservation_ != nullptr; }
  const std::vector<Segment>& segments() const { return segments_; }
  // The bytes a sparse image of this layout maps, or nullopt when it would be dense.
  static std::optional<std::uint64_t> sparse_bytes(const Layout& layout, DType dtype);

  unsigned char* element(std::int64_t r, std::int64_t c);  // logical (row, col): core/layout.hpp
  TensorView view() const { return {data_ + origin(), layout_, dtype_}; }

  void poison(Poison kind, std::uint64_t seed, unsigned threads = 1);  // threads: rows spread over host threads
  // The poison value's raw bits at (r, c) for this kind and seed (to recognise unwritten elements).
  std::uint64_t poison_bits(Poison kind, std::uint64_t seed, std::int64_t r, std::int64_t c) const;
  std::uint64_t element_bits(std::int64_t r, std::int64_t c) const;

  // Descriptions of the first `limit` canary bytes that changed, and how many changed in all.
  std::vector<std::string> damaged_canaries(std::size_t limit, std::size_t* total) const;
  std::uint64_t hash() const;

 private:
  unsigned char canary_byte(std::size_t position) const;
  std::string describe_position(std::size_t position) const;
  bool is_element_slot(std::size_t slot) const;
  void allocate(const std::vector<Segment>* sparse_segments);

  std::string name_;
  Layout layout_;
  DType dtype_;
  std::uint64_t salt_;
  // 256-byte aligned like cudaMalloc's buffers, so emu sees the alignment a kernel sees on a GPU.
  template <typename T>
  struct Aligned256 {
    using value_type = T;
    Aligned256() = default;
    template <typename U>
    Aligned256(const Aligned256<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{256})); }
    void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{256}); }
    friend bool operator==(const Aligned256&, const Aligned256&) { return true; }
  };
  // An address range reserved with mmap (sparse images), unmapped when the image goes.
  struct Reservation {
    unsigned char* base;
    std::size_t bytes;
    int slot = -1;  // its entry in the fault handler's table (guarded_image.cpp)
    ~Reservation();
    std::uint64_t strays() const;  // pages of the range a kernel touched outside the mapped ones
    std::uintptr_t first_stray() const;
  };
  std::vector<unsigned char, Aligned256<unsigned char>> dense_;
  std::unique_ptr<Reservation> reservation_;
  unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  std::vector<Segment> segments_;
  std::vector<std::uint64_t> is_element_;     // dense: bitmap over element slots of the footprint
  std::vector<std::uint64_t> element_slots_;  // sparse: the element slots, sorted
};

}  // namespace kverify
