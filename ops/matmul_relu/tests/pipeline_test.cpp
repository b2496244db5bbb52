// matmul_relu end to end on emu: the production SIMT kernels (tiled_smem, simt) pass the Case pipeline for
// every dtype over ordinary shapes, M/N/K tails, strided and offset layouts and value recipes
// (exact mode for integers); its NaN/inf behaviour follows the contract; and kernels planted with
// the op's classic bugs (ReLU per K tile, a dropped K tail tile, a column-major A read as row-major,
// an unmasked tail store, an f16 accumulator, one ulp off under exact mode) fail, each on a Case
// built to expose it, while passing a Case where the bug is harmless.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/values.hpp"
#include "kernels/common/backend_launch.hpp"
#include "kernels/matmul_relu/launchers.inl"  // matmul_relu_args, without KV_BACKEND: no launchers
#include "kernels/matmul_relu/simt_plan.hpp"
#include "kernels/matmul_relu/wgmma_plan.hpp"
#include "kernels/registry.hpp"
#include "ops/matmul_relu/matmul_relu.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"
#include "pipeline/tests/require_backend.hpp"

namespace {

using kverify::Outcome;
using kverify::parse_case;
using kverify::run_case;
using kverify::kernels::MatmulReluArgs;
using kverify::kernels::relu_keep_nan;

bool has_guard(const kverify::Verdict& v, const std::string& guard, const std::string& detail_part = "") {
  for (const auto& g : v.guards)
    if (g.guard == guard && g.detail.find(detail_part) != std::string::npos) return true;
  return false;
}

// The Case on every emu-runnable production variant (tiled_smem, simt): the first Verdict
// that is not a clean pass, else the last one.
kverify::Verdict run_line(const std::string& rest, const char* dtype) {
  kverify::Verdict last;
  for (const char* variant : {"tiled_smem", "simt"}) {
    last = run_case(parse_case("op=matmul_relu backend=emu variant=" + std::string(variant) +
                               " dtype=" + std::string(dtype) + " " + rest));
    if (last.outcome != Outcome::pass || !last.guards.empty()) return last;
  }
  return last;
}

constexpr const char* kDtypes[] = {"f32", "f16", "bf16"};

// The reference for a Case's inputs, made here the way the pipeline makes them (recipe value per
// logical element, rounded once to the storage dtype), stored row-major.
kverify::Expectations reference_of(const kverify::Case& c) {
  std::vector<std::vector<unsigned char>> bytes(2);
  std::vector<kverify::TensorView> views;
  for (int t = 0; t < 2; ++t) {
    const auto layout = kverify::Layout2D::row_major(c.layout(t).rows(), c.layout(t).cols());
    const std::size_t size = kverify::size_of(c.dtype);
    bytes[t].resize(static_cast<std::size_t>(layout.elements()) * size);
    kverify::recipe_math::Draw draw = kverify::input_draw(c, t);
    for (std::int64_t r = 0; r < layout.rows; ++r)
      for (std::int64_t col = 0; col < layout.cols; ++col) {
        draw.row = r, draw.col = col;
        kverify::store_from_f64(c.dtype, kverify::recipe_math::value(draw),
                                bytes[t].data() + static_cast<std::size_t>(layout.index(r, col)) * size);
      }
    views.push_back({bytes[t].data(), layout, c.dtype});
  }
  return kverify::matmul_relu_reference(views[0], views[1]);
}

TEST(MatmulRelu, IsRegisteredForEveryDtypeAndChosenByAuto) {
  for (const char* name : {"tiled_smem", "simt"}) {
    const auto* v = kverify::find_variant("matmul_relu", name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_TRUE(v->f32 && v->f16 && v->bf16) << name;
    EXPECT_NE(v->launch_emu, nullptr) << name;
  }
  // On emu, auto takes the register-blocked SIMT kernel for f32 and tiled_smem for f16/bf16 (the
  // tensor-core variant, first in dispatch order, does not run on emu).
  for (const char* dtype : kDtypes) {
    const auto verdict = run_case(parse_case("op=matmul_relu shape=5x6x7 backend=emu dtype=" + std::string(dtype)));
    EXPECT_EQ(verdict.outcome, Outcome::pass) << format(verdict);
    const std::string want = std::string("variant=") + (std::string(dtype) == "f32" ? "simt" : "tiled_smem");
    EXPECT_NE(verdict.reproduce.find(want), std::string::npos) << verdict.reproduce;
  }
}

kverify::Verdict run_variant(const char* variant, const std::string& rest, const char* dtype) {
  return run_case(parse_case("op=matmul_relu backend=emu variant=" + std::string(variant) +
                             " dtype=" + std::string(dtype) + " " + rest));
}

TEST(MatmulRelu, SimtPassesItsOwnTileBoundaries) {
  // simt: 128 x 128 block tiles (64 x 128 for f32 with M <= 64), K tiles of 8; 16-byte loads for
  // aligned f32 operands (row- or column-major, K tails inside a vector), K split over blocks when
  // there are few tiles (simt_plan.hpp).
  for (const char* dtype : kDtypes)
    for (const char* rest : {"shape=128x128x8", "shape=129x127x9", "shape=130x257x17 values=int:3 seed=4",
                             "shape=200x140x33 a.strides=1,200 b.strides=1,33 c.strides=1,200",
                             "shape=129x129x7 a.strides=9,1 b.strides=140,1 c.strides=131,1 a.offset=1 schedule=5",
                             "shape=130x132x20 a.strides=1,132 b.strides=1,20", "shape=70x136x21 a.strides=24,1",
                             "shape=60x130x300", "shape=33x260x520 values=int:3", "shape=5x12x1030 a.strides=1,8"}) {
      const auto v = run_variant("simt", rest, dtype);
      EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
      EXPECT_TRUE(v.guards.empty()) << format(v);
    }
}

// On an sm_90 GPU auto takes wgmma at every K (its promoted accumulation passes the baseline rule
// at K = 8192); on other GPUs mma_sync up to the K where it passed on the H200, tiled_smem beyond.
TEST(MatmulRelu, AutoPicksTensorCoresWithinTheirMeasuredK) {
  const auto* v = kverify::find_variant("matmul_relu", "mma_sync");
  ASSERT_NE(v, nullptr);
  if (!v->launch_cuda) GTEST_SKIP() << "this build has no CUDA: the tensor-core variants are not registered for cuda";
  const auto* wgmma = kverify::find_variant("matmul_relu", "wgmma");
  ASSERT_NE(wgmma, nullptr);
  // wgmma's own rule: the device is sm_90 (false without a GPU).
  const bool hopper = wgmma->auto_when(parse_case("op=matmul_relu dtype=bf16 shape=1x1x1"));
  std::string why;
  const auto* small =
      kverify::choose_variant(parse_case("op=matmul_relu dtype=bf16 shape=4096x4096x4096 backend=cuda"), &why);
  ASSERT_NE(small, nullptr) << why;
  EXPECT_EQ(small->name, hopper ? "wgmma" : "mma_sync");
  const auto* deep =
      kverify::choose_variant(parse_case("op=matmul_relu dtype=bf16 shape=64x8192x8192 backend=cuda"), &why);
  ASSERT_NE(deep, nullptr) << why;
  if (hopper)
    EXPECT_EQ(deep->name, "wgmma");
  else
    EXPECT_EQ(deep->name, "tiled_smem");
  const auto* f32 = kverify::choose_variant(parse_case("op=matmul_relu shape=64x64x64 backend=cuda"), &why);
  ASSERT_NE(f32, nullptr) << why;
  EXPECT_EQ(f32->name, "simt");
}

TEST(MatmulRelu, TensorCoreVariantIsCudaOnlyAndStatesItsLayouts) {
  const auto* v = kverify::find_variant("matmul_relu", "mma_sync");
  ASSERT_NE(v, nullptr);
  EXPECT_FALSE(v->on_emu);
  EXPECT_FALSE(v->f32);
  EXPECT_EQ(v->launch_emu, nullptr);
  auto c = parse_case("op=matmul_relu shape=64x64x64 dtype=bf16 variant=mma_sync backend=emu");
  const auto emu_why = kverify::unsupported(*v, c, kverify::Backend::emu);
  ASSERT_TRUE(emu_why.has_value());
  EXPECT_NE(emu_why->find("tensor-core PTX (mma.sync/ldmatrix/cp.async) has no emu model"), std::string::npos)
      << *emu_why;
  // Asked for by name on emu: not run here, with that reason (the CLI's exit 3: the same line runs
  // on a GPU), never run and never bad input.
  const auto verdict = run_case(c);
  EXPECT_EQ(verdict.outcome, kverify::Outcome::skipped) << format(verdict);
  EXPECT_NE(verdict.reason.find("no emu model"), std::string::npos) << verdict.reason;
  // Layouts, as seen for cuda: row-major A with row-major or column-major B are taken; a
  // column-major A, or a B with no unit stride, are not, and the reason says which tensor.
  for (const char* ok :
       {"shape=64x64x64", "shape=64x64x64 b.strides=1,64", "shape=64x64x64 a.strides=72,1 b.strides=80,1",
        "shape=4097x4095x4099", "shape=64x1x64 b.strides=3,5", "shape=64x64x1 a.strides=1,64"}) {
    auto taken = parse_case(std::string("op=matmul_relu dtype=f16 ") + ok);
    const auto why = kverify::unsupported(*v, taken, kverify::Backend::cuda);
    if (v->launch_cuda) EXPECT_FALSE(why.has_value()) << ok << ": " << *why;
  }
  for (const auto& [line, tensor] : std::vector<std::pair<std::string, std::string>>{
           {"a.strides=1,64", "needs A"}, {"b.strides=2,128", "needs B"}, {"a.strides=128,2", "needs A"}}) {
    auto refused = parse_case("op=matmul_relu shape=64x64x64 dtype=f16 " + line);
    const auto why = kverify::unsupported(*v, refused, kverify::Backend::cuda);
    ASSERT_TRUE(why.has_value()) << line;
    // A build without CUDA refuses every cuda Case first, for that reason.
    EXPECT_NE(why->find(v->launch_cuda ? tensor : "built without CUDA"), std::string::npos) << *why;
  }
}

// On the GPU: mma_sync over both tile configurations, both B orientations, the cp.async and the
// register-staged (unaligned) paths, M/N/K tails, integers (bitwise), NaN and overflow.
TEST(MatmulRelu, TensorCoreVariantPassesOnCuda) {
  KV_REQUIRE_BACKEND(kverify::Backend::cuda);  // mma_sync runs on the GPU only
  for (const char* dtype : {"f16", "bf16"})
    for (const char* rest : {
             "shape=64x64x64", "shape=1x1x1", "shape=33x17x31", "shape=65x63x47", "shape=1x300x1000",
             "shape=64x64x64 b.strides=1,64",  // column-major B, aligned
             "shape=33x17x31 b.strides=1,31",  // column-major B, unaligned
             "shape=100x70x40 a.strides=48,1 b.strides=80,1 c.strides=72,1 a.offset=8 b.offset=16",  // padded, aligned
             "shape=100x70x40 a.offset=1",             // misaligned base: register-staged
             "shape=300x600x130 values=int:3 seed=5",  // big tile (>= 2 waves) with tails, exact
             "shape=257x520x77 b.strides=1,80 values=int:2 seed=6",
             "shape=600x1100x64 c.strides=1,600",  // big tile, column-major C
             "shape=40x30x50 values=special", "shape=20x20x20 values=const:1e20",
             "shape=64x8x8192 values=uniform:1 seed=7",  // long K
         }) {
      auto c = parse_case("op=matmul_relu variant=mma_sync backend=cuda dtype=" + std::string(dtype) + " " + rest);
      const auto v = run_case(c);
      EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
      EXPECT_TRUE(v.guards.empty()) << format(v);
    }
}

// wgmma is cuda only (sm_90a) and takes every layout and size its 32-bit tensor-copy coordinates
// reach: what the copies cannot read in place is packed first (the plan, below).
TEST(MatmulRelu, WgmmaIsCudaOnlyAndTakesEveryLayout) {
  const auto* v = kverify::find_variant("matmul_relu", "wgmma");
  ASSERT_NE(v, nullptr);
  EXPECT_FALSE(v->on_emu);
  EXPECT_FALSE(v->f32);
  auto c = parse_case("op=matmul_relu shape=64x64x64 dtype=bf16 variant=wgmma backend=emu");
  const auto emu_why = kverify::unsupported(*v, c, kverify::Backend::emu);
  ASSERT_TRUE(emu_why.has_value());
  EXPECT_NE(emu_why->find("wgmma"), std::string::npos) << *emu_why;
  EXPECT_EQ(run_case(c).outcome, kverify::Outcome::skipped);
  if (!v->launch_cuda) GTEST_SKIP() << "this build has no CUDA: wgmma is not registered for cuda";
  for (const char* any : {"shape=64x64x64 a.strides=1,64", "shape=64x64x64 b.strides=2,128", "shape=4097x4095x4099",
                          "shape=40x24x56 a.strides=1,40 b.strides=1,56 c.strides=30,1 a.offset=3 c.offset=7"}) {
    const auto why =
        kverify::unsupported(*v, parse_case(std::string("op=matmul_relu dtype=f16 ") + any), kverify::Backend::cuda);
    EXPECT_FALSE(why.has_value() && why->find("needs") != std::string::npos) << any << ": " << *why;
  }
  const auto why =
      kverify::unsupported(*v, parse_case("op=matmul_relu dtype=f16 shape=2147483648x1x1"), kverify::Backend::cuda);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("2^31"), std::string::npos) << *why;
}

// On an sm_90 GPU: every kernel instantiation the plan can name (tile widths, promotion, splits;
// forced through the plan's sweep hook), both dtypes, both B orientations in place, packed
// operands, tails, integers (bitwise), special values, column-major C.
TEST(MatmulRelu, WgmmaPassesOnCudaInEveryInstantiation) {
  KV_REQUIRE_BACKEND(kverify::Backend::cuda);
  const auto* v = kverify::find_variant("matmul_relu", "wgmma");
  ASSERT_NE(v, nullptr);
  if (!v->auto_when(parse_case("op=matmul_relu dtype=bf16 shape=1x1x1")))
    GTEST_SKIP() << "not an sm_90 GPU: wgmma runs on Hopper only";
  for (const char* plan : {"", "256,1", "256,2", "192,1", "192,3", "128,1", "128,3", "64,1", "64,2"}) {
    if (*plan)
      setenv("KVERIFY_WGMMA_PLAN", plan, 1);
    else
      unsetenv("KVERIFY_WGMMA_PLAN");
    for (const char* dtype : {"f16", "bf16"})
      for (const char* rest : {
               "shape=1x1x1",
               "shape=33x17x31",
               "shape=300x500x700 values=int:3 seed=5",
               "shape=300x500x700 b.strides=1,704 values=uniform:1",  // column-major B in place
               "shape=257x70x300 a.strides=1,257 c.strides=1,257",    // column-major A packed, column-major C
               "shape=100x70x40 a.offset=1",                          // misaligned A packed
               "shape=40x30x50 values=special",
               "shape=64x8x1000 values=uniform:1 seed=7",
           }) {
        auto c = parse_case("op=matmul_relu variant=wgmma backend=cuda dtype=" + std::string(dtype) + " " + rest);
        const auto verdict = run_case(c);
        EXPECT_EQ(verdict.outcome, Outcome::pass) << "plan '" << plan << "': " << format(verdict);
        EXPECT_TRUE(verdict.guards.empty()) << "plan '" << plan << "': " << format(verdict);
      }
  }
  unsetenv("KVERIFY_WGMMA_PLAN");
}

// wgmma's plan (host only): a request with 256-byte aligned tensors at `offsets` elements in.
// A launch request for planning only: the tensors' addresses are 256-byte aligned plus their offsets
// (never dereferenced).
kverify::LaunchRequest plan_request(const std::string& case_rest, const char* dtype) {
  static std::vector<unsigned char> arena(1 << 12);
  const auto c = parse_case("op=matmul_relu dtype=" + std::string(dtype) + " " + case_rest);
  kverify::LaunchRequest r;
  r.dtype = c.dtype;
  r.shape = c.shape;
  auto* base = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(arena.data()) + 255) / 256 * 256);
  for (int t = 0; t < 3; ++t)
    r.tensors.push_back(kverify::DeviceTensor::of(
        base + c.layout(t).offset * static_cast<std::int64_t>(kverify::size_of(c.dtype)), c.layout(t), c.dtype));
  return r;
}
kverify::LaunchRequest wgmma_request(const std::string& case_rest) { return plan_request(case_rest, "bf16"); }
kverify::LaunchRequest simt_request(const std::string& case_rest) { return plan_request(case_rest, "f32"); }

