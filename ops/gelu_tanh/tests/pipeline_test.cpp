// gelu_tanh end to end on emu: every registered variant in every dtype passes ordinary, tail,
// misaligned, strided and extreme-value Cases; auto picks the vector path exactly where it
// applies; the contract's signs of zero and infinities hold bit for bit; and kernels planted with
// the classic GELU mistakes (exp-based tanh, 1 + tanhf cancelling, a wrong coefficient, the erf
// GELU, infinities left to the formula) fail under the policy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "kernels/common/backend_launch.hpp"
#include "kernels/gelu_tanh/launchers.inl"  // strided_args, takes_vector_path; no KV_BACKEND: no launchers
#include "kernels/registry.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/run_case.hpp"

namespace {

using kverify::DType;
using kverify::Outcome;
using kverify::parse_case;
using kverify::Variant;

std::vector<const Variant*> gelu_variants() {
  std::vector<const Variant*> out;
  for (const auto& v : kverify::kernels::gelu_tanh::variants())
    if (!v.mutant) out.push_back(&v);
  return out;
}

kverify::Verdict run_variant(const Variant& v, const std::string& line) {
  auto c = parse_case("op=gelu_tanh backend=emu " + line);
  c.variant = std::string(v.name);
  return kverify::run_case(c);
}

// auto's choice where the vector path applies: vec_ilp, contiguous_vec's successor.
constexpr const char* kAutoVector = "vec_ilp";

TEST(GeluTanh, RegistryHasTheVectorPathsFirstThenStrided) {
  const auto vs = gelu_variants();
  ASSERT_EQ(vs.size(), 3u);
  EXPECT_EQ(vs[0]->name, "vec_ilp");
  EXPECT_NE(vs[0]->auto_when, nullptr);
  EXPECT_EQ(vs[1]->name, "contiguous_vec");
  EXPECT_NE(vs[1]->auto_when, nullptr);
  EXPECT_EQ(vs[2]->name, "strided");
  EXPECT_EQ(vs[2]->auto_when, nullptr) << "the fallback takes every Case";
}

TEST(GeluTanh, EveryVariantPassesOrdinaryTailStridedAndExtremeCasesInEveryDtype) {
  const std::vector<std::string> common = {
      "shape=16x1000 values=normal:3",
      // tails: n % 4 (f32) and n % 8 (f16/bf16) elements after the last vector, with offsets that
      // keep the vector path (x.offset=4 y.offset=8 for f32, =8/16 for all) or leave it for the
      // strided kernel (an odd offset, equal odd offsets, an f16/bf16 8-byte offset)
      "shape=1x1", "shape=3x33", "shape=5x127 x.offset=4 y.offset=8", "shape=2x129 x.offset=8 y.offset=16",
      "shape=7x1021 x.offset=1", "shape=4x50 x.offset=3 y.offset=3",
      // layouts: both column-major (one dense run each, same order), transposed input, padded input
      // with a column-major output, column gaps in both
      "shape=6x31 x.strides=1,6 y.strides=1,6", "shape=6x31 x.strides=1,6",
      "shape=5x40 x.strides=64,1 y.strides=1,5 x.offset=5 y.offset=2", "shape=3x40 x.strides=80,2 y.strides=96,2",
      // values: wide ranges (the negative tail underflows), x = +-11, NaN / +inf / -inf
      "shape=16x100 values=uniform:20", "shape=16x100 values=normal:1e3", "shape=4x37 values=const:11",
      "shape=4x37 values=const:-11", "shape=8x50 values=special:4"};
  int ran = 0;
  for (const Variant* v : gelu_variants())
    for (const char* dtype : {"f32", "f16", "bf16"}) {
      std::vector<std::string> lines = common;
      if (std::string(dtype) == "f16") {
        lines.insert(lines.end(), {"shape=3x17 values=const:60000", "shape=3x17 values=const:-60000"});
      } else {
        lines.insert(lines.end(), {"shape=3x17 values=const:1e30", "shape=3x17 values=const:-1e30",
                                   "shape=3x17 values=const:3.3e38", "shape=3x17 values=const:-3.3e38"});
      }
      for (const auto& rest : lines) {
        const auto verdict = run_variant(*v, std::string("dtype=") + dtype + " " + rest);
        EXPECT_EQ(verdict.outcome, Outcome::pass) << format(verdict);
        EXPECT_TRUE(verdict.guards.empty()) << format(verdict);
        EXPECT_GT(verdict.stats.checked, 0);
        ++ran;
      }
    }
  EXPECT_EQ(ran, static_cast<int>(gelu_variants().size()) * (3 * static_cast<int>(common.size()) + 2 + 4 + 4));
}

TEST(GeluTanh, XEqualElevenIsElevenNotNan) {
  for (const Variant* v : gelu_variants()) {
    const auto verdict = run_variant(*v, "dtype=f32 shape=2x9 values=const:11");
    EXPECT_EQ(verdict.outcome, Outcome::pass) << format(verdict);
    EXPECT_EQ(verdict.stats.max_abs, 0.0) << "11 / (1 + exp(-112.5)) is 11 in f32: " << format(verdict);
  }
}

TEST(GeluTanh, AutoPicksTheVectorPathForDenseAlignedLayoutsAndStridedOtherwise) {
  const struct {
    const char* line;
    const char* variant;
  } cases[] = {
      {"dtype=f32 shape=16x1000", kAutoVector},
      {"dtype=f16 shape=16x1000", kAutoVector},
      {"dtype=bf16 shape=3x33", kAutoVector},
      {"dtype=f32 shape=5x127 x.offset=4 y.offset=8", kAutoVector},
      {"dtype=f16 shape=5x127 x.offset=4 y.offset=8", "strided"},  // x 8 bytes past a 16-byte boundary
      {"dtype=bf16 shape=2x129 x.offset=8 y.offset=16", kAutoVector},
      {"dtype=f32 shape=7x1021 x.offset=1", "strided"},
      {"dtype=f32 shape=4x50 x.offset=3 y.offset=3", "strided"},
      {"dtype=f32 shape=6x31 x.strides=1,6 y.strides=1,6", kAutoVector},  // same (column) order
      {"dtype=f32 shape=6x31 x.strides=1,6", "strided"},
      {"dtype=f32 shape=5x40 x.strides=64,1", "strided"},
      {"dtype=f32 shape=1x40 x.strides=64,1", kAutoVector},  // one row: a dense run whatever the row stride
  };
  for (const auto& tc : cases) {
    const auto verdict = kverify::run_case(parse_case(std::string("op=gelu_tanh backend=emu ") + tc.line));
    EXPECT_EQ(verdict.outcome, Outcome::pass) << format(verdict);
    EXPECT_NE(verdict.reproduce.find(std::string("variant=") + tc.variant + " "), std::string::npos)
        << tc.line << " -> " << verdict.reproduce;
    EXPECT_EQ(verdict.subject.rfind(std::string("gelu_tanh/") + tc.variant + " ", 0), 0u) << verdict.subject;
  }
}

// The launcher's own check on the device pointers (what contiguous_vec does when chosen explicitly).
TEST(GeluTanh, ContiguousVecTakesTheVectorKernelOnlyOnDenseAlignedSameOrderPointers) {
  alignas(16) static float x[64];
  alignas(16) static float y[64];
  const auto request = [&](void* xp, kverify::Layout2D xl, void* yp, kverify::Layout2D yl) {
    kverify::LaunchRequest r;
    r.shape = {xl.rows, xl.cols};
    r.tensors = {{xp, xl}, {yp, yl}};
    return r;
  };
  using kverify::Layout2D;
  using kverify::kernels::gelu_tanh::takes_vector_path;
  const Layout2D rm = Layout2D::row_major(4, 8), cm{4, 8, 1, 4, 0};
  EXPECT_TRUE(takes_vector_path(request(x, rm, y, rm)));
  EXPECT_TRUE(takes_vector_path(request(x, cm, y, cm)));
  EXPECT_FALSE(takes_vector_path(request(x, rm, y, cm))) << "different element orders";
  EXPECT_FALSE(takes_vector_path(request(x + 1, rm, y, rm))) << "x 4 bytes off";
  EXPECT_FALSE(takes_vector_path(request(x, rm, y + 2, rm))) << "y 8 bytes off";
  EXPECT_FALSE(takes_vector_path(request(x, {4, 8, 9, 1, 0}, y, rm))) << "padded rows";
  EXPECT_TRUE(takes_vector_path(request(x, {1, 8, 100, 1, 0}, y, {1, 8, 7, 1, 0}))) << "a single row";
  EXPECT_TRUE(takes_vector_path(request(x + 4, rm, y + 8, rm)));
}

// auto_when reasons from offsets alone: element (0,0) of an emu image sits at a 16-byte aligned
// start plus offset * element size (cuda's cudaMalloc'd buffers are 256-byte aligned).
TEST(GeluTanh, TheAutoRulesAlignmentPremiseHoldsForEmuImages) {
  for (DType d : {DType::f32, DType::f16, DType::bf16})
    for (std::int64_t offset : {0, 1, 3, 4, 8, 13}) {
      kverify::Layout2D l = kverify::Layout2D::row_major(3, 5);
      l.offset = offset;
      kverify::GuardedImage image("x", l, d, 1);
      const auto address = reinterpret_cast<std::uintptr_t>(image.element(0, 0));
      EXPECT_EQ(address % 16, static_cast<std::uintptr_t>(offset) * kverify::size_of(d) % 16) << offset;
    }
}

// --- the contract's special values, bit for bit, through each variant's emu launcher -----------

double dtype_max(DType d) { return kverify::info(d).max_finite; }

void store(DType d, double v, unsigned char* bytes) { kverify::store_from_f64(d, v, bytes); }

TEST(GeluTanh, SignsOfZeroInfinitiesNanAndExtremesHoldBitForBit) {
  const double inf = INFINITY;
  for (const Variant* v : gelu_variants())
    for (DType d : {DType::f32, DType::f16, DType::bf16}) {
      const double big = dtype_max(d);
      // x, and the expected y (checked with ==, sign of zero, and NaN-ness)
      const std::vector<std::pair<double, double>> table = {
          {0.0, 0.0},       {-0.0, -0.0},    {inf, inf},    {-inf, -0.0},
          {NAN, NAN},       {11.0, 11.0},    {-11.0, -0.0}, {16.0, 16.0},
          {-16.0, -0.0},    {big, big},      {-big, -0.0},  {-20.0, -0.0},
          {1000.0, 1000.0}, {-1000.0, -0.0}, {-1e30, -0.0}, {-1e-3, 0.0 /* checked below */},
          {24.0, 24.0}};
      const std::size_t n = table.size(), bytes = kverify::size_of(d);
      for (bool transposed : {false, true}) {
        alignas(16) unsigned char x[64 * 4] = {}, y[64 * 4] = {};
        // one dense row (the vector path on contiguous_vec), or a 1 x n tensor walked with column
        // stride 2 (the strided kernel)
        const std::int64_t cs = transposed ? 2 : 1;
        for (std::size_t i = 0; i < n; ++i) store(d, table[i].first, x + i * cs * bytes);
        kverify::LaunchRequest r;
        r.dtype = d;
        r.shape = {1, static_cast<std::int64_t>(n)};
        const kverify::Layout2D l{1, static_cast<std::int64_t>(n), static_cast<std::int64_t>(n) * cs, cs, 0};
        r.tensors = {{x, l}, {y, l}};
        kverify::launch_on_emu(v->launch_emu, r);
        for (std::size_t i = 0; i < n; ++i) {
          const double got = kverify::load_as_f64(d, y + i * cs * bytes);
          const double want = table[i].second;
          const std::string where = std::string(v->name) + " " + std::string(kverify::name(d)) +
                                    " x=" + std::to_string(table[i].first) + (transposed ? " strided" : "");
          if (std::isnan(want)) {
            EXPECT_TRUE(std::isnan(got)) << where;
          } else if (table[i].first == -1e-3) {
            EXPECT_LT(got, 0.0) << where;  // -0.000498..., tiny but not underflowed
          } else {
            EXPECT_EQ(got, want) << where;
            EXPECT_EQ(std::signbit(got), std::signbit(want)) << where << ": the sign of zero";
          }
        }
      }
    }
}

// --- planted mistakes (kernels/gelu_tanh/mutants): each must fail under the policy ---------------

kverify::Verdict run_mutant(const std::string& mutant, const std::string& line) {
  auto c = parse_case("op=gelu_tanh backend=emu " + line);
  c.variant = mutant;
  return kverify::run_case(c);
}

TEST(GeluTanhPlanted, ExpBasedTanhIsNanAtElevenAndFails) {
  for (const char* dtype : {"f32", "f16", "bf16"}) {
    const auto v = run_mutant("mutant_exp_tanh", std::string("dtype=") + dtype + " shape=2x9 values=const:11");
    EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
    EXPECT_EQ(v.stats.failed, 18) << format(v);
    ASSERT_FALSE(v.first_mismatches.empty());
    EXPECT_TRUE(std::isnan(v.first_mismatches[0].got)) << format(v);
    EXPECT_EQ(v.first_mismatches[0].expected, 11.0);
  }
}

// 0.5 x (1 + tanhf(u)) is PyTorch's own formula: outside the derived bound in the negative tail,
// within the bound of that formula (GeluTanhTolerance::framework_bound), so a PASS with an accuracy
// note, and a FAIL under --strict.
TEST(GeluTanhPlanted, OnePlusTanhfCancelsInTheNegativeTailAndIsAnAccuracyNote) {
  struct StrictOff {
    ~StrictOff() { kverify::set_strict_verdicts(false); }
  } restore;
  // Ordinary inputs already: for x around -3, 1 + tanhf(u) ~ 2e-3 keeps ~1e-5 relative accuracy.
  const auto f32 = run_mutant("mutant_tanhf_cancels", "dtype=f32 shape=8x100 values=normal:3");
  EXPECT_EQ(f32.outcome, Outcome::pass) << format(f32);
  EXPECT_EQ(f32.stats.failed, 0) << format(f32);
  EXPECT_GT(f32.stats.noted, 0) << format(f32);
  EXPECT_NE(f32.accuracy_note.find("F.gelu"), std::string::npos) << format(f32);
  EXPECT_EQ(format(f32).rfind("PASS (accuracy note)", 0), 0u) << format(f32);
  // At x = -6 it is exactly 0 (tanhf(-12.5) rounds to -1): -0 where bf16 holds -1.7e-10, and the
  // formula's own bound (0.5 |x| eps32 = 3.6e-7) holds the whole value.
  const auto bf16 = run_mutant("mutant_tanhf_cancels", "dtype=bf16 shape=2x9 values=const:-6");
  EXPECT_EQ(bf16.outcome, Outcome::pass) << format(bf16);
  EXPECT_EQ(bf16.stats.noted, 18) << format(bf16);
  kverify::set_strict_verdicts(true);
  for (const char* line : {"dtype=f32 shape=8x100 values=normal:3", "dtype=bf16 shape=2x9 values=const:-6"}) {
    const auto strict = run_mutant("mutant_tanhf_cancels", line);
    EXPECT_EQ(strict.outcome, Outcome::fail) << format(strict);
    EXPECT_NE(strict.reason.find("--strict"), std::string::npos) << format(strict);
  }
}

TEST(GeluTanhPlanted, AWrongCoefficientFailsOnOrdinaryInputs) {
  // 0.0447 for 0.044715 moves y by ~2e-4 (1 - sigmoid(t)) relative at x = -2: far outside the f32
  // bound, and outside f16's one ulp once |x| reaches ~3; bf16 (2^-8 relative) cannot see it
  // below |x| ~ 5, where the output itself is below its resolution.
  for (const char* line : {"dtype=f32 shape=8x100 values=normal:1", "dtype=f16 shape=8x100 values=normal:3"}) {
    const auto v = run_mutant("mutant_wrong_constant", line);
    EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
    EXPECT_GT(v.stats.failed, 0);
  }
}

// The saturation branch dropped: right for every finite x (the x^3 that overflows beyond 7e12
// included), NaN for +-inf. Only Cases with infinities can see it: the special recipe, which the
// property generators and a boundary Case draw for gelu_tanh.
TEST(GeluTanhPlanted, WithoutTheSaturationBranchInfinitiesAreNanAndFailOnlyThere) {
  for (const char* dtype : {"f32", "f16", "bf16"}) {
    const std::string d = std::string("dtype=") + dtype;
    for (const char* finite : {"shape=16x100 values=uniform:20", "shape=16x100 values=normal:1e3",
                               "shape=4x37 values=const:-11", "shape=3x17 values=const:-60000"}) {
      const auto v = run_mutant("mutant_infinity_unsaturated", d + " " + finite);
      EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
    }
    const auto v = run_mutant("mutant_infinity_unsaturated", d + " shape=8x50 values=special:4");
    EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
    ASSERT_FALSE(v.first_mismatches.empty()) << format(v);
    EXPECT_TRUE(std::isnan(v.first_mismatches[0].got)) << format(v);
    EXPECT_TRUE(std::isinf(v.first_mismatches[0].expected) || v.first_mismatches[0].expected == 0.0) << format(v);
  }
}

TEST(GeluTanhPlanted, TheErfGeluIsNotTheTanhApproximationAndFails) {
  for (const char* dtype : {"f32", "f16", "bf16"}) {
    const auto v = run_mutant("mutant_erf", std::string("dtype=") + dtype + " shape=8x100 values=normal:1");
    EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
    EXPECT_GT(v.stats.failed, 0);
  }
}

}  // namespace
