// The Case text form: parsing, canonical printing, errors that name the bad token, and the value
// recipes the Case's seed drives.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/error.hpp"
#include "core/op_spec.hpp"
#include "core/values.hpp"

namespace {

using kverify::Backend;
using kverify::Case;
using kverify::DType;
using kverify::Layout;
using kverify::Layout2D;
using kverify::parse_case;

::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The InputError message for a line that must be rejected ("" and a failure if it parses).
std::string parse_error(const std::string& line) {
  try {
    const Case c = parse_case(line);
    ADD_FAILURE() << "'" << line << "' was accepted as '" << c.to_text() << "'";
  } catch (const kverify::InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// ------------------------------------------------------------------------------------------
// The documented example and canonical printing
// ------------------------------------------------------------------------------------------

TEST(ParseCase, TheHeaderExampleGivesItsFields) {
  const Case c = parse_case("op=softmax dtype=f32 shape=4x1000 values=normal seed=7 backend=emu");
  ASSERT_NE(c.op, nullptr);
  EXPECT_EQ(c.op, kverify::find_op("softmax"));
  EXPECT_EQ(c.dtype, DType::f32);
  EXPECT_EQ(c.shape, (std::vector<std::int64_t>{4, 1000}));
  EXPECT_EQ(c.values, kverify::ValueRecipe{});  // "normal" without a parameter is the default recipe
  EXPECT_EQ(c.seed, 7u);
  EXPECT_EQ(c.backend, Backend::emu);
  EXPECT_EQ(c.variant, "auto");
  EXPECT_EQ(c.schedule, 0u);
  for (const auto& p : c.placement) EXPECT_EQ(p, kverify::Placement{});
  EXPECT_EQ(c.layout(0), Layout(Layout2D::row_major(4, 1000)));
  EXPECT_EQ(c.layout(1), Layout2D::row_major(4, 1000));
  // Printed in kCaseFields order; values=normal is the default and dropped. dtype is always
  // printed (it is not in the omitted-defaults list).
  EXPECT_EQ(c.to_text(), "op=softmax dtype=f32 shape=4x1000 seed=7 backend=emu");
}

TEST(ParseCase, CanonicalTextOmitsEveryDefault) {
  // Spelling every default out gives the same Case and the same minimal text as leaving them out.
  const Case spelled = parse_case(
      "op=softmax variant=auto dtype=f32 shape=4x5 x.strides=5,1 y.strides=5,1 x.offset=0 y.offset=0 "
      "values=normal seed=0 backend=auto schedule=0");
  const Case minimal = parse_case("op=softmax shape=4x5");
  EXPECT_EQ(spelled, minimal);
  EXPECT_EQ(spelled.to_text(), "op=softmax dtype=f32 shape=4x5");
}

TEST(ParseCase, TextPrintsFieldsInTableOrder) {
  // Keys appear in kCaseFields order, per-tensor keys in the op's tensor order.
  const Case c = parse_case(
      "schedule=9 backend=emu seed=3 values=int:5 y.offset=2 x.offset=1 y.strides=1,4 x.strides=9,1 shape=4x5 "
      "dtype=bf16 variant=v2 op=softmax");
  EXPECT_EQ(c.to_text(),
            "op=softmax variant=v2 dtype=bf16 shape=4x5 x.strides=9,1 y.strides=1,4 x.offset=1 y.offset=2 "
            "values=int:5 seed=3 backend=emu schedule=9");
}

// All Cases a generator builds: every op, storage dtype, backend, recipe with and without its
// parameter, with default and non-default placements, seeds and schedules up to 2^64-1.
std::vector<Case> many_cases() {
  const std::uint64_t max64 = std::numeric_limits<std::uint64_t>::max();
  std::vector<Case> out;
  int n = 0;
  for (const kverify::OpSpec* op_ptr : kverify::all_ops()) {
    const kverify::OpSpec& op = *op_ptr;
    for (DType d : {DType::f32, DType::f16, DType::bf16}) {
      for (Backend b : {Backend::automatic, Backend::emu, Backend::cuda}) {
        for (const auto& recipe : kverify::kRecipes) {
          // Parameters a user might write, including ones whose shortest text needs an exponent.
          std::vector<kverify::ValueRecipe> recipes{{std::string(recipe.name), recipe.default_param, false}};
          for (double p : {0.0, 0.1, 2.5, 7.0, -3.0, 1e-300, 1e15, 1e30})
            if (kverify::recipe_param_problem(recipe, p).empty())
              recipes.push_back({std::string(recipe.name), p, true});
          for (const auto& values : recipes) {
            for (int placement = 0; placement < 4; ++placement) {
              ++n;
              Case c;
              c.op = &op;
              c.dtype = d;
              c.backend = b;
              c.values = values;
              c.shape = op.dims.size() == 3 ? std::vector<std::int64_t>{6, 5, 4} : std::vector<std::int64_t>{3, 7};
              c.seed = std::vector<std::uint64_t>{0, 1, 7, max64}[n % 4];
              c.schedule = b == Backend::cuda ? 0 : std::vector<std::uint64_t>{0, 42, max64}[n % 3];  // emu's only
              c.variant = n % 5 == 0 ? "tiled_v2" : "auto";
              for (int t = 0; t < op.tensor_count(); ++t) {
                const Layout l = c.layout(t);
                // 0: contiguous; 1: padded rows; 2: column-major plus an offset; 3: offsets only
                // (a rank-0 tensor, one element, has no strides).
                if (l.rank > 0 && placement == 1)
                  c.placement[t].strides = l.rank == 1 ? kverify::Strides{3} : kverify::Strides{l.cols() + 3, 1};
                if (l.rank > 0 && placement == 2)
                  c.placement[t].strides = l.rank == 1 ? kverify::Strides{2} : kverify::Strides{1, l.rows() + 1};
                if (placement >= 2) c.placement[t].offset = 1000 * (t + 1) + 1;
              }
              out.push_back(c);
            }
          }
        }
      }
    }
  }
  return out;
}

TEST(ParseCase, PrintingAndParsingRoundTripForManyCases) {
  const auto cases = many_cases();
  ASSERT_GT(cases.size(), 1000u);
  std::set<std::string> texts;
  for (const Case& c : cases) {
    const std::string text = c.to_text();
    SCOPED_TRACE(text);
    Case back;
    ASSERT_NO_THROW(back = parse_case(text));
    EXPECT_TRUE(back == c) << "reparsed as: " << back.to_text();
    EXPECT_EQ(back.to_text(), text);
    EXPECT_EQ(text.find('\n'), std::string::npos);
    // Every non-default field is in the text, spelled as its value prints.
    if (c.seed != 0)
      EXPECT_TRUE(Contains(text, " seed=" + std::to_string(c.seed)));
    else
      EXPECT_FALSE(Contains(text, "seed="));
    if (c.schedule != 0)
      EXPECT_TRUE(Contains(text, " schedule=" + std::to_string(c.schedule)));
    else
      EXPECT_FALSE(Contains(text, "schedule="));
    EXPECT_EQ(has(text, "values="), !(c.values == kverify::ValueRecipe{}));
    EXPECT_EQ(has(text, "backend="), c.backend != Backend::automatic);
    EXPECT_EQ(has(text, ".strides="), c.placement[0].strides.has_value());
    EXPECT_EQ(has(text, ".offset="), c.placement[0].offset != 0);
    texts.insert(text);
  }
  // Distinct Cases print distinct texts (the text is a faithful key).
  EXPECT_EQ(texts.size(), cases.size());
}

TEST(ParseCase, TheLargestSeedAndScheduleSurvive) {
  const Case c = parse_case("op=row_sum shape=2x3 seed=18446744073709551615 schedule=18446744073709551615");
  EXPECT_EQ(c.seed, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(c.schedule, std::numeric_limits<std::uint64_t>::max());
  EXPECT_TRUE(Contains(c.to_text(), "seed=18446744073709551615"));
}

TEST(ParseCase, TokenOrderAndWhitespaceDoNotMatter) {
  const Case want = parse_case("op=softmax dtype=f32 shape=4x1000 values=normal seed=7 backend=emu");
  std::vector<std::string> tokens = words("backend=emu dtype=f32 op=softmax seed=7 shape=4x1000 values=normal");
  std::sort(tokens.begin(), tokens.end());
  int permutations = 0;
  do {
    std::string line;
    for (const auto& t : tokens) line += t + " ";
    EXPECT_TRUE(parse_case(line) == want) << line;
    ++permutations;
  } while (std::next_permutation(tokens.begin(), tokens.end()));
  EXPECT_EQ(permutations, 720);
  EXPECT_TRUE(parse_case("  \t op=softmax\t\tdtype=f32   shape=4x1000 values=normal\r\nseed=7 backend=emu \n") == want);
}

TEST(ParseCase, StridesEqualToTheContiguousDefaultAreNormalisedAway) {
  const Case c = parse_case("op=matmul_relu shape=6x5x4 a.strides=4,1 b.strides=5,1 c.strides=5,1");
  for (const auto& p : c.placement) EXPECT_FALSE(p.strides.has_value());
  EXPECT_EQ(c.to_text(), "op=matmul_relu dtype=f32 shape=6x5x4");
  // row_sum's output is R x 1: its contiguous strides are 1,1.
  EXPECT_FALSE(parse_case("op=row_sum shape=4x5 y.strides=1,1").placement[1].strides.has_value());
  // Other strides stay, also when only the row stride or only the column stride differs.
  EXPECT_EQ(parse_case("op=softmax shape=4x5 x.strides=6,1").placement[0].strides, (kverify::Strides{6, 1}));
  EXPECT_EQ(parse_case("op=softmax shape=4x5 x.strides=5,2 y.strides=1,4").placement[0].strides,
            (kverify::Strides{5, 2}));
}

TEST(ParseCase, LayoutsFollowTheOpsShapeRules) {
  // matmul_relu shape=MxNxK: A is M x K, B is K x N, C is M x N.
  const Case mm = parse_case("op=matmul_relu shape=64x32x16");
  ASSERT_EQ(mm.op->tensor_count(), 3);
  EXPECT_EQ(mm.op->tensors[0].name, "a");
  EXPECT_EQ(mm.op->tensors[1].name, "b");
  EXPECT_EQ(mm.op->tensors[2].name, "c");
  EXPECT_EQ(mm.layout(0), Layout(Layout2D::row_major(64, 16)));
  EXPECT_EQ(mm.layout(1), Layout(Layout2D::row_major(16, 32)));
  EXPECT_EQ(mm.layout(2), Layout(Layout2D::row_major(64, 32)));
  // row_sum's y is R x 1.
  const Case rs = parse_case("op=row_sum shape=7x9");
  EXPECT_EQ(rs.layout(0), Layout2D::row_major(7, 9));
  EXPECT_EQ(rs.layout(1), Layout2D::row_major(7, 1));
  // Placement is applied to the logical shape.
  const Case placed = parse_case("op=softmax shape=4x5 x.strides=1,4 x.offset=3 y.offset=11");
  EXPECT_EQ(placed.layout(0), (Layout2D{4, 5, 1, 4, 3}));
  EXPECT_EQ(placed.layout(1), (Layout2D{4, 5, 5, 1, 11}));
}

// ------------------------------------------------------------------------------------------
// Errors: one line, naming the offending token and what is accepted
// ------------------------------------------------------------------------------------------

struct BadLine {
  std::string line;
  std::vector<std::string> mentions;  // the token and, where the code says it, what is accepted
};

TEST(ParseCaseErrors, NameTheTokenAndWhatIsAccepted) {
  const std::string huge = "4611686018427387904";  // 2^62
  std::string recipes;                             // the accepted recipe names, as the table lists them
  for (const auto& r : kverify::kRecipes) recipes += (recipes.empty() ? "" : ", ") + std::string(r.name);
  const std::vector<BadLine> bad = {
      {"op=nosuch shape=4x5", {"'op=nosuch'", "softmax, gelu_tanh, row_sum, matmul_relu"}},
      {"shape=4x5 dtype=f32", {"op=NAME", "softmax, gelu_tanh, row_sum, matmul_relu"}},
      {"op=softmax dtype=f32", {"shape=RxC", "e.g. shape=4x1000"}},
      {"op=matmul_relu", {"shape=MxNxK"}},
      {"op=softmax shape=4x5 op=softmax", {"'op=softmax'", "twice"}},
      {"op=softmax shape=0x5", {"'shape=0x5'", "sizes >= 1"}},
      {"op=softmax shape=4", {"'shape=4'", "shape=RxC"}},
      {"op=softmax shape=4x5x6", {"'shape=4x5x6'", "shape=RxC"}},
      {"op=matmul_relu shape=4x5", {"'shape=4x5'", "shape=MxNxK"}},
      {"op=softmax shape=4xx5", {"'shape=4xx5'", "a size (a whole number >= 1)"}},
      {"op=softmax shape=-3x5", {"'shape=-3x5'", "sizes >= 1"}},
      {"op=softmax shape=4x5 seed=abc", {"'seed=abc'", "unsigned 64-bit"}},
      {"op=softmax shape=4x5 seed=-1", {"'seed=-1'", "unsigned 64-bit"}},
      {"op=softmax shape=4x5 seed=99999999999999999999999", {"'seed=99999999999999999999999'", "unsigned 64-bit"}},
      {"op=softmax shape=4x5 seed=", {"'seed='", "unsigned 64-bit"}},
      {"op=softmax shape=4x5 schedule=x", {"'schedule=x'", "unsigned 64-bit"}},
      {"op=softmax shape=4x5 foo=1", {"'foo=1'", "unknown key 'foo'", "accepted: op, variant, dtype"}},
      {"op=softmax shape=4x5 bogus", {"'bogus'", "key=value"}},
      {"op=softmax shape=4x5 =5", {"'=5'", "key=value"}},
      {"op=softmax shape=4x5 seed=1 seed=2", {"'seed=2'", "twice"}},
      {"op=softmax shape=4x5 shape=4x5", {"'shape=4x5'", "twice"}},
      {"op=softmax shape=4x5 dtype=f64", {"'dtype=f64'", "f32, f16, bf16"}},
      {"op=softmax shape=4x5 dtype=int8", {"'dtype=int8'", "f32, f16, bf16"}},
      {"op=softmax shape=4x5 backend=gpu", {"'backend=gpu'", "auto, emu, cuda"}},
      {"op=softmax shape=4x5 variant=Fast!", {"'variant=Fast!'", "lower-case letters, digits and '_'"}},
      {"op=softmax shape=4x5 values=weird", {"'values=weird'", "(accepted: " + recipes + ")"}},
      {"op=softmax shape=4x5 values=normal:abc", {"'values=normal:abc'", "finite number"}},
      {"op=softmax shape=4x5 values=normal:inf", {"'values=normal:inf'", "finite number"}},
      {"op=softmax shape=4x5 values=int:2.5", {"'values=int:2.5'", "whole number"}},
      {"op=softmax shape=4x5 values=int:-1", {"'values=int:-1'", "whole number"}},
      {"op=softmax shape=4x5 a.strides=1,1", {"'a.strides=1,1'", "no tensor 'a'", "x, y"}},
      {"op=softmax shape=4x5 x.strides=1", {"'x.strides=1'", "RS,CS"}},
      {"op=softmax shape=4x5 x.strides=1,2,3", {"'x.strides=1,2,3'", "RS,CS"}},
      {"op=softmax shape=4x5 x.strides=a,1", {"'x.strides=a,1'", "a stride"}},
      {"op=softmax shape=4x5 x.strides=0,1", {"'x.strides=0,1'", "strides >= 1"}},
      {"op=softmax shape=4x5 y.strides=1,1", {"'y.strides=1,1'", "tensor y", "own address", "e.g. 5,1"}},
      {"op=softmax shape=" + huge + "x" + huge, {"'shape=" + huge + "x" + huge + "'", "2^63 bytes"}},
      {"op=softmax shape=4x5 x.strides=" + huge + ",1", {"'x.strides=" + huge + ",1'", "2^63 bytes"}},
      {"op=softmax shape=4x5 x.offset=-1", {"'x.offset=-1'", "offset >= 0"}},
      {"op=softmax shape=4x5 y.offset=9223372036854775807", {"'y.offset=9223372036854775807'", "2^63 bytes"}},
      {"op=softmax shape=4x5 x.offset=1.5", {"'x.offset=1.5'", "an offset"}},
      // With an offset present, a problem that is not the offset's still names its own token.
      {"op=softmax shape=4x5 x.strides=0,1 x.offset=3", {"'x.strides=0,1'", "strides >= 1"}},
      {"op=softmax shape=" + huge + "x4 x.offset=3", {"'shape=" + huge + "x4'", "2^63 bytes"}},
      {"", {"empty Case", "op=NAME"}},
      {" \t \n", {"empty Case", "op=NAME"}},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE("line: '" + b.line + "'");
    const std::string msg = parse_error(b.line);
    EXPECT_FALSE(msg.empty());
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    for (const auto& m : b.mentions) EXPECT_TRUE(Contains(msg, m));
  }
}

TEST(ParseCaseErrors, UnknownKeyListsEveryKey) {
  const std::string msg = parse_error("op=softmax shape=4x5 foo=1");
  for (const auto& f : kverify::kCaseFields) EXPECT_TRUE(Contains(msg, std::string(f.key)));
}

TEST(ParseCaseErrors, MisplacedTensorNamesListTheOpsTensors) {
  // Each op rejects tensor names it does not have and lists the ones it does.
  for (const kverify::OpSpec* op_ptr : kverify::all_ops()) {
    const kverify::OpSpec& op = *op_ptr;
    const std::string line = std::string("op=") + std::string(op.name) + " " +
                             op.sizes_token(std::vector<std::int64_t>(op.dims.size(), 4)) + " q.offset=1";
    const std::string msg = parse_error(line);
    std::string names;
    for (const auto& t : op.tensors) names += (names.empty() ? "" : ", ") + std::string(t.name);
    EXPECT_TRUE(Contains(msg, "'q.offset=1'"));
    EXPECT_TRUE(Contains(msg, "(its tensors: " + names + ")"));
  }
}

TEST(CaseFieldsHelp, MentionsEveryKey) {
  const std::string md = kverify::case_fields_help(true);
  const std::string plain = kverify::case_fields_help(false);
  ASSERT_FALSE(kverify::kCaseFields.empty());
  for (const auto& f : kverify::kCaseFields) {
    EXPECT_TRUE(Contains(md, "`" + std::string(f.key) + "`"));
    EXPECT_TRUE(Contains(plain, std::string(f.key) + "=" + std::string(f.form)));
  }
  // One Markdown table row per field, after the header and separator rows.
  EXPECT_EQ(std::count(md.begin(), md.end(), '\n'), static_cast<long>(kverify::kCaseFields.size()) + 2);
}

// ------------------------------------------------------------------------------------------
// Value recipes
// ------------------------------------------------------------------------------------------

kverify::ValueRecipe recipe(const char* name, double p) { return {name, p, true}; }

TEST(RecipeValue, IsAFunctionOfSeedTensorRowAndColumn) {
  for (const auto& r : kverify::kRecipes) {
    const kverify::ValueRecipe v{std::string(r.name), r.default_param, false};
    for (std::int64_t i = 0; i < 50; ++i) {
      const double a = kverify::recipe_value(v, 1234, 1, i, 3 * i);
      EXPECT_EQ(std::bit_cast<std::uint64_t>(a),
                std::bit_cast<std::uint64_t>(kverify::recipe_value(v, 1234, 1, i, 3 * i)))
          << r.name;
    }
  }
}

TEST(RecipeValue, EveryKeyComponentChangesTheValue) {
  // For a continuous recipe, a repeated value between different keys would mean a key collision.
  const kverify::ValueRecipe normal{};
  int same_seed = 0, same_tensor = 0, transposed = 0;
  for (std::int64_t r = 0; r < 40; ++r)
    for (std::int64_t c = 0; c < 50; ++c) {
      const double v = kverify::recipe_value(normal, 1, 0, r, c);
      same_seed += v == kverify::recipe_value(normal, 2, 0, r, c);
      same_tensor += v == kverify::recipe_value(normal, 1, 1, r, c);
      if (r != c) transposed += v == kverify::recipe_value(normal, 1, 0, c, r);
    }
  EXPECT_EQ(same_seed, 0);
  EXPECT_EQ(same_tensor, 0);
  EXPECT_EQ(transposed, 0);
  // Seeds at the top of the range are as good as small ones.
  const std::uint64_t max64 = std::numeric_limits<std::uint64_t>::max();
  EXPECT_NE(kverify::recipe_value(normal, max64, 0, 0, 0), kverify::recipe_value(normal, max64 - 1, 0, 0, 0));
}

// Draws of one tensor over a 1000 x 100 grid of elements.
template <typename F>
void for_draws(F f) {
  for (std::int64_t r = 0; r < 1000; ++r)
    for (std::int64_t c = 0; c < 100; ++c) f(r, c);
}

TEST(RecipeValue, IntIsWholeWithinPlusMinusKAndHitsEveryValue) {
  for (double k : {3.0, 10.0}) {
    std::vector<int> hits(static_cast<std::size_t>(2 * k + 1), 0);
    int bad = 0;
    for_draws([&](std::int64_t r, std::int64_t c) {
      const double v = kverify::recipe_value(recipe("int", k), 99, 0, r, c);
      if (v != std::floor(v) || v < -k || v > k) {
        ++bad;
        return;
      }
      ++hits[static_cast<std::size_t>(v + k)];
    });
    EXPECT_EQ(bad, 0) << "K=" << k;
    // Both ends, and everything in between, occur (each has probability 1/(2K+1) per draw).
    for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_GT(hits[i], 0) << "K=" << k << " value " << (double(i) - k);
  }
  // K = 0 is the all-zero tensor; a large K stays in range.
  EXPECT_EQ(kverify::recipe_value(recipe("int", 0), 5, 0, 3, 4), 0.0);
  for (std::int64_t i = 0; i < 1000; ++i) {
    const double v = kverify::recipe_value(recipe("int", 1e15), 5, 0, i, 0);
    EXPECT_TRUE(v == std::floor(v) && std::fabs(v) <= 1e15) << v;
  }
}

TEST(RecipeValue, NegativeIsAlwaysAtMostMinusOne) {
  // -(|normal| * S) - 1 <= -1 for S >= 0.
  for (double s : {1.0, 5.0, 0.0}) {
    double largest = -std::numeric_limits<double>::infinity();
    for_draws([&](std::int64_t r, std::int64_t c) {
      largest = std::max(largest, kverify::recipe_value(recipe("negative", s), 3, 1, r, c));
    });
    EXPECT_LE(largest, -1.0) << "S=" << s;
  }
}

// Sample mean and standard deviation of 100000 draws.
std::pair<double, double> moments(const kverify::ValueRecipe& r, std::uint64_t seed) {
  double sum = 0, sum_sq = 0;
  int n = 0;
  for_draws([&](std::int64_t row, std::int64_t col) {
    const double v = kverify::recipe_value(r, seed, 0, row, col);
    sum += v;
    sum_sq += v * v;
    ++n;
  });
  const double mean = sum / n;
  return {mean, std::sqrt(sum_sq / n - mean * mean)};
}

TEST(RecipeValue, NormalHasMeanZeroAndStandardDeviationS) {
  // Bounds at 5 standard errors: the mean's is S/sqrt(N), the sample std's about S/sqrt(2N).
  const double n = 100000;
  for (double s : {1.0, 2.5}) {
    for (std::uint64_t seed : {0ull, 7ull}) {
      const auto [mean, sd] = moments(recipe("normal", s), seed);
      EXPECT_NEAR(mean, 0.0, 5 * s / std::sqrt(n)) << "S=" << s << " seed=" << seed;
      EXPECT_NEAR(sd, s, 5 * s / std::sqrt(2 * n)) << "S=" << s << " seed=" << seed;
    }
  }
}

TEST(RecipeValue, UniformAndConst) {
  // uniform:A lies in [-A, A] with variance A^2/3; const:V is V everywhere.
  const double a = 4.0, n = 100000;
  bool in_range = true;
  for_draws([&](std::int64_t r, std::int64_t c) {
    const double v = kverify::recipe_value(recipe("uniform", a), 11, 0, r, c);
    in_range &= v >= -a && v <= a;
  });
  EXPECT_TRUE(in_range);
  const auto [mean, sd] = moments(recipe("uniform", a), 11);
  EXPECT_NEAR(mean, 0.0, 5 * (a / std::sqrt(3.0)) / std::sqrt(n));
  // Standard error of the sample std: sqrt(Var(X^2) / N) / (2 sigma), Var(X^2) = 4 A^4 / 45.
  const double sigma = a / std::sqrt(3.0);
  EXPECT_NEAR(sd, sigma, 5 * std::sqrt(4 * a * a * a * a / 45 / n) / (2 * sigma));
  EXPECT_EQ(kverify::recipe_value(recipe("const", -2.5), 1, 0, 5, 6), -2.5);
}

}  // namespace

// Every parameter an op's tables give a recipe (fuzz draws, report and gate recipes) is one the
// recipe accepts, and the parser refuses what is outside a recipe's domain, naming the token.
TEST(RecipeParams, OpTablesStayInsideEachRecipesDomain) {
  for (const kverify::OpSpec* op : kverify::all_ops()) {
    for (const auto& r : op->fuzz_params) {
      const kverify::RecipeInfo* info = kverify::find_recipe(r.recipe);
      ASSERT_NE(info, nullptr) << op->name << ": fuzz_params names '" << r.recipe << "'";
      for (double p : r.params) EXPECT_EQ(kverify::recipe_param_problem(*info, p), "") << op->name;
    }
    std::vector<std::string_view> lines(op->report_recipes.begin(), op->report_recipes.end());
    lines.insert(lines.end(), op->bench_gate_recipes.begin(), op->bench_gate_recipes.end());
    for (std::string_view values : lines)
      EXPECT_NO_THROW(kverify::parse_case("op=" + std::string(op->name) + " " + op->example_token() +
                                          " values=" + std::string(values)))
          << op->name << ": values=" << values;
  }
}

TEST(RecipeParams, OutOfDomainParametersAreRefusedByName) {
  for (const char* bad : {"zeros:3", "ties:-3", "ties:2.5", "normal:-1", "int:1e16", "extreme:1e300"}) {
    try {
      kverify::parse_case(std::string("op=softmax shape=2x3 values=") + bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const kverify::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'values=") + bad + "'"), std::string::npos) << e.what();
      const std::string what = e.what();
      EXPECT_TRUE(what.find("must be") != std::string::npos || what.find("takes no parameter") != std::string::npos)
          << what;
    }
  }
}

// The boundary lists: every line parses; a line that names its dtype runs once, the others once
// per storage dtype; each row-wise op reaches past grid.y's 65535 rows.
TEST(BoundaryCases, DtypeLinesRunOnceAndRowWiseOpsPassGridYsLimit) {
  for (const kverify::OpSpec* op : kverify::all_ops()) {
    const std::vector<std::string> own = op->boundary_lines();
    const std::vector<std::string> lines = kverify::boundary_case_lines(*op);
    const auto pinned = static_cast<std::size_t>(
        std::count_if(own.begin(), own.end(), [](const std::string& l) { return l.starts_with("dtype="); }));
    EXPECT_EQ(lines.size(), 3 * (own.size() - pinned) + pinned) << op->name;
    std::int64_t most_rows = 0;
    for (const std::string& line : lines) {
      const kverify::Case c = kverify::parse_case(line);  // throws (fails the test) on a bad line
      if (op->dims.size() == 2 && op->boundary_cases) most_rows = std::max(most_rows, c.shape[0]);
    }
    if (op->dims.size() == 2 && op->boundary_cases) EXPECT_GT(most_rows, 65535) << op->name;
  }
}
