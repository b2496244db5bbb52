// The byte patterns of a guarded image (pipeline/guarded_image.hpp), written once for the host and
// the GPU: the canary byte at each position of an image, and the poison an output element holds
// before a run. The host images and the bench's device images (bench/device_image.hpp) fill and
// check the same patterns, so a device image copied to the host reads as a host image would.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"
#include "core/recipe_math.hpp"  // KV_HOST_DEVICE, mul and add

namespace kverify::guard_patterns {

KV_HOST_DEVICE std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

// Position-dependent, so a shifted copy of the canary zone does not pass for it.
KV_HOST_DEVICE unsigned char canary_byte(std::uint64_t position, std::uint64_t salt) {
  return static_cast<unsigned char>(mix(position ^ (salt << 40)) >> 56);
}

// Quiet NaNs with a recognisable payload.
KV_HOST_DEVICE std::uint64_t nan_poison_bits(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return 0x7fa5a5a5u;
    case DType::f16:
      return 0x7e5au;
    case DType::bf16:
      return 0x7fa5u;
    case DType::f64:
      break;
    case DType::i32:
      return 0xa5a5a5a5u;  // integers have no NaN: a pattern an index is unlikely to be
    case DType::i64:
      return 0xa5a5a5a5a5a5a5a5ull;
    case DType::u8:
      return 0xa5u;
  }
  return 0x7ff5a5a5a5a5a5a5ull;
}

// A finite value in [-1e4, 1e4] that a kernel is unlikely to produce by accident, different at
// every element, in the storage dtype's bits.
KV_HOST_DEVICE std::uint64_t random_poison_bits(DType dtype, std::uint64_t seed, std::int64_t r, std::int64_t c) {
  const std::uint64_t h =
      mix(seed ^ mix(static_cast<std::uint64_t>(r) * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(c)));
  // Each product and sum rounded on its own (recipe_math's helpers): the same bits on both sides.
  using recipe_math::add;
  using recipe_math::mul;
  const double unit = mul(static_cast<double>(h >> 11), 0x1.0p-53);
  return storage_bits(dtype, add(mul(add(mul(unit, 2.0), -1.0), 1e4), 0.123456789));
}

}  // namespace kverify::guard_patterns
