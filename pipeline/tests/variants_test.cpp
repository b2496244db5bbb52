// Every registered production variant x every dtype it takes: an ordinary Case and a tail-width
// Case pass, on emu here and on cuda where there is a GPU (skipped with the reason elsewhere, a
// failure with KVERIFY_REQUIRE_GPU=1). Softmax variants also meet every out-of-domain rule.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"
#include "pipeline/tests/require_backend.hpp"

namespace {

using kverify::Backend;
using kverify::Outcome;

struct OpCases {
  const char* op;
  std::vector<const char*> shapes;  // ordinary first, then tails
};

const OpCases kOpCases[] = {
    {"softmax", {"shape=8x1000", "shape=3x33", "shape=5x1"}},
    {"gelu_tanh", {"shape=16x1000", "shape=3x33", "shape=1x1"}},
    {"row_sum", {"shape=8x1000", "shape=3x33", "shape=5x1"}},
    {"matmul_relu", {"shape=64x64x64", "shape=33x17x31", "shape=1x1x1"}},
};

void run_every_variant(Backend backend) {
  int ran = 0;
  std::vector<std::string> skipped;  // variant-wide refusals (e.g. cuda-only on emu), said out loud
  for (const auto& variant : kverify::all_variants()) {
    if (!variant.mutant && backend == Backend::emu && !variant.on_emu) {
      skipped.push_back(std::string(variant.op) + "/" + std::string(variant.name) + ": " +
                        std::string(variant.emu_unsupported_reason));
      continue;
    }
    if (variant.mutant) continue;
    for (const auto& op : kOpCases) {
      if (variant.op != op.op) continue;
      for (const char* dtype : {"f32", "f16", "bf16"}) {
        for (const char* shape : op.shapes) {
          auto c = kverify::parse_case(std::string("op=") + op.op + " dtype=" + dtype + " " + shape);
          c.variant = std::string(variant.name);
          c.backend = backend;
          if (kverify::unsupported(variant, c, backend)) continue;
          const auto v = kverify::run_case(c);
          EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
          ++ran;
        }
      }
    }
  }
  EXPECT_GT(ran, 0);
  std::printf("%d Cases passed on %s\n", ran, std::string(kverify::name(backend)).c_str());
  for (const auto& s : skipped) {
    std::printf("skipped on %s: %s\n", std::string(kverify::name(backend)).c_str(), s.c_str());
    ::testing::Test::RecordProperty("skipped_" + s.substr(0, s.find(':')), s.substr(s.find(':') + 2));
  }
}

TEST(EveryVariant, OrdinaryAndTailCasesPassOnEmu) { run_every_variant(Backend::emu); }

TEST(EveryVariant, OrdinaryAndTailCasesPassOnCuda) {
  KV_REQUIRE_BACKEND(Backend::cuda);
  run_every_variant(Backend::cuda);
}

void out_of_domain_rows(Backend backend) {
  int ran = 0;
  for (const auto& variant : kverify::kernels::softmax::variants()) {
    for (const char* dtype : {"f32", "f16", "bf16"}) {
      // values=special cycles rows through: one NaN, one +inf, all -inf, every third -inf, and
      // masked rows (-inf but for the first or the last 1-3 columns).
      for (const char* shape : {"shape=8x40", "shape=8x3", "shape=8x1000"}) {
        auto c = kverify::parse_case(std::string("op=softmax values=special dtype=") + dtype + " " + shape);
        c.variant = std::string(variant.name);
        c.backend = backend;
        if (kverify::unsupported(variant, c, backend)) continue;
        const auto v = kverify::run_case(c);
        EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
        ++ran;
      }
    }
  }
  EXPECT_GT(ran, 0);
}

TEST(SoftmaxContract, OutOfDomainRowsOnEveryVariantOnEmu) { out_of_domain_rows(Backend::emu); }

TEST(SoftmaxContract, OutOfDomainRowsOnEveryVariantOnCuda) {
  KV_REQUIRE_BACKEND(Backend::cuda);
  out_of_domain_rows(Backend::cuda);
}

}  // namespace

namespace {

// Wide rows: the streaming softmax and the split row sum take 262144 columns without truncating.
TEST(WideRows, SoftmaxOnlineAndRowSumSplitTake262144Columns) {
  for (const char* line : {"op=softmax variant=online shape=2x262144 backend=emu",
                           "op=softmax variant=online shape=1x262144 dtype=bf16 values=negative:30 backend=emu",
                           "op=row_sum variant=split_row shape=2x262144 backend=emu",
                           "op=row_sum variant=split_row shape=1x262144 dtype=f16 values=int:1 backend=emu"}) {
    const auto v = kverify::run_case(kverify::parse_case(line));
    EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
  }
}

// The seed's example: a row of 1..10 reduced in tiles (of 4 in the article) sums to exactly 55 on
// every row_sum variant; integers make it exact mode, so the kernel's bits must be 55's.
TEST(RowSumContract, OneToTenSumsToExactly55OnEveryVariant) {
  for (const auto& variant : kverify::kernels::row_sum::variants())
    for (const char* dtype : {"f32", "f16", "bf16"}) {
      auto c = kverify::parse_case(std::string("op=row_sum shape=1x10 values=ramp backend=emu dtype=") + dtype);
      c.variant = std::string(variant.name);
      const auto v = kverify::run_case(c);
      EXPECT_EQ(v.outcome, Outcome::pass) << format(v);
      EXPECT_EQ(v.stats.max_abs, 0.0) << format(v);
    }
}

}  // namespace
