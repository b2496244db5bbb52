#include "ops/common.hpp"

#include <algorithm>

namespace kverify::ops {

std::vector<std::string> rowwise_boundary_cases() {
  std::vector<std::string> lines;
  for (int w : {1, 2, 3, 31, 32, 33, 127, 128, 129, 255, 256, 257, 1000, 1021, 1025, 4097, 65537}) {
    const std::string shape = "shape=" + std::to_string(w >= 4097 ? 2 : 5) + "x" + std::to_string(w);
    lines.push_back(shape);
    lines.push_back(shape + " values=negative:30 seed=1 schedule=3");
  }
  lines.push_back("shape=7x300 x.strides=320,1 y.strides=301,1 x.offset=3 y.offset=1");
  lines.push_back("shape=33x65 x.strides=1,33 y.strides=1,33");  // column-major on both sides
  lines.push_back("shape=9x40 x.strides=80,2 values=uniform:30 seed=4");
  lines.push_back("shape=4x100 values=int:5 seed=2 schedule=11");
  lines.push_back("shape=3x64 values=normal:1e3 seed=9");
  // Many narrow rows: a launcher that packs several rows into a warp or block from some row count
  // on (the property draws reach 257 rows of at most 3 columns).
  lines.push_back("shape=1000x5 seed=3");
  // Past grid.y's 65535 and past any grid capped at 65535 blocks. In f32 only: a block per row of
  // one warp costs about 3 s per run on emu (65537 blocks, 2M emulated threads).
  lines.push_back("dtype=f32 shape=65537x1");
  return lines;
}

std::vector<ValueRecipe> common_in_domain_values(DType dtype) {
  const double subnormal_exponent = dtype == DType::f16 ? -18 : -132;
  return {{},  // normal:1 first: the shrink target
          recipe("normal", 10),
          recipe("normal", 1e-3),
          recipe("uniform", 4),
          recipe("int", 3),
          recipe("negative", 5),
          recipe("ties", 4),
          recipe("nearties", 1),
          recipe("zeros", 0),
          recipe("subnormal", subnormal_exponent)};
}

void add_rowwise_in_domain_values(DType dtype, std::vector<ValueRecipe>& into) {
  for (const ValueRecipe& r :
       {recipe("normal", 1e3), recipe("heavy", 1), recipe("const", 7), recipe("const", -300), recipe("uniform", 30)})
    into.push_back(r);
  if (dtype != DType::f16)  // f16 stops at 65504
    for (const ValueRecipe& r : {recipe("extreme", 1), recipe("const", 1e30), recipe("const", -1e30)})
      into.push_back(r);
}

void rowwise_fuzz_sizes(FuzzSizes& choose, std::span<std::int64_t> sizes) {
  constexpr std::int64_t kMaxElements = 64 * 1024;  // Cases up to 64 x 1024, or 1 x 65536
  constexpr std::int64_t kMaxRows = 64;
  constexpr std::int64_t kMaxThreads = 32 * 1024;  // rows x min(1024, cols rounded up to 32)
  constexpr std::int64_t kSoftCols = 4096, kSoftThreads = 512;
  constexpr std::int64_t kTallRows = 65537, kTallMaxCols = 2;
  const std::int64_t cols = choose.extent(std::min(kMaxElements, choose.max_cols), kSoftCols, 1);
  const std::int64_t threads_per_row = std::min<std::int64_t>(1024, (cols + 31) / 32 * 32);
  const std::int64_t max_rows =
      std::min({kMaxRows, kMaxElements / cols, kMaxThreads / threads_per_row, choose.max_rows});
  // About once in 10^4 Cases: such a Case costs seconds on emu.
  const std::int64_t tall = cols <= kTallMaxCols && choose.max_rows >= kTallRows ? kTallRows : 0;
  sizes[0] = choose.count(max_rows, kSoftThreads / threads_per_row, tall, 0);
  sizes[1] = cols;
}

std::string rowwise_report_shape(std::int64_t width, bool quick) {
  return std::to_string(quick || width > 1024 ? 2 : 8) + "x" + std::to_string(width);
}

}  // namespace kverify::ops
