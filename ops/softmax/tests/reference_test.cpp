#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "ops/softmax/softmax.hpp"
#include "ops/tests/host_views.hpp"

namespace {

using kverify::DType;
using kverify::Expected;
using kverify::test_views::f64_rows;

TEST(SoftmaxReference, SeedExampleGivesOneSixthAndOneThird) {
  const std::vector<double> x{0, 0, std::log(2.0), 0, 0};
  const auto y = kverify::softmax_reference(f64_rows(x, 1, 5));
  const double want[] = {1.0 / 6, 1.0 / 6, 1.0 / 3, 1.0 / 6, 1.0 / 6};
  for (int c = 0; c < 5; ++c) EXPECT_NEAR(y.at(0, c).value, want[c], 1e-15) << c;
}

TEST(SoftmaxReference, OutOfDomainRowsAreNanAndMinusInfinityIsExactZero) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x{1,    nan,  2,     //
                              1,    inf,  2,     //
                              -inf, -inf, -inf,  //
                              -inf, 0,    0};
  const auto y = kverify::softmax_reference(f64_rows(x, 4, 3));
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(y.at(r, c).kind, Expected::Kind::nan) << r << "," << c;
  EXPECT_EQ(y.at(3, 0).kind, Expected::Kind::exact);
  EXPECT_EQ(y.at(3, 0).value, 0.0);
  EXPECT_DOUBLE_EQ(y.at(3, 1).value, 0.5);
}

TEST(SoftmaxReference, ShiftInvariantAndReadsThroughStrides) {
  // Column-major storage of a 2 x 3 tensor, values shifted by 1e3 in the second row.
  const std::vector<double> col_major{0.5, 1000.5, -1, 999, 2, 1002};
  const kverify::TensorView x{reinterpret_cast<const unsigned char*>(col_major.data()),
                              kverify::Layout2D{2, 3, 1, 2, 0}, DType::f64};
  const auto y = kverify::softmax_reference(x);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(y.at(0, c).value, y.at(1, c).value, 1e-15);
  EXPECT_NEAR(y.at(0, 0).value + y.at(0, 1).value + y.at(0, 2).value, 1.0, 1e-15);
}

TEST(SoftmaxTolerance, LowPrecisionAllowsOneUlpOfTheOutputDtypeAndAFloor) {
  const auto f32 = kverify::softmax_tolerance(DType::f32, 1000);
  const auto bf16 = kverify::softmax_tolerance(DType::bf16, 1000);
  const Expected half{0.5, Expected::Kind::approx, 0};
  EXPECT_LT(f32->bound(half), 1e-4);
  EXPECT_GE(bf16->bound(half), kverify::ulp(DType::bf16, 0.5));
  EXPECT_GT(f32->bound({0.0, Expected::Kind::approx, 80}), 0.0) << "an absolute floor for underflowed values";
}

}  // namespace