TEST(SimtPlan, BenchShapesTakeTheirPlans) {
  using kverify::kernels::matmul_relu::simt_plan;
  const auto square = simt_plan(simt_request("shape=4096x4096x4096"));
  EXPECT_EQ(square.tile_m, 128);
  EXPECT_EQ(square.splits, 1);
  EXPECT_TRUE(square.vector_loads);
  EXPECT_TRUE(square.a_k_fast);
  EXPECT_FALSE(square.b_k_fast);
  EXPECT_EQ(square.workspace_bytes, 0u);
  // Leading dimensions of 4099 and 4095 floats are not multiples of 16 bytes: element loads.
  const auto odd = simt_plan(simt_request("shape=4097x4095x4099"));
  EXPECT_FALSE(odd.vector_loads);
  EXPECT_EQ(odd.splits, 1);
  // 64 tiles of 128 x 128 for a wave of 264 blocks: K split 4 ways, 256 each.
  const auto small = simt_plan(simt_request("shape=1000x1000x1000"));
  EXPECT_EQ(small.splits, 4);
  EXPECT_EQ(small.k_per_split, 256);
  EXPECT_EQ(small.workspace_bytes, static_cast<std::size_t>(4 * 1000 * 1000) * sizeof(float));
  // 64 rows: 64-row tiles (a wave of 528 blocks of 128 threads), 64 tiles, K split 8 ways.
  const auto skinny = simt_plan(simt_request("shape=64x8192x8192"));
  EXPECT_EQ(skinny.tile_m, 64);
  EXPECT_EQ(skinny.splits, 8);
  EXPECT_EQ(skinny.k_per_split, 1024);
  // 16-bit storage: 128-row tiles and element loads only (the instances the launcher has).
  const auto half = simt_plan(plan_request("shape=64x8192x8192", "f16"));
  EXPECT_EQ(half.tile_m, 128);
  EXPECT_FALSE(half.vector_loads);
}

