// Layout2D validation and overlap detection, against brute-force enumeration of element addresses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/layout.hpp"

namespace {

using kverify::Layout2D;

::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

// The oracle: addresses of every element, straight from the definition offset + r*RS + c*CS.
std::vector<std::int64_t> addresses(const Layout2D& l) {
  std::vector<std::int64_t> a;
  for (std::int64_t r = 0; r < l.rows; ++r)
    for (std::int64_t c = 0; c < l.cols; ++c) a.push_back(l.offset + r * l.row_stride + c * l.col_stride);
  return a;
}

bool brute_force_overlaps(const Layout2D& l) {
  const auto a = addresses(l);
  return std::set<std::int64_t>(a.begin(), a.end()).size() != a.size();
}

TEST(FindOverlap, AgreesWithBruteForceOnAllSmallLayouts) {
  int layouts = 0, overlapping = 0;
  for (std::int64_t rows = 1; rows <= 6; ++rows)
    for (std::int64_t cols = 1; cols <= 6; ++cols)
      for (std::int64_t rs = 1; rs <= 8; ++rs)
        for (std::int64_t cs = 1; cs <= 8; ++cs)
          for (std::int64_t offset : {0, 3}) {
            const Layout2D l{rows, cols, rs, cs, offset};
            const bool want = brute_force_overlaps(l);
            const auto got = kverify::find_overlap(l);
            ++layouts;
            overlapping += want;
            ASSERT_EQ(got.has_value(), want) << rows << "x" << cols << " strides " << rs << "," << cs;
            if (got) {
              // The witness must be two distinct in-range elements at one address.
              SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + " strides " + std::to_string(rs) + "," +
                           std::to_string(cs));
              EXPECT_TRUE(got->r1 != got->r2 || got->c1 != got->c2);
              for (auto [r, c] : {std::pair{got->r1, got->c1}, std::pair{got->r2, got->c2}}) {
                EXPECT_TRUE(r >= 0 && r < rows && c >= 0 && c < cols) << r << "," << c;
              }
              EXPECT_EQ(l.index(got->r1, got->c1), l.index(got->r2, got->c2));
            }
            // Only outputs must not overlap: the same layout is always fine as an input.
            EXPECT_EQ(kverify::layout_problem(l, 4, /*is_output=*/true).has_value(), want);
            EXPECT_FALSE(kverify::layout_problem(l, 4, /*is_output=*/false).has_value());
          }
  // Both answers occur, so the agreement above is not vacuous.
  EXPECT_GT(overlapping, 0);
  EXPECT_LT(overlapping, layouts);
}

TEST(FindOverlap, LargeLayoutsFromTheStrideArithmetic) {
  // A 1000-wide row stride with column stride 1: rows start 1000 apart, rows are 1000 long, no overlap.
  EXPECT_FALSE(kverify::find_overlap({500, 1000, 1000, 1}));
  // Row stride 999 < 1000 columns: element (1,0) lands on (0,999).
  const auto o = kverify::find_overlap({500, 1000, 999, 1});
  ASSERT_TRUE(o);
  const Layout2D l{500, 1000, 999, 1};
  EXPECT_EQ(l.index(o->r1, o->c1), l.index(o->r2, o->c2));
  // Column-major is fine; a single row or column never overlaps, whatever the other stride.
  EXPECT_FALSE(kverify::find_overlap({300, 200, 1, 300}));
  EXPECT_FALSE(kverify::find_overlap({1, 200, 1, 1}));
  EXPECT_FALSE(kverify::find_overlap({200, 1, 1, 1}));
}

TEST(LayoutProblem, SizesBelowOneAreRejectedSayingWhatIsAccepted) {
  for (auto [rows, cols] : {std::pair<std::int64_t, std::int64_t>{0, 5}, {5, 0}, {-1, 5}, {5, -7}}) {
    const auto p = kverify::layout_problem({rows, cols, 1, 1, 0}, 4, false);
    ASSERT_TRUE(p) << rows << "x" << cols;
    EXPECT_TRUE(Contains(*p, "shape " + std::to_string(rows) + "x" + std::to_string(cols)));
    EXPECT_TRUE(Contains(*p, "accepted: sizes >= 1"));
  }
}

TEST(LayoutProblem, StridesBelowOneAreRejectedSayingWhatIsAccepted) {
  for (auto [rs, cs] : {std::pair<std::int64_t, std::int64_t>{0, 1}, {5, 0}, {-5, 1}, {5, -1}}) {
    const auto p = kverify::layout_problem({4, 5, rs, cs, 0}, 4, false);
    ASSERT_TRUE(p) << rs << "," << cs;
    EXPECT_TRUE(Contains(*p, "strides " + std::to_string(rs) + "," + std::to_string(cs)));
    EXPECT_TRUE(Contains(*p, "accepted: strides >= 1"));
  }
}

TEST(LayoutProblem, NegativeOffsetIsRejectedSayingWhatIsAccepted) {
  const auto p = kverify::layout_problem({4, 5, 5, 1, -1}, 4, false);
  ASSERT_TRUE(p);
  EXPECT_TRUE(Contains(*p, "offset -1"));
  EXPECT_TRUE(Contains(*p, "accepted: offset >= 0"));
  EXPECT_FALSE(kverify::layout_problem({4, 5, 5, 1, 0}, 4, false));
}

