// The device image against the host's: the same recipe values, canaries and poison bit for bit
// (what lets a failing gate Case replay on emu with the GPU's inputs), and guards that count what
// the host's checks find. Needs a GPU: skipped with the reason elsewhere (a failure under
// KVERIFY_REQUIRE_GPU=1).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "bench/device_image.hpp"
#include "core/values.hpp"
#include "pipeline/run_case.hpp"
#include "pipeline/tests/require_backend.hpp"

namespace kverify::bench {
namespace {

// A padded, offset layout: canaries in the row gaps and before the first element.
const Layout2D kPadded{37, 1029, 1040, 1, 3};
constexpr DType kDTypes[] = {DType::f32, DType::f16, DType::bf16};

// One draw on the device against the host's recipe_math::value, element by element.
void expect_hosts_bits(const recipe_math::Draw& draw, DType d, const std::string& what) {
  DeviceImage image("x", kPadded, d, 1);
  image.draw(draw);
  const GuardedImage host = image.to_host();
  std::size_t damaged = 0;
  host.damaged_canaries(1, &damaged);
  EXPECT_EQ(damaged, 0u) << what << " " << name(d) << ": the device wrote other canary bytes than the host";
  int differ = 0;
  for (std::int64_t row = 0; row < kPadded.rows; ++row)
    for (std::int64_t col = 0; col < kPadded.cols; ++col) {
      recipe_math::Draw at = draw;
      at.row = row, at.col = col, at.cols = kPadded.cols;
      const std::uint64_t want = storage_bits(d, recipe_math::value(at));
      if (host.element_bits(row, col) != want && differ++ < 3)
        ADD_FAILURE() << what << " " << name(d) << " element (" << row << "," << col << "): device 0x" << std::hex
                      << host.element_bits(row, col) << ", host 0x" << want;
    }
  EXPECT_EQ(differ, 0) << what << " " << name(d);
}

TEST(DeviceImage, EveryRecipeDrawsTheHostsBitsAndTheHostsCanaries) {
  KV_REQUIRE_BACKEND(Backend::cuda);
  for (DType d : kDTypes)
    for (const RecipeInfo& r : kRecipes)
      for (double param : {r.default_param, 3.5}) {
        if (!recipe_param_problem(r, param).empty()) continue;
        expect_hosts_bits({recipe_kind(r.name), param, 77, 0, 0, 0, 1}, d,
                          std::string(r.name) + ":" + std::to_string(param));
      }
  // The draws an op declares for a tensor: indices, masks; halves' positive factor.
  for (DType d : {DType::i32, DType::i64, DType::u8})
    expect_hosts_bits({recipe_math::Kind::index, 50, 77, 2, 0, 0, 1}, d, "index:50");
  expect_hosts_bits({recipe_math::Kind::mask, 0.1, 77, 3, 0, 0, 1}, DType::u8, "mask:0.1");
  expect_hosts_bits({recipe_math::Kind::near_one, 0.05, 77, 4, 0, 0, 1}, DType::bf16, "near_one:0.05");
  expect_hosts_bits({recipe_math::Kind::halves, 2, 77, 1, 0, 0, 1, true}, DType::bf16, "halves, positive");
}

TEST(DeviceImage, PoisonIsTheHostsPoison) {
  KV_REQUIRE_BACKEND(Backend::cuda);
  for (DType d : kDTypes)
    for (Poison p : {Poison::nan, Poison::random_finite}) {
      DeviceImage image("y", kPadded, d, 2);
      image.poison(p, kRandomPoisonSeed);
      const GuardedImage host = image.to_host();
      int differ = 0;
      for (std::int64_t row = 0; row < kPadded.rows; ++row)
        for (std::int64_t col = 0; col < kPadded.cols; ++col)
          differ += host.element_bits(row, col) != host.poison_bits(p, kRandomPoisonSeed, row, col);
      EXPECT_EQ(differ, 0) << name(d);
    }
}

TEST(DeviceImage, GuardsCountWhatTheHostFinds) {
  KV_REQUIRE_BACKEND(Backend::cuda);
  DeviceImage image("y", kPadded, DType::f32, 2);
  image.poison(Poison::nan, kRandomPoisonSeed);
  EXPECT_EQ(image.damaged_canary_bytes(), 0u);
  const std::uint64_t before = image.hash();
  // Two bytes of the gap after row 0 and one of the front canary, as an out-of-bounds kernel would.
  auto* element0 = static_cast<unsigned char*>(image.element0());
  ASSERT_EQ(cudaMemset(element0 + 1029 * 4, 0x5a, 2), cudaSuccess);
  ASSERT_EQ(cudaMemset(element0 - 3 * 4 - 1, 0x5a, 1), cudaSuccess);
  const std::uint64_t counted = image.damaged_canary_bytes();
  std::size_t found = 0;
  image.to_host().damaged_canaries(8, &found);
  EXPECT_EQ(counted, found);
  EXPECT_GE(counted, 1u);
  EXPECT_NE(image.hash(), before);
  image.rewrite_canaries();
  EXPECT_EQ(image.damaged_canary_bytes(), 0u);

  // An element written between two hashes changes the hash; the canaries stay intact.
  const std::uint64_t clean = image.hash();
  ASSERT_EQ(cudaMemset(element0 + (5 * 1040 + 7) * 4, 0, 4), cudaSuccess);
  EXPECT_NE(image.hash(), clean);
  EXPECT_EQ(image.damaged_canary_bytes(), 0u);
}

TEST(DeviceImage, RunComparisonCountsUnwrittenAndChangedElements) {
  KV_REQUIRE_BACKEND(Backend::cuda);
  DeviceImage first("y", kPadded, DType::bf16, 2), second("y", kPadded, DType::bf16, 2);
  first.poison(Poison::nan, kRandomPoisonSeed);
  second.poison(Poison::random_finite, kRandomPoisonSeed);
  // Every element "written" with the same value by both runs, except (0,0) (never written) and (1,2)
  // (written differently).
  first.draw({recipe_math::Kind::integer, 3, 1, 0, 0, 0, 1});
  second.draw({recipe_math::Kind::integer, 3, 1, 0, 0, 0, 1});
  const auto at = [&](const DeviceImage& image, std::int64_t r, std::int64_t c) {
    return static_cast<unsigned char*>(image.element0()) + (r * kPadded.row_stride + c) * 2;
  };
  const std::uint16_t nan = 0x7fa5, one = 0x3f80, two = 0x4000;
  const std::uint16_t random00 =
      static_cast<std::uint16_t>(first.to_host().poison_bits(Poison::random_finite, kRandomPoisonSeed, 0, 0));
  ASSERT_EQ(cudaMemcpy(at(first, 0, 0), &nan, 2, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(at(second, 0, 0), &random00, 2, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(at(first, 1, 2), &one, 2, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(at(second, 1, 2), &two, 2, cudaMemcpyHostToDevice), cudaSuccess);
  const auto d = DeviceImage::compare_runs(first, second, kRandomPoisonSeed);
  EXPECT_EQ(d.unwritten, 1);
  EXPECT_EQ(d.changed, 1);
}

}  // namespace
}  // namespace kverify::bench