TEST(SimtPlan, LoadsFollowTheContiguousDimension) {
  using kverify::kernels::matmul_relu::simt_plan;
  const auto column_major = simt_plan(simt_request("shape=64x64x64 a.strides=1,64 b.strides=1,64"));
  EXPECT_FALSE(column_major.a_k_fast);
  EXPECT_TRUE(column_major.b_k_fast);
  EXPECT_TRUE(column_major.vector_loads);
  EXPECT_FALSE(simt_plan(simt_request("shape=64x64x64 a.offset=1")).vector_loads);       // 4 bytes off 16
  EXPECT_FALSE(simt_plan(simt_request("shape=64x64x64 a.strides=66,1")).vector_loads);   // 264-byte rows
  EXPECT_FALSE(simt_plan(simt_request("shape=64x64x64 b.strides=130,2")).vector_loads);  // no unit stride
  EXPECT_TRUE(simt_plan(simt_request("shape=64x64x62 a.strides=64,1")).vector_loads);    // padded rows
}

TEST(SimtPlan, SplitsCoverKWithoutEmptyRanges) {
  using kverify::kernels::matmul_relu::simt_plan;
  for (const char* shape : {"shape=64x64x64", "shape=1x1x1", "shape=1x1x100000", "shape=3x70000x2",
                            "shape=200x300x9000", "shape=60x130x300", "shape=4096x4096x4096"}) {
    const auto p = simt_plan(simt_request(shape));
    const std::int64_t k = parse_case(std::string("op=matmul_relu ") + shape).shape[2];
    EXPECT_EQ(p.k_per_split % 8, 0) << shape;
    EXPECT_GE(p.splits * p.k_per_split, k) << shape;
    EXPECT_LT((p.splits - 1) * p.k_per_split, k) << shape;
    EXPECT_LE(p.splits, 65535) << shape;
    if (p.splits > 1) EXPECT_GE(p.k_per_split, kverify::kernels::matmul_relu::kSimtMinSplitK) << shape;
  }
}

