// CUB on emu: the shared pieces of emu's CUB headers (cub/cub.cuh lists what is modelled).
//
// TempStorage types are raw, suitably aligned bytes: trivially constructible, so that they can be
// `__shared__` (static storage on emu, shared by a block's threads as CUDA's shared memory is) and
// members of a union that several collectives share. Their sizes are close to CUB's, not equal.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "runtime/emu/model/collectives.hpp"

namespace cub {

struct NullType {};

// Storage for a T that is not constructed (CUB's name; Alias() gives the T).
template <class T>
struct Uninitialized {
  alignas(T) unsigned char storage[sizeof(T)];
  T& Alias() { return *reinterpret_cast<T*>(storage); }
};

namespace emu_detail {

namespace kc = ::kverify::emu::collectives;
using site_t = std::source_location;

constexpr bool is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }
constexpr int log2_ceil(int n) {
  int s = 0;
  while ((1 << s) < n) ++s;
  return s;
}
constexpr int max_of(int a, int b) { return a < b ? b : a; }

// Shared memory for N elements of T.
template <class T, int N>
struct Storage {
  alignas(T) unsigned char bytes[(N > 0 ? N : 1) * sizeof(T)];
  T* data() { return reinterpret_cast<T*>(bytes); }
};

// A block collective sized for a block of X*Y*Z threads computes its thread ranks from those
// dimensions: in a block of another shape its threads would share storage and ranks wrongly
// (CUB gives wrong results, no error). Emu stops the launch naming the collective and the line.
template <int X, int Y, int Z>
void check_block(const char* what, const site_t& site) {
  if (blockDim.x == static_cast<unsigned>(X) && blockDim.y == static_cast<unsigned>(Y) &&
      blockDim.z == static_cast<unsigned>(Z))
    return;
  throw std::logic_error(std::string(what) + " at " + site.file_name() + ":" + std::to_string(site.line()) +
                         " is declared for a block of (" + std::to_string(X) + "," + std::to_string(Y) + "," +
                         std::to_string(Z) + ") threads and used in a block of (" + std::to_string(blockDim.x) + "," +
                         std::to_string(blockDim.y) + "," + std::to_string(blockDim.z) + ")");
}

}  // namespace emu_detail
}  // namespace cub
