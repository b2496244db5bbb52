// The one rule for GoogleTest tests that need a backend: where it cannot run here (no GPU, a build
// without CUDA), the test is skipped with the backend's own reason; with KVERIFY_REQUIRE_GPU=1
// (machines that must have a GPU) that is a failure instead. Never a pass.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "pipeline/execute.hpp"  // backend_available

namespace kverify::testing {
inline bool gpu_required() {
  const char* v = std::getenv("KVERIFY_REQUIRE_GPU");
  return v && std::string(v) == "1";
}
}  // namespace kverify::testing

// Returns from the test (skip or failure) when `backend` cannot run here.
#define KV_REQUIRE_BACKEND(backend)                                                                  \
  do {                                                                                               \
    std::string kv_why_not_;                                                                         \
    if (!::kverify::backend_available((backend), &kv_why_not_)) {                                    \
      if (::kverify::testing::gpu_required()) FAIL() << "KVERIFY_REQUIRE_GPU=1 but " << kv_why_not_; \
      GTEST_SKIP() << kv_why_not_;                                                                   \
    }                                                                                                \
  } while (0)