// The sweep hooks take one of the launcher's kernels or fail with the accepted form (a typo must
// not time the default plan under the forced plan's name).
template <typename Plan>
void expect_forced_plans(const char* variable, Plan plan, const kverify::LaunchRequest& r,
                         std::initializer_list<const char*> malformed, const char* accepted,
                         const char* accepted_form) {
  for (const char* value : malformed) {
    setenv(variable, value, 1);
    try {
      plan(r);
      ADD_FAILURE() << variable << "='" << value << "' was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(accepted_form), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(value), std::string::npos) << e.what();
    }
  }
  setenv(variable, accepted, 1);
  EXPECT_NO_THROW(plan(r)) << variable << "='" << accepted << "'";
  unsetenv(variable);
}

TEST(SimtPlan, AForcedPlanIsOneOfTheKernelsOrAnError) {
  using kverify::kernels::matmul_relu::simt_plan;
  expect_forced_plans("KVERIFY_SIMT_PLAN", simt_plan, simt_request("shape=1000x1000x1000"),
                      {"", "128", "96,1", "128,0", "128,2,1", "64;2"}, "64,2", "expected tile_m,splits");
  const auto forced = [] {
    setenv("KVERIFY_SIMT_PLAN", "64,2", 1);
    const auto p = kverify::kernels::matmul_relu::simt_plan(simt_request("shape=1000x1000x1000"));
    unsetenv("KVERIFY_SIMT_PLAN");
    return p;
  }();
  EXPECT_EQ(forced.tile_m, 64);
  EXPECT_EQ(forced.splits, 2);
  // 64-row tiles are f32's only.
  expect_forced_plans("KVERIFY_SIMT_PLAN", simt_plan, plan_request("shape=64x64x64", "f16"), {"64,1"}, "128,1",
                      "(64: f32 only)");
}

