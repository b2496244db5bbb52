// Every property of the catalogue as a GoogleTest test run by RapidCheck, once on emu and once on
// cuda (skipped with the reason without a GPU; a failure with KVERIFY_REQUIRE_GPU=1). The tests are
// registered from the catalogue's table (what RC_GTEST_PROP does for one property: a TEST whose body
// is rc::detail::checkGTest), so the table is the one list of properties.
//
// RapidCheck's settings come from RC_PARAMS; without it this binary uses a fixed seed and 20 cases
// per property (what CI runs): RC_PARAMS="max_success=200" for a longer run, RC_PARAMS="seed=N" to
// vary the inputs, and RapidCheck prints a reproduce string for any failure.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/tests/require_backend.hpp"
#include "properties/catalogue.hpp"

namespace {

class PropertyTest : public ::testing::Test {
 public:
  PropertyTest(const kverify::properties::Property* p, kverify::Backend b) : property_(p), backend_(b) {}
  void TestBody() override {
    KV_REQUIRE_BACKEND(backend_);
    const kverify::properties::Context ctx{backend_, std::nullopt, std::nullopt, nullptr};
    const auto* p = property_;
    rc::detail::checkGTest([p, ctx] { p->run(ctx); });
    // Variants of the op that cannot run on this backend at all (cuda-only tensor-core kernels on
    // emu) took no Case: say so, with the registry's reason.
    for (const auto& v : kverify::all_variants())
      if (v.op == p->op->name && !v.mutant && backend_ == kverify::Backend::emu && !v.on_emu) {
        std::printf("skipped %s/%s on emu: %s\n", std::string(v.op).c_str(), std::string(v.name).c_str(),
                    std::string(v.emu_unsupported_reason).c_str());
        RecordProperty("skipped_" + std::string(v.name), std::string(v.emu_unsupported_reason));
      }
  }

 private:
  const kverify::properties::Property* property_;
  kverify::Backend backend_;
};

}  // namespace

int main(int argc, char** argv) {
  if (!std::getenv("RC_PARAMS")) setenv("RC_PARAMS", "seed=2026 max_success=20", 1);
  ::testing::InitGoogleTest(&argc, argv);
  for (const auto& p : kverify::properties::all_properties()) {
    const std::string name(p.name);
    const std::string op = name.substr(0, name.find('.')), what = name.substr(name.find('.') + 1);
    for (auto backend : {kverify::Backend::emu, kverify::Backend::cuda}) {
      const std::string suite = std::string(kverify::name(backend)) + "_" + op;
      ::testing::RegisterTest(suite.c_str(), what.c_str(), nullptr, std::string(p.checks).c_str(), __FILE__, __LINE__,
                              [&p, backend]() -> ::testing::Test* { return new PropertyTest(&p, backend); });
    }
  }
  return RUN_ALL_TESTS();
}
