// Fresh inputs for every repetition the bench makes (on the GPU and on emu alike): an op whose
// rows are checked apart gets its rows rotated by a shift no kernel can predict, and the gated
// outputs rotated the same way are what the repetition must give. The shift is a multiple of
// `step`, so every row keeps its address modulo 256 bytes (a kernel may take another path for
// another alignment, and round otherwise); it is drawn from std::random_device, never from the
// Case and never printed, so a kernel cannot learn the checker's inputs from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

#include "core/case.hpp"

namespace kverify::bench {

struct RowRotation {
  std::int64_t rows = 0, step = 0;
  // No rotation when the op has one row, or fewer than step + 1, or a tensor whose rows are not
  // contiguous.
  bool usable() const { return step > 0 && rows > step; }
};
RowRotation row_rotation(const Case& c);

// The secret shifts of one timing: each in [step, rows - 1], a multiple of step.
class SecretShifts {
 public:
  std::int64_t next(const RowRotation& r) {
    const std::int64_t choices = (r.rows - 1) / r.step;
    return r.step * (1 + static_cast<std::int64_t>(random_() % static_cast<std::uint64_t>(choices)));
  }

 private:
  std::mt19937_64 random_{std::random_device{}()};
};

// The bytes of a tensor's elements from its element 0 (its layout's footprint past the offset).
std::size_t element_bytes(const Layout& layout, DType dtype);

// `to` := `from` (`bytes` of elements, `rows` op rows of equal size) with row r taken from row
// (r + shift) mod rows, through `copy(to, from, n)` (memcpy on the host, a device copy on the GPU).
template <typename Copy>
void rotate_rows(void* to, const void* from, std::size_t bytes, std::int64_t shift, std::int64_t rows, Copy copy) {
  const std::size_t cut = bytes / static_cast<std::size_t>(rows) * static_cast<std::size_t>(shift);
  copy(static_cast<unsigned char*>(to), static_cast<const unsigned char*>(from) + cut, bytes - cut);
  copy(static_cast<unsigned char*>(to) + (bytes - cut), static_cast<const unsigned char*>(from), cut);
}

}  // namespace kverify::bench
