#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "pipeline/guarded_image.hpp"

namespace {

using kverify::DType;
using kverify::GuardedImage;
using kverify::Layout2D;
using kverify::Poison;

TEST(GuardedImage, FreshImageHasNoDamageAndEveryGapIsGuarded) {
  GuardedImage image("y", Layout2D{3, 4, 10, 2, 3}, DType::f32, 1);
  std::size_t total = 1;
  EXPECT_TRUE(image.damaged_canaries(8, &total).empty());
  EXPECT_EQ(total, 0u);
  // Write every element: still no damage. Then write one gap slot (row 1, column slot 1).
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) std::memset(image.element(r, c), 0x42, 4);
  EXPECT_TRUE(image.damaged_canaries(8, &total).empty());
  std::memset(image.data() + image.origin() + (3 + 10 + 1) * 4, 0, 4);
  const auto damage = image.damaged_canaries(8, &total);
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_NE(damage[0].find("gap in row 1"), std::string::npos) << damage[0];
}

TEST(GuardedImage, AFarLayoutMapsOnlyItsElementsPagesAndReportsAStrayAccess) {
  const Layout2D far{3, 5, (std::int64_t{1} << 31) + 11, 1, 0};  // rows 8 GiB apart
  ASSERT_TRUE(GuardedImage::sparse_bytes(far, DType::f32));
  EXPECT_LE(*GuardedImage::sparse_bytes(far, DType::f32), 3u * 3 * 4096) << "each row: its page and a canary page";
  GuardedImage image("x", far, DType::f32, 3);
  ASSERT_TRUE(image.sparse());
  EXPECT_GT(image.bytes(), std::size_t{16} << 30);
  std::size_t total = 1;
  EXPECT_TRUE(image.damaged_canaries(8, &total).empty());
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) std::memset(image.element(r, c), 0x42, 4);
  EXPECT_TRUE(image.damaged_canaries(8, &total).empty());
  GuardedImage copy = image;  // the second run's images: a reservation of its own, the same bytes
  EXPECT_EQ(copy.hash(), image.hash());
  // An element offset of row 1 computed in int: 2^32 elements before it, in the reserved range.
  volatile float* wrapped = reinterpret_cast<float*>(image.element(1, 0)) - (std::int64_t{1} << 32);
  EXPECT_EQ(*wrapped, 0.0f) << "a stray page reads as zeros";
  const auto damage = image.damaged_canaries(8, &total);
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_NE(damage[0].find("bytes before the buffer"), std::string::npos) << damage[0];
  EXPECT_TRUE(copy.damaged_canaries(8, &total).empty()) << "the copy's range is its own";
  std::memset(copy.element(2, 4) + 4, 0, 1);  // the byte after the last element: its canary page
  EXPECT_EQ(copy.damaged_canaries(8, &total).size(), 1u);
}

TEST(GuardedImage, PoisonPatternsAreNanThenFiniteAndRecognisable) {
  for (DType d : {DType::f32, DType::f16, DType::bf16}) {
    GuardedImage image("y", Layout2D::row_major(2, 3), d, 2);
    image.poison(Poison::nan, 9);
    EXPECT_TRUE(std::isnan(image.view().at(1, 2)));
    EXPECT_EQ(image.element_bits(1, 2), image.poison_bits(Poison::nan, 9, 1, 2));
    image.poison(Poison::random_finite, 9);
    EXPECT_TRUE(std::isfinite(image.view().at(1, 2)));
    EXPECT_NE(image.view().at(0, 0), image.view().at(0, 1)) << "random, per element";
    EXPECT_EQ(image.element_bits(0, 1), image.poison_bits(Poison::random_finite, 9, 0, 1));
  }
}

TEST(GuardedImage, HashSeesAnyByte) {
  GuardedImage image("x", Layout2D::row_major(5, 5), DType::bf16, 3);
  const auto before = image.hash();
  image.data()[image.bytes() / 2] ^= 1;
  EXPECT_NE(image.hash(), before);
}

}  // namespace