TEST(WgmmaPlan, AForcedPlanIsOneOfTheKernelsOrAnError) {
  using kverify::kernels::matmul_relu::wgmma_plan;
  expect_forced_plans("KVERIFY_WGMMA_PLAN", wgmma_plan, wgmma_request("shape=1000x1000x1000"),
                      {"", "256", "96,1", "128,0", "256,2x", "tile"}, "128,3", "expected tile_n,splits");
}

TEST(WgmmaPlan, BenchShapesTakeTheirMeasuredPlans) {
  using kverify::kernels::matmul_relu::wgmma_plan;
  const auto square = wgmma_plan(wgmma_request("shape=4096x4096x4096"));
  EXPECT_EQ(square.tile_n, 256);
  EXPECT_EQ(square.promote_every, 0);
  EXPECT_EQ(square.splits, 1);
  EXPECT_FALSE(square.pack_a || square.pack_b);
  EXPECT_EQ(square.workspace_bytes, 0u);
  // K = 8192 is summed with promotion, which takes the 192-wide tile.
  const auto deep = wgmma_plan(wgmma_request("shape=8192x8192x8192"));
  EXPECT_EQ(deep.tile_n, 192);
  EXPECT_EQ(deep.promote_every, 4);
  // Leading dimensions of 4099 and 4095 elements are not multiples of 16 bytes: both packed, to 4104
  // and 4096.
  const auto odd = wgmma_plan(wgmma_request("shape=4097x4095x4099"));
  EXPECT_TRUE(odd.pack_a && odd.pack_b);
  EXPECT_EQ(odd.lda, 4104);
  EXPECT_EQ(odd.ldb, 4096);
  EXPECT_EQ(odd.promote_every, 0);  // K = 4099 <= 4608
  EXPECT_GE(odd.workspace_bytes, static_cast<std::size_t>(4097 * 4104 + 4099 * 4096) * 2);
  EXPECT_GE(odd.pack_b_offset, static_cast<std::size_t>(4097 * 4104) * 2);
  // Few tiles and a short K: the widest tile that keeps a third of the SMs busy, K not split.
  const auto small = wgmma_plan(wgmma_request("shape=1000x1000x1000"));
  EXPECT_EQ(small.tile_n, 128);
  EXPECT_EQ(small.splits, 1);
  // Few tiles and a long K: 256-wide tiles, K split 4 ways (2048 each: no promotion).
  const auto skinny = wgmma_plan(wgmma_request("shape=64x8192x8192"));
  EXPECT_EQ(skinny.tile_n, 256);
  EXPECT_EQ(skinny.splits, 4);
  EXPECT_EQ(skinny.promote_every, 0);
  EXPECT_EQ(skinny.workspace_bytes, static_cast<std::size_t>(4 * 64 * 8192) * sizeof(float));
}

