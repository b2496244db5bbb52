// A guarded image (pipeline/guarded_image.hpp) that lives on the device: the same bytes (canary
// pattern around and between the elements, the recipe's values, the poison of each run), made,
// checked and compared on the GPU, so that the gate of a gigabyte Case moves only the sampled rows
// to the host. The patterns are the host's (core/recipe_math.hpp, pipeline/guard_patterns.hpp):
// a device image copied to the host (to_host) is the GuardedImage the host would have made, and a
// failing gate Case replays on emu with the very inputs the GPU was given.
// Dense layouts whose leading dimensions collapse into rows (Layout::as_2d; a far layout's sparse
// image, and a tensor of rank 3 or more that does not collapse, stay on the host path). Plain C++ interface;
// nvcc compiles device_image.cu, device_none.cpp stands in without CUDA.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/layout.hpp"
#include "core/recipe_math.hpp"
#include "core/values.hpp"
#include "pipeline/guarded_image.hpp"

namespace kverify::bench {

class DeviceImage {
 public:
  // Allocates the image (its bytes as GuardedImage lays them out) with the canary pattern in every byte.
  DeviceImage(std::string name, Layout layout, DType dtype, std::uint64_t salt);
  // Whether a tensor of this layout can be a device image (its rows x cols view exists).
  static bool takes(const Layout& layout) { return layout.as_2d().has_value(); }
  ~DeviceImage();
  DeviceImage(const DeviceImage&) = delete;
  DeviceImage& operator=(const DeviceImage&) = delete;

  const std::string& name() const { return name_; }
  const Layout& layout() const { return layout_; }
  DType dtype() const { return dtype_; }
  std::size_t bytes() const { return bytes_; }
  void* element0() const;  // the device address of element (0, 0), where a kernel's pointer points

  // The input's values (rounded once to the dtype) at every element: `draw` is the Case's draw of
  // that tensor (input_draw, core/case.hpp), its row and column set per element.
  void draw(const recipe_math::Draw& draw);
  void poison(Poison kind, std::uint64_t seed);
  void rewrite_canaries();  // every byte that is not an element's, back to the pattern
  // A dense image's elements := a device copy of them (element0 onwards, the layout's footprint).
  void copy_elements_from(const void* device_elements);
  std::uint64_t hash() const;
  std::uint64_t damaged_canary_bytes() const;  // bytes outside the elements that differ from the pattern

  // The elements of `rows` (sorted, in range), compact and row-major: rows.size() x cols values.
  std::vector<unsigned char> gather_rows(const std::vector<std::int64_t>& rows) const;
  // The whole image as the host would hold it (a failure's details come from the host's own code).
  GuardedImage to_host() const;

  // Elements that kept the poison of both runs (unwritten), or differ between them (changed),
  // `first` poisoned with NaN and `second` with random_finite of `poison_seed`.
  struct RunDifferences {
    std::int64_t unwritten = 0, changed = 0;
  };
  static RunDifferences compare_runs(const DeviceImage& first, const DeviceImage& second, std::uint64_t poison_seed);

 private:
  struct Impl;
  std::string name_;
  Layout layout_;
  Layout2D rows_;  // its rows x cols view
  DType dtype_;
  std::uint64_t salt_;
  std::size_t bytes_ = 0;
  std::unique_ptr<Impl> impl_;
};

// The input's values into a device tensor of this layout (`element0` its element (0, 0)), as
// DeviceImage::draw: the bench's timed inputs are the gate's inputs, made where they are used.
void draw_on_device(void* element0, const Layout2D& layout, DType dtype, const recipe_math::Draw& draw);

}  // namespace kverify::bench
