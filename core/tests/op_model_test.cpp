// The op model on an op of the test's own (kverify's four have two or three dimensions, rank-2
// tensors and no parameters): named dimensions with a domain, tensors of rank 0 to 4 with fixed
// element types, an index input, parameters of every kind; the Case line, layouts and draws they give.
#include <gtest/gtest.h>

#include <string>

#include "core/case.hpp"
#include "core/error.hpp"

namespace {

using kverify::Case;
using kverify::DimDraw;
using kverify::DimSpec;
using kverify::ElementType;
using kverify::Layout;
using kverify::OpSpec;
using kverify::ParamKind;
using kverify::ParamSpec;
using kverify::TensorSpec;
using kverify::TensorValues;

constexpr DimSpec kDims[] = {
    {.name = "B", .draw = DimDraw::count},
    {.name = "H", .draw = DimDraw::count},
    {.name = "T", .draw = DimDraw::tail},
    {.name = "D", .min = 64, .max = 128, .multiple = 64},
};
constexpr TensorSpec kTensors[] = {
    {.name = "q", .dims = {0, 1, 2, 3}, .rank = 4},
    {.name = "pos", .element = ElementType::i64, .dims = {2}, .rank = 1, .values = TensorValues::index, .index_dim = 2},
    {.name = "o", .output = true, .dims = {0, 1, 2, 3}, .rank = 4},
    {.name = "lse", .output = true, .element = ElementType::f32, .dims = {0, 1, 2}, .rank = 3},
    {.name = "norm", .output = true, .element = ElementType::f32, .rank = 0},
};
constexpr std::string_view kReductions[] = {"none", "mean", "sum"};
constexpr ParamSpec kParams[] = {
    {.name = "scale", .kind = ParamKind::real, .default_value = 1, .min = 0, .max = 10},
    {.name = "causal", .kind = ParamKind::boolean, .default_value = 0},
    {.name = "ignore", .kind = ParamKind::integer, .default_value = -100, .min = -1000, .max = 1000},
    {.name = "reduction", .kind = ParamKind::choice, .default_value = 1, .choices = kReductions},
};
kverify::OutputExpectations no_reference(const Case&, std::span<const kverify::TensorView>) { return {}; }
kverify::OutputValues no_eager(const Case&, std::span<const kverify::TensorView>) { return {}; }
std::vector<kverify::ValueRecipe> no_values(kverify::DType) { return {{}}; }

constexpr OpSpec kOp = {
    .name = "toy_attention",
    .summary = "a test's op",
    .dims = kDims,
    .tensors = kTensors,
    .params = kParams,
    .shape_example = "B:1,H:2,T:3,D:64",
    .reference = &no_reference,
    .tolerance = [](const Case&, int) -> std::unique_ptr<kverify::Tolerance> { return nullptr; },
    .eager_baseline = &no_eager,
    .in_domain_values = &no_values,
};
const OpSpec* const kOps[] = {&kOp};

Case parse(const std::string& line) { return kverify::parse_case(line, kOps); }
std::string error_of(const std::string& line) {
  try {
    parse(line);
  } catch (const kverify::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(OpModel, TheDeclarationIsConsistent) { EXPECT_EQ(kverify::op_declaration_problem(kOp), ""); }

TEST(OpModel, DimsAndParametersRoundTripInCanonicalForm) {
  const Case c = parse("op=toy_attention dims=D:128,B:2,T:5,H:3 causal=true scale=0.5 reduction=sum ignore=-100");
  EXPECT_EQ(c.shape, (std::vector<std::int64_t>{2, 3, 5, 128}));
  EXPECT_EQ(c.param(0), 0.5);
  EXPECT_EQ(c.param(1), 1);
  EXPECT_EQ(c.param(2), -100);  // the default: omitted from the text
  EXPECT_EQ(c.param(3), 2);
  const std::string text = c.to_text();
  EXPECT_EQ(text, "op=toy_attention dtype=f32 dims=B:2,H:3,T:5,D:128 scale=0.5 causal=true reduction=sum");
  EXPECT_EQ(parse(text), c);
}

TEST(OpModel, TensorsOfEveryRankGetTheirLayouts) {
  const Case c = parse("op=toy_attention dims=B:2,H:3,T:5,D:64 q.strides=1920,640,128,1 lse.offset=7");
  const Layout q = c.layout(0), pos = c.layout(1), lse = c.layout(3), norm = c.layout(4);
  EXPECT_EQ(q.rank, 4);
  EXPECT_EQ(q.rows(), 2 * 3 * 5);
  EXPECT_EQ(q.cols(), 64);
  EXPECT_EQ(q.index(6, 3), 640 + 128 + 3);  // row 6 is (b 0, h 1, t 1)
  ASSERT_TRUE(q.as_2d().has_value());       // rows padded to 128, evenly: one row stride
  EXPECT_EQ(q.as_2d()->row_stride, 128);
  const Case gap = parse("op=toy_attention dims=B:2,H:3,T:5,D:64 q.strides=2000,640,128,1");
  EXPECT_FALSE(gap.layout(0).as_2d().has_value());  // a gap between the b's: no one row stride
  EXPECT_EQ(pos.rows(), 5);                         // rank 1: a column
  EXPECT_EQ(pos.cols(), 1);
  EXPECT_EQ(lse.offset, 7);
  EXPECT_EQ(norm.elements(), 1);
  EXPECT_EQ(kverify::tensor_dtype(c, 1), kverify::DType::i64);
  EXPECT_EQ(kverify::output_elements(c), 2 * 3 * 5 * 64 + 2 * 3 * 5 + 1);
  // Contiguous strides written out are the default, kept absent.
  EXPECT_FALSE(parse("op=toy_attention dims=B:2,H:3,T:5,D:64 q.strides=960,320,64,1").placement[0].strides);
}

TEST(OpModel, BadTokensNameWhatIsAccepted) {
  EXPECT_NE(
      error_of("op=toy_attention dims=B:1,H:1,T:1,D:96").find("takes dimension D in [64, 128] and a multiple of 64"),
      std::string::npos);
  EXPECT_NE(error_of("op=toy_attention dims=B:1,H:1,T:1").find("dimension D has no size"), std::string::npos);
  EXPECT_NE(error_of("op=toy_attention dims=B:1,H:1,T:1,D:64,X:2").find("has no dimension 'X'"), std::string::npos);
  EXPECT_NE(error_of("op=toy_attention shape=1x1x1x64").find("gives its sizes as dims="), std::string::npos);
  EXPECT_NE(error_of("op=toy_attention dims=B:1,H:1,T:1,D:64 scale=11")
                .find("parameter scale takes a finite number in [0, 10]"),
            std::string::npos);
  EXPECT_NE(error_of("op=toy_attention dims=B:1,H:1,T:1,D:64 causal=maybe").find("takes true|false"),
            std::string::npos);
  EXPECT_NE(error_of("op=toy_attention dims=B:1,H:1,T:1,D:64 reduction=avg").find("takes none|mean|sum"),
            std::string::npos);
  EXPECT_NE(error_of("op=toy_attention dims=B:1,H:1,T:1,D:64 ignore=1.5").find("takes a whole number"),
            std::string::npos);
  EXPECT_NE(error_of("op=toy_attention dims=B:1,H:1,T:1,D:64 q.strides=1,1").find("has 4 dimension(s)"),
            std::string::npos);
  EXPECT_NE(error_of("op=toy_attention dims=B:2,H:1,T:1,D:64 o.strides=32,64,64,1").find("tensor o"),
            std::string::npos);
}

TEST(OpModel, AnIndexInputIsDrawnInsideItsDimension) {
  const Case c = parse("op=toy_attention dims=B:1,H:1,T:7,D:64 values=normal:1000 seed=3");
  kverify::recipe_math::Draw d = kverify::input_draw(c, 1);
  for (std::int64_t r = 0; r < 200; ++r) {
    d.row = r;
    const double v = kverify::recipe_math::value(d);
    EXPECT_TRUE(v >= 0 && v < 7 && v == static_cast<double>(static_cast<std::int64_t>(v))) << v;
  }
}

// An index input with an ignored share (cross_entropy's targets): that share of the rows takes the
// integer parameter's value, the others stay inside the dimension.
constexpr TensorSpec kIgnoredTargets[] = {
    {.name = "q", .dims = {0, 1, 2, 3}, .rank = 4},
    {.name = "pos",
     .element = ElementType::i64,
     .dims = {2},
     .rank = 1,
     .values = TensorValues::index,
     .index_dim = 2,
     .ignored_param = 2,
     .values_param = 0.25},
    {.name = "o", .output = true, .dims = {0, 1, 2, 3}, .rank = 4},
};

TEST(OpModel, AnIgnoredShareOfAnIndexInputTakesTheParameter) {
  OpSpec op = kOp;
  op.tensors = kIgnoredTargets;
  ASSERT_EQ(kverify::op_declaration_problem(op), "");
  const OpSpec* const ops[] = {&op};
  const Case c = kverify::parse_case("op=toy_attention dims=B:1,H:1,T:7,D:64 ignore=-7 seed=5", ops);
  kverify::recipe_math::Draw d = kverify::input_draw(c, 1);
  int ignored = 0;
  for (std::int64_t r = 0; r < 4000; ++r) {
    d.row = r;
    const double v = kverify::recipe_math::value(d);
    ignored += v == -7;
    EXPECT_TRUE(v == -7 || (v >= 0 && v < 7)) << v;
  }
  EXPECT_NEAR(ignored, 1000, 100);  // a quarter, within 4 standard deviations (27)
}

TEST(OpModel, GenericBoundaryCasesParse) {
  const auto lines = kverify::generic_boundary_cases(kOp);
  EXPECT_GT(lines.size(), 10u);
  for (const auto& line : lines) EXPECT_NO_THROW(parse("op=toy_attention " + line)) << line;
}

TEST(OpModel, InconsistentDeclarationsAreNamed) {
  constexpr TensorSpec kBadIndex[] = {
      {.name = "x", .dims = {0}, .rank = 1, .values = TensorValues::index, .index_dim = 0},
      {.name = "y", .output = true, .dims = {0}, .rank = 1},
  };
  OpSpec bad = kOp;
  bad.tensors = kBadIndex;
  EXPECT_NE(kverify::op_declaration_problem(bad).find("index tensor x needs an integer element type"),
            std::string::npos);
  constexpr TensorSpec kIgnoredByAReal[] = {
      {.name = "pos",
       .element = ElementType::i64,
       .dims = {2},
       .rank = 1,
       .values = TensorValues::index,
       .index_dim = 2,
       .ignored_param = 0,  // scale: a real
       .values_param = 0.25},
      {.name = "o", .output = true, .dims = {0}, .rank = 1},
  };
  bad = kOp;
  bad.tensors = kIgnoredByAReal;
  EXPECT_NE(kverify::op_declaration_problem(bad).find("tensor pos's ignored value needs an index tensor, an integer"),
            std::string::npos);
  constexpr ParamSpec kSeed[] = {{.name = "seed"}};
  bad = kOp;
  bad.params = kSeed;
  EXPECT_NE(kverify::op_declaration_problem(bad).find("is a Case field's name"), std::string::npos);
}

}  // namespace
