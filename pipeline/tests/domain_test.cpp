// A variant's declared domain (kernels/domain.hpp): the ACCEPTS parser's errors, why a Case is
// outside, and fit_into moving Cases inside without leaving the Case parser's layout rules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernels/domain.hpp"
#include "kernels/registry.hpp"

namespace {

using kverify::Case;
using kverify::Domain;
using kverify::InputError;
using kverify::parse_case;
using kverify::parse_domain;

// The ops whose dimensions a test's tokens name: rank 2 (rows, cols) or rank 3 (m, n, k).
const kverify::OpSpec& op_of_rank(int rank) { return *kverify::find_op(rank == 3 ? "matmul_relu" : "softmax"); }

std::string error_of(const std::string& tokens, int rank = 2) {
  try {
    parse_domain(tokens, op_of_rank(rank));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Domain, ParsesToTheCanonicalTextInTableOrder) {
  EXPECT_FALSE(parse_domain("", op_of_rank(2)).declared());
  const Domain d = parse_domain("cols_multiple=4 aligned=16 contiguous", op_of_rank(2));
  EXPECT_EQ(d.text, "contiguous aligned=16 cols_multiple=4");
  EXPECT_TRUE(d.contiguous);
  EXPECT_EQ(d.aligned, 16);
  EXPECT_EQ(d.multiple[1], 4);
  EXPECT_EQ(parse_domain("k_multiple=16 max_m=64", op_of_rank(3)).max[0], 64);
}

TEST(Domain, BadTokensNameWhatIsAccepted) {
  EXPECT_NE(error_of("contiguos").find("unknown ACCEPTS token 'contiguos' (accepted: contiguous,"), std::string::npos);
  EXPECT_NE(error_of("m_multiple=4").find("unknown ACCEPTS token"), std::string::npos);  // matmul's, not softmax's
  EXPECT_NE(error_of("cols_multiple").find("needs =N"), std::string::npos);
  EXPECT_NE(error_of("contiguous=1").find("takes no value"), std::string::npos);
  EXPECT_NE(error_of("cols_multiple=0").find("a whole number >= 1"), std::string::npos);
  EXPECT_NE(error_of("aligned=12").find("a power of two up to 256"), std::string::npos);
  EXPECT_NE(error_of("aligned=16 aligned=16").find("twice"), std::string::npos);
  EXPECT_NE(error_of("min_cols=9 max_cols=11 cols_multiple=4").find("admits no cols"), std::string::npos);
}

TEST(Domain, OutsideNamesTheTokenAndTheCasesValue) {
  const Domain d = parse_domain("contiguous aligned=16 cols_multiple=4 max_rows=8", op_of_rank(2));
  EXPECT_FALSE(outside_domain(d, parse_case("op=softmax shape=8x12 x.offset=4")));
  const auto why = [&](const char* line) { return outside_domain(d, parse_case(line)).value_or(""); };
  EXPECT_EQ(why("op=softmax shape=3x10"), "cols=10 is not a multiple of 4 (ACCEPTS cols_multiple=4)");
  EXPECT_EQ(why("op=softmax shape=9x4"), "rows=9 is above 8 (ACCEPTS max_rows=8)");
  EXPECT_EQ(why("op=softmax shape=3x8 x.strides=9,1"),
            "x.strides=9,1 is not contiguous row-major (ACCEPTS contiguous)");
  EXPECT_EQ(why("op=softmax shape=3x8 y.offset=2"),
            "y.offset=2 puts its first element 8 bytes past a 256-byte boundary (ACCEPTS aligned=16)");
  EXPECT_EQ(outside_domain(parse_domain("column_major", op_of_rank(3)), parse_case("op=matmul_relu shape=4x5x6"))
                .value_or(""),
            "a.strides=6,1 has a row stride other than 1 (ACCEPTS column_major)");
  EXPECT_NE(outside_domain(parse_domain("int32_indexing", op_of_rank(2)),
                           parse_case("op=softmax shape=3x5 x.strides=2147483659,1"))
                .value_or("")
                .find("past 2^31 - 1"),
            std::string::npos);
}

// Every layout kind the generators draw, every dtype, tail widths: fitted, each is inside the
// domain and a valid Case; one already inside is left as it is.
TEST(Domain, FitIntoMovesEveryDrawnLayoutInside) {
  const std::vector<std::string> domains = {
      "contiguous aligned=16 cols_multiple=4", "unit_col_stride row_stride_multiple=8", "column_major aligned=8",
      "rows_multiple=3 min_cols=5 max_cols=40", "row_stride_multiple=4 aligned=256"};
  const std::vector<std::string> layouts = {"", " x.strides=1029,1 y.offset=3", " x.strides=1,9 y.strides=1,11",
                                            " x.strides=3077,3 x.offset=7", " y.strides=1031,1 x.offset=1"};
  int moved = 0;
  for (const auto& tokens : domains) {
    const Domain d = parse_domain(tokens, op_of_rank(2));
    for (const char* dtype : {"f32", "f16", "bf16"})
      for (int cols : {1, 3, 13, 33, 257, 1023})
        for (const auto& layout : layouts) {
          Case c;
          try {
            c = parse_case("op=softmax dtype=" + std::string(dtype) + " shape=7x" + std::to_string(cols) + layout);
          } catch (const InputError&) {
            continue;  // a layout this width cannot have
          }
          const Case drawn = c;
          ASSERT_TRUE(fit_into(d, c)) << tokens << ": " << drawn.to_text();
          EXPECT_FALSE(outside_domain(d, c)) << tokens << ": " << drawn.to_text() << " -> " << c.to_text();
          EXPECT_NO_THROW(parse_case(c.to_text())) << c.to_text();
          if (!outside_domain(d, drawn)) EXPECT_EQ(c, drawn) << tokens << ": " << drawn.to_text();
          moved += !(c == drawn);
        }
  }
  EXPECT_GT(moved, 100);
}

TEST(Domain, FitIntoLeavesACaseItCannotPlaceUnchanged) {
  const Domain d = parse_domain("int32_indexing", op_of_rank(2));
  Case c = parse_case("op=softmax shape=1x2147483648");
  const Case before = c;
  EXPECT_FALSE(fit_into(d, c));
  EXPECT_EQ(c, before);
}

TEST(Domain, FitIntoBringsAFarLayoutNearForA32BitIndexingKernel) {
  const Domain d = parse_domain("int32_indexing", op_of_rank(2));
  Case c = parse_case("op=softmax shape=3x5 x.strides=2147483659,1 y.strides=1,2147483650");
  ASSERT_TRUE(fit_into(d, c));
  EXPECT_FALSE(outside_domain(d, c)) << c.to_text();
  EXPECT_EQ(c.to_text(), parse_case("op=softmax shape=3x5 x.strides=6,1 y.strides=1,4").to_text());
}

}  // namespace

namespace {

// A registration named like one of kverify's own variants would never run (a Case naming it runs
// the first of the two): the build's declarations refuse the pair, naming it.
TEST(VariantProblems, ANameRegisteredTwiceForOneOpIsRefused) {
  const kverify::Variant* builtin = kverify::find_variant("softmax", "rows_vec");
  ASSERT_NE(builtin, nullptr);
  kverify::Variant users = *builtin;
  users.strategy = "the user's own rows_vec";
  const std::vector<kverify::Variant> list = {*builtin, users};
  const std::vector<std::string> problems = kverify::variant_problems(list);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("softmax/rows_vec is registered twice"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("e.g. my_rows_vec"), std::string::npos) << problems[0];
  kverify::Variant renamed = users;
  renamed.name = "my_rows_vec";
  EXPECT_TRUE(kverify::variant_problems(std::vector<kverify::Variant>{*builtin, renamed}).empty());
  EXPECT_TRUE(kverify::variant_problems(kverify::all_variants()).empty()) << "this build's own variants";
}

}  // namespace
