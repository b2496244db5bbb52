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
#include <new>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/layout.hpp"
#include "core/tensor_view.hpp"

namespace kverify {

enum class Poison : std::uint8_t { nan, random_finite };

class GuardedImage {
 public:
  static constexpr std::size_t kCanaryBytes = 1024;  // each side; keeps 256-byte alignment

  GuardedImage(std::string name, Layout2D layout, DType dtype, std::uint64_t salt);

  const std::string& name() const { return name_; }
  const Layout2D& layout() const { return layout_; }
  DType dtype() const { return dtype_; }
  std::size_t bytes() const { return bytes_.size(); }
  unsigned char* data() { return bytes_.data(); }
  const unsigned char* data() const { return bytes_.data(); }
  // Byte offset of the layout's element index 0 (where the kernel's pointer points).
  std::size_t origin() const { return kCanaryBytes; }

  unsigned char* element(std::int64_t r, std::int64_t c);
  TensorView view() const { return {bytes_.data() + origin(), layout_, dtype_}; }

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

  std::string name_;
  Layout2D layout_;
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
  std::vector<unsigned char, Aligned256<unsigned char>> bytes_;
  std::vector<std::uint64_t> is_element_;  // bitmap over element slots of the footprint
};

}  // namespace kverify