TEST(WgmmaPlan, OperandsTheTensorCopiesCannotReadArePacked) {
  using kverify::kernels::matmul_relu::wgmma_plan;
  const auto column_major_b = wgmma_plan(wgmma_request("shape=64x64x64 b.strides=1,64"));
  EXPECT_FALSE(column_major_b.pack_b);
  EXPECT_FALSE(column_major_b.b_n_major);
  EXPECT_EQ(column_major_b.ldb, 64);
  EXPECT_TRUE(wgmma_plan(wgmma_request("shape=64x64x64 a.strides=1,64")).pack_a);   // column-major A
  EXPECT_TRUE(wgmma_plan(wgmma_request("shape=64x64x64 a.offset=1")).pack_a);       // 2 bytes off 16
  EXPECT_TRUE(wgmma_plan(wgmma_request("shape=64x64x60")).pack_a);                  // 120-byte rows
  EXPECT_TRUE(wgmma_plan(wgmma_request("shape=64x64x64 b.strides=130,2")).pack_b);  // no unit stride
  EXPECT_FALSE(wgmma_plan(wgmma_request("shape=64x64x64 a.strides=72,1 b.strides=80,1")).pack_a);
  const auto packed = wgmma_plan(wgmma_request("shape=64x64x64 a.strides=1,64"));
  EXPECT_EQ(packed.lda, 64);
  EXPECT_GE(packed.workspace_bytes, static_cast<std::size_t>(64 * 64 * 2));
}

TEST(WgmmaPlan, SplitsCoverKWithoutEmptyRangesAndPromoteAboveTheMeasuredK) {
  using kverify::kernels::matmul_relu::wgmma_plan;
  for (const char* shape : {"shape=64x64x64", "shape=64x64x4096", "shape=64x64x4609", "shape=128x256x100000",
                            "shape=64x8192x8192", "shape=1x1x1", "shape=3x70000x2", "shape=200x300x9000"}) {
    const auto p = wgmma_plan(wgmma_request(shape));
    const auto c = parse_case(std::string("op=matmul_relu ") + shape);
    const std::int64_t k_blocks = (c.shape[2] + 63) / 64;
    EXPECT_GE(static_cast<std::int64_t>(p.splits) * p.k_blocks_per_split, k_blocks) << shape;
    EXPECT_LT(static_cast<std::int64_t>(p.splits - 1) * p.k_blocks_per_split, k_blocks) << shape;
    if (p.promote_every == 0)
      EXPECT_LE(static_cast<std::int64_t>(p.k_blocks_per_split) * 64,
                kverify::kernels::matmul_relu::kWgmmaPromoteAboveK)
          << shape;
    else
      EXPECT_LE(p.tile_n, 192) << shape;  // two accumulators
    if (p.splits > 1) {
      EXPECT_GE(p.k_blocks_per_split,
                std::min<std::int64_t>(k_blocks, kverify::kernels::matmul_relu::kWgmmaMinSplitBlocks))
          << shape;
      EXPECT_GE(p.workspace_bytes - p.partials_offset,
                static_cast<std::size_t>(p.splits * c.shape[0] * c.shape[1]) * sizeof(float))
          << shape;
    }
  }
}

TEST(MatmulRelu, PassesOrdinaryAndTailShapesInEveryDtype) {
  // 64 is the block tile in M and N, 16 the K tile: exact multiples, one past, and thin shapes.
  for (const char* dtype : kDtypes)
    for (const char* shape : {"64x64x64", "100x37x53", "1x1x1", "1x1x300", "33x17x31", "65x65x65", "3x130x2"}) {
      const auto v = run_line(std::string("shape=") + shape, dtype);
      EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
      EXPECT_TRUE(v.guards.empty()) << format(v);
    }
}

TEST(MatmulRelu, PassesStridedAndOffsetLayouts) {
  for (const char* dtype : kDtypes)
    for (const char* rest : {
             "shape=33x17x31 a.strides=1,33",                    // A column-major (1, M)
             "shape=33x17x31 b.strides=1,31",                    // B column-major (1, K)
             "shape=33x17x31 c.strides=22,1",                    // C padded (N + 5, 1)
             "shape=33x17x31 a.offset=3 b.offset=5 c.offset=7",  // offsets
             "shape=70x20x19 a.strides=1,70 b.strides=1,19 c.strides=1,70 a.offset=1 b.offset=2 c.offset=3",
             "shape=9x10x11 a.strides=24,2 b.strides=22,2 c.strides=2,20",  // non-unit strides everywhere
             "shape=40x3x20 a.strides=25,1 b.strides=1,21 c.strides=4,1 schedule=7",
         }) {
      const auto v = run_line(rest, dtype);
      EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
      EXPECT_TRUE(v.guards.empty()) << format(v);
    }
}

TEST(MatmulRelu, PassesValueRecipesAndIsBitwiseExactOnIntegers) {
  for (const char* dtype : kDtypes) {
    // Integers: every element is Kind::exact (bitwise equality required), and the kernel meets it.
    const std::string exact_line = "shape=33x17x40 values=int:3 seed=3";
    const auto exact = run_line(exact_line, dtype);
    EXPECT_EQ(exact.outcome, Outcome::pass) << format(exact);
    EXPECT_EQ(exact.stats.max_abs, 0.0);
    const auto want = reference_of(parse_case("op=matmul_relu dtype=" + std::string(dtype) + " " + exact_line));
    for (const auto& e : want.values) EXPECT_EQ(e.kind, kverify::Expected::Kind::exact);

    for (const char* rest :
         {"shape=33x17x40 values=normal:10 seed=1", "shape=20x30x70 values=uniform:2 seed=2",
          "shape=20x30x70 values=negative", "shape=17x9x33 values=const:-1", "shape=17x9x33 values=const:0.1"}) {
      const auto v = run_line(rest, dtype);
      EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
    }
  }
}