TEST(LayoutProblem, FootprintsPast64BitBytesAreRejected) {
  const std::int64_t p40 = std::int64_t{1} << 40;
  const std::int64_t i64max = std::numeric_limits<std::int64_t>::max();
  // (rows-1)*row_stride ~ 2^80 elements.
  const auto p = kverify::layout_problem({p40, 1, p40, 1, 0}, 4, false);
  ASSERT_TRUE(p);
  EXPECT_TRUE(Contains(*p, "64 bits"));
  EXPECT_TRUE(Contains(*p, "accepted: a footprint below 2^63 bytes"));
  // Through the column term and through the sum of the two terms.
  EXPECT_TRUE(kverify::layout_problem({1, p40, 1, p40, 0}, 4, false));
  EXPECT_TRUE(kverify::layout_problem({2, 2, i64max / 2 + 1, i64max / 2 + 1, 0}, 1, false));
  // The boundary is in bytes: a 1x1 layout at offset N-1 has a footprint of N elements, so with
  // 8-byte elements N = 2^60 is 2^63 bytes (rejected) and N = 2^60 - 1 fits.
  const std::int64_t p60 = std::int64_t{1} << 60;
  EXPECT_TRUE(kverify::layout_problem({1, 1, 1, 1, p60 - 1}, 8, false));
  EXPECT_FALSE(kverify::layout_problem({1, 1, 1, 1, p60 - 2}, 8, false));
  // Same elements, smaller dtype: 2^60 elements of 4 bytes fit.
  EXPECT_FALSE(kverify::layout_problem({1, 1, 1, 1, p60 - 1}, 4, false));
  // The largest offset makes the footprint 2^63 elements: too big even at one byte each.
  EXPECT_TRUE(kverify::layout_problem({1, 1, 1, 1, i64max}, 1, false));
  EXPECT_TRUE(kverify::layout_problem({1, 1, 1, 1, i64max}, 2, false));
}

TEST(LayoutProblem, OverlappingOutputsAreRejectedAndTheSuggestionWorks) {
  const Layout2D l{4, 5, 1, 1, 0};  // every row starts one element after the previous one
  EXPECT_FALSE(kverify::layout_problem(l, 4, /*is_output=*/false));
  const auto p = kverify::layout_problem(l, 4, /*is_output=*/true);
  ASSERT_TRUE(p);
  EXPECT_TRUE(Contains(*p, "share an address"));
  EXPECT_TRUE(Contains(*p, "strides 1,1"));
  EXPECT_TRUE(Contains(*p, "accepted: strides that give every element its own address"));
  EXPECT_TRUE(Contains(*p, "e.g. 5,1"));
  // The suggested strides are indeed accepted for this output.
  EXPECT_FALSE(kverify::layout_problem({4, 5, 5, 1, 0}, 4, true));
}

TEST(Layout2D, IndexFootprintAndContiguityMatchEnumeration) {
  for (std::int64_t rows = 1; rows <= 4; ++rows)
    for (std::int64_t cols = 1; cols <= 4; ++cols)
      for (std::int64_t rs = 1; rs <= 6; ++rs)
        for (std::int64_t cs = 1; cs <= 6; ++cs)
          for (std::int64_t offset : {0, 2}) {
            const Layout2D l{rows, cols, rs, cs, offset};
            SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + " strides " + std::to_string(rs) + "," +
                         std::to_string(cs) + " offset " + std::to_string(offset));
            const auto a = addresses(l);
            // footprint: one past the highest addressed element, counted from the buffer start.
            EXPECT_EQ(l.footprint(), *std::max_element(a.begin(), a.end()) + 1);
            EXPECT_EQ(l.elements(), static_cast<std::int64_t>(a.size()));
            // Contiguous row-major: the elements in row-major order are offset, offset+1, ...
            bool dense_in_order = true;
            for (std::size_t i = 0; i < a.size(); ++i) dense_in_order &= a[i] == offset + static_cast<std::int64_t>(i);
            EXPECT_EQ(l.contiguous_row_major(), dense_in_order);
          }
  // row_major(R, C) numbers the elements 0 .. R*C-1 in row-major order.
  const Layout2D rm = Layout2D::row_major(3, 7);
  for (std::int64_t r = 0; r < 3; ++r)
    for (std::int64_t c = 0; c < 7; ++c) EXPECT_EQ(rm.index(r, c), r * 7 + c);
  EXPECT_EQ(rm.footprint(), 21);
  EXPECT_TRUE(rm.contiguous_row_major());
  // Column-major 3x7 with an offset: element (r, c) is at offset + r + 3c.
  const Layout2D cm{3, 7, 1, 3, 10};
  EXPECT_EQ(cm.index(2, 6), 10 + 2 + 18);
  EXPECT_EQ(cm.footprint(), 10 + 21);
  EXPECT_FALSE(cm.contiguous_row_major());
}

}  // namespace

// Found by the case_parser fuzz target: a column stride near 2^63 on a row of 10 made as_2d()'s
// whole-row product overflow (undefined behaviour) before layout_problem could refuse the layout.
TEST(LayoutProblem, AStrideNearTwoToTheSixtyThreeIsRefusedWithoutOverflow) {
  kverify::Layout l;
  l.rank = 2;
  l.sizes = {2, 10};
  l.strides = {4, 7851214748364783647};
  const auto p = kverify::layout_problem(l, 4, false);
  ASSERT_TRUE(p);
  EXPECT_TRUE(Contains(*p, "spans more bytes than fit in 64 bits")) << *p;
}