TEST(MatmulRelu, InfiniteInputsAndOverflowFollowTheContract) {
  // 1e6 is +inf in f16: every product +inf, every output +inf (kept by the ReLU).
  const auto inf_f16 = run_line("shape=5x70x3 values=const:1e6", "f16");
  EXPECT_EQ(inf_f16.outcome, Outcome::pass) << format(inf_f16);
  // 1e20 squared overflows f32 (and bf16): +inf, required exactly.
  for (const char* dtype : {"f32", "bf16"}) {
    const auto v = run_line("shape=3x4x2 values=const:1e20", dtype);
    EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
  }
  // f16 results past 65504 round to +inf; negative ones are 0 after the ReLU.
  const std::string overflow_line = "shape=4x8x40 values=int:250";  // |sum| ~ 1.3e5 typically
  const auto overflow = run_line(overflow_line, "f16");
  EXPECT_EQ(overflow.outcome, Outcome::pass) << format(overflow);
  int infinities = 0;
  for (const auto& e : reference_of(parse_case("op=matmul_relu dtype=f16 " + overflow_line)).values)
    infinities += std::isinf(e.value) ? 1 : 0;
  EXPECT_GT(infinities, 0) << "the Case must overflow somewhere";
}

TEST(MatmulRelu, NanPropagatesThroughTheKernelAndTheRelu) {
  // fmaxf(NaN, 0) is 0, which is why the kernels' ReLU is not fmaxf.
  EXPECT_EQ(fmaxf(std::numeric_limits<float>::quiet_NaN(), 0.0f), 0.0f);
  EXPECT_TRUE(std::isnan(relu_keep_nan(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(relu_keep_nan(-0.0f), 0.0f);
  EXPECT_FALSE(std::signbit(relu_keep_nan(-0.0f)));

  // No value recipe makes a NaN, so the production launcher runs here on hand-made buffers.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> a{nan,  1,  //
                       1,    1,  //
                       inf,  0,  //
                       -inf, 1};
  std::vector<float> b{1,  0, -1,  //
                       -5, 1, 1};
  std::vector<float> c(4 * 3, 12345.0f);
  kverify::LaunchRequest r;
  r.dtype = kverify::DType::f32;
  r.shape = {4, 3, 2};
  r.tensors = {{a.data(), kverify::Layout2D::row_major(4, 2)},
               {b.data(), kverify::Layout2D::row_major(2, 3)},
               {c.data(), kverify::Layout2D::row_major(4, 3)}};
  kverify::launch_on_emu(kverify::find_variant("matmul_relu", "tiled_smem")->launch_emu, r);
  for (int n = 0; n < 3; ++n) EXPECT_TRUE(std::isnan(c[n])) << "NaN in A's row 0, column " << n;
  EXPECT_EQ(c[3], 0.0f);           // 1 - 5, then the ReLU
  EXPECT_EQ(c[4], 1.0f);           // 0 + 1
  EXPECT_EQ(c[5], 0.0f);           // -1 + 1
  EXPECT_EQ(c[6], inf);            // inf * 1 + 0 * -5
  EXPECT_TRUE(std::isnan(c[7]));   // inf * 0
  EXPECT_EQ(c[8], 0.0f);           // inf * -1 = -inf, then the ReLU
  EXPECT_EQ(c[9], 0.0f);           // -inf * 1 - 5, then the ReLU
  EXPECT_TRUE(std::isnan(c[10]));  // -inf * 0
  EXPECT_EQ(c[11], inf);           // -inf * -1 + 1
  // The reference says the same, element by element.
  const auto as_view = [](const std::vector<float>& v, kverify::Layout2D l) {
    return kverify::TensorView{reinterpret_cast<const unsigned char*>(v.data()), l, kverify::DType::f32};
  };
  const auto want = kverify::matmul_relu_reference(as_view(a, r.tensors[0].layout), as_view(b, r.tensors[1].layout));
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 3; ++n) {
      const auto& e = want.at(m, n);
      const float got = c[m * 3 + n];
      if (e.kind == kverify::Expected::Kind::nan)
        EXPECT_TRUE(std::isnan(got)) << m << "," << n;
      else
        EXPECT_EQ(got, e.value) << m << "," << n;
    }
}

// The production kernel on a grid smaller than the tile count (what the launcher does past 65535
// M tiles): the blocks loop over the remaining tiles.
void launch_tiled_smem_on_a_2x1_grid(const kverify::LaunchRequest& r) {
  kverify::with_storage_type(r.dtype, [&]<typename T>() {
    const auto args = kverify::kernels::matmul_relu::matmul_relu_args<T>(r);
    kverify::emu::launch(dim3(2, 1), dim3(kverify::kernels::matmul_tiled_smem::kThreads), 0,
                         kverify::emu::LaunchOptions{r.schedule_seed}, kverify::kernels::matmul_relu_tiled_smem<T>,
                         args);
  });
}

TEST(MatmulRelu, BlocksLoopOverTilesBeyondTheGrid) {
  const kverify::Variant v{.op = "matmul_relu",
                           .name = "tiled_smem_small_grid",
                           .strategy = "test",
                           .launch_emu = &launch_tiled_smem_on_a_2x1_grid};
  for (const char* rest : {"shape=130x150x20 values=int:3", "shape=130x150x20 c.strides=1,130"}) {
    auto c = parse_case(std::string("op=matmul_relu backend=emu ") + rest);  // 3 x 3 tiles on 2 x 1 blocks
    c.variant = "tiled_smem_small_grid";
    const auto verdict = kverify::run_case_with(c, v);
    EXPECT_EQ(verdict.outcome, Outcome::pass) << format(verdict);
  }
}

// --- planted bugs (kernels/matmul_relu/mutants): each must fail on a Case built to expose it ------

kverify::Verdict run_mutant(const std::string& mutant, const std::string& rest) {
  auto c = parse_case("op=matmul_relu backend=emu " + rest);
  c.variant = mutant;
  return kverify::run_case(c);
}

TEST(MatmulReluPlanted, ReluPerKTileFailsWhenPartialSumsChangeSign) {
  // values=normal: signs are mixed, so partial sums over the first K tiles are often negative.
  for (const char* dtype : kDtypes) {
    const auto v = run_mutant("mutant_relu_per_k_tile", std::string("shape=16x16x64 values=normal dtype=") + dtype);
    EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
    EXPECT_GT(v.stats.failed, 0) << format(v);
    for (const char* guard : {"canary", "unwritten", "launch", "nondeterministic", "input-modified"})
      EXPECT_FALSE(has_guard(v, guard)) << "a numerical failure only: " << format(v);
  }
  // Harmless when no partial sum is negative (negative x negative: every product positive) or
  // when K is a single tile.
  EXPECT_EQ(run_mutant("mutant_relu_per_k_tile", "shape=16x16x64 values=negative").outcome, Outcome::pass);
  EXPECT_EQ(run_mutant("mutant_relu_per_k_tile", "shape=16x16x16").outcome, Outcome::pass);
}

TEST(MatmulReluPlanted, DroppedLastPartialKTileFails) {
  for (const char* dtype : kDtypes) {
    const auto v =
        run_mutant("mutant_dropped_k_tail", std::string("shape=16x16x40 dtype=") + dtype);  // 40 = 2 x 16 + 8
    EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
    EXPECT_GT(v.stats.failed, 0);
  }
  // Exact mode sees it too, with integers.
  EXPECT_EQ(run_mutant("mutant_dropped_k_tail", "shape=16x16x17 values=int:3").outcome, Outcome::fail);
}

TEST(MatmulReluPlanted, ColumnMajorAReadAsRowMajorFails) {
  const auto v = run_mutant("mutant_a_as_row_major", "shape=16x16x24 a.strides=1,16");
  EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
  EXPECT_GT(v.stats.failed, 0);
  EXPECT_EQ(run_mutant("mutant_a_as_row_major", "shape=16x16x24").outcome, Outcome::pass) << "benign when row-major";
}

TEST(MatmulReluPlanted, UnmaskedTailStoreHitsTheCanaries) {
  // N = 12 in tiles of 16: columns 12..15 land in C's row padding (row stride 16).
  const auto gap = run_mutant("mutant_unmasked_n_store", "shape=12x12x8 c.strides=16,1");
  EXPECT_EQ(gap.outcome, Outcome::fail) << format(gap);
  EXPECT_TRUE(has_guard(gap, "canary", "gap in row")) << format(gap);
  // The last row's columns 12..15 land past the end of a contiguous C.
  const auto back = run_mutant("mutant_unmasked_n_store", "shape=10x12x4");
  EXPECT_EQ(back.outcome, Outcome::fail) << format(back);
  EXPECT_TRUE(has_guard(back, "canary", "back canary")) << format(back);
  // Harmless when N is a multiple of the tile.
  EXPECT_EQ(run_mutant("mutant_unmasked_n_store", "shape=10x16x4").outcome, Outcome::pass);
}

TEST(MatmulReluPlanted, F16AccumulatorFailsOnALongK) {
  const auto v = run_mutant("mutant_f16_accumulator", "shape=8x8x512 dtype=f16 seed=5");
  EXPECT_EQ(v.outcome, Outcome::fail) << format(v);
  EXPECT_GT(v.stats.failed, 0);
}

TEST(MatmulReluPlanted, OneUlpOffIsCaughtInExactModeOnly) {
  const auto exact = run_mutant("mutant_one_ulp_high", "shape=16x16x32 values=int:3");
  EXPECT_EQ(exact.outcome, Outcome::fail) << format(exact);
  EXPECT_EQ(exact.stats.failed, 16 * 16) << "every element is exact, so every element is off";
  // The same bug is within the rounding tolerance on real-valued inputs: exact mode is what sees it.
  const auto approx = run_mutant("mutant_one_ulp_high", "shape=16x16x32 values=normal");
  EXPECT_EQ(approx.outcome, Outcome::pass) << format(approx);
}

}  // namespace
