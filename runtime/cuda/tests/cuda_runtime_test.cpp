// The cuda backend's runtime. Without a GPU each test skips with the reason cudaGetDeviceCount
// gave; with KVERIFY_REQUIRE_GPU=1 that is a failure instead.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/gpu_slots.hpp"
#include "runtime/cuda/check.hpp"
#include "runtime/cuda/device.hpp"

namespace kverify::cuda::testing {
void launch_convert_f32(const float* in, std::uint16_t* half_bits, std::uint16_t* bf16_bits, int n);
void launch_bad_configuration();
}  // namespace kverify::cuda::testing

namespace {

using kverify::cuda::device_status;

#define KV_REQUIRE_DEVICE()                                                                                \
  do {                                                                                                     \
    if (!device_status().available) {                                                                      \
      if (kverify::cuda::gpu_required()) FAIL() << "KVERIFY_REQUIRE_GPU=1 but " << device_status().reason; \
      GTEST_SKIP() << device_status().reason;                                                              \
    }                                                                                                      \
  } while (0)

TEST(CudaDevice, StatusExplainsItself) {
  const auto& s = device_status();
  if (s.available) {
    EXPECT_FALSE(s.name.empty());
    EXPECT_GT(s.driver_version, 0);
    std::printf("device: %s, sm_%d, driver %d, runtime %d, %.1f GiB\n", s.name.c_str(), s.compute_capability,
                s.driver_version, s.runtime_version, static_cast<double>(s.total_memory) / (1ull << 30));
  } else {
    EXPECT_NE(s.reason.find("no CUDA device"), std::string::npos) << s.reason;
    if (kverify::cuda::gpu_required()) FAIL() << "KVERIFY_REQUIRE_GPU=1 but " << s.reason;
    GTEST_SKIP() << s.reason;
  }
}

TEST(CudaDevice, BufferRoundTrip) {
  KV_REQUIRE_DEVICE();
  std::vector<unsigned char> host(1 << 20), back(1 << 20);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i * 131 + 7);
  kverify::cuda::DeviceBuffer buffer(host.size());
  buffer.upload(host.data());
  buffer.download(back.data());
  EXPECT_EQ(host, back);
}

TEST(CudaDevice, ConversionsOnTheGpuMatchTheHostTypes) {
  KV_REQUIRE_DEVICE();
  // Every f16 value, every midpoint between neighbours, and random f32 bit patterns.
  std::vector<float> in;
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float v = kverify::f16_bits_to_f32(static_cast<std::uint16_t>(h));
    in.push_back(v);
    in.push_back(std::nextafter(v, 1e30f));
    const float next = kverify::f16_bits_to_f32(static_cast<std::uint16_t>(h + 1));
    if (std::isfinite(v) && std::isfinite(next)) in.push_back(static_cast<float>((static_cast<double>(v) + next) / 2));
  }
  std::mt19937 rng(1);
  for (int i = 0; i < 1 << 20; ++i) in.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(rng())));
  const int n = static_cast<int>(in.size());
  kverify::cuda::DeviceBuffer d_in(in.size() * 4), d_half(in.size() * 2), d_bf16(in.size() * 2);
  d_in.upload(in.data());
  kverify::cuda::testing::launch_convert_f32(static_cast<const float*>(d_in.data()),
                                             static_cast<std::uint16_t*>(d_half.data()),
                                             static_cast<std::uint16_t*>(d_bf16.data()), n);
  kverify::cuda::synchronize("convert_f32");
  std::vector<std::uint16_t> half(in.size()), bf16(in.size());
  d_half.download(half.data());
  d_bf16.download(bf16.data());
  int mismatches = 0;
  for (int i = 0; i < n && mismatches < 10; ++i) {
    if (half[i] != kverify::f32_to_f16_bits(in[i]) || bf16[i] != kverify::f32_to_bf16_bits(in[i])) {
      ++mismatches;
      ADD_FAILURE() << "f32 bits " << std::hex << std::bit_cast<std::uint32_t>(in[i]) << ": gpu f16 " << half[i]
                    << " host " << kverify::f32_to_f16_bits(in[i]) << ", gpu bf16 " << bf16[i] << " host "
                    << kverify::f32_to_bf16_bits(in[i]);
    }
  }
}

TEST(CudaDevice, ABadLaunchIsAnErrorNamingTheKernel) {
  KV_REQUIRE_DEVICE();
  try {
    kverify::cuda::testing::launch_bad_configuration();
    FAIL() << "a 4096-thread block launched";
  } catch (const kverify::cuda::Error& e) {
    EXPECT_NE(std::string(e.what()).find("write_far_out_of_bounds"), std::string::npos) << e.what();
    // CUDA 13 on the H200 answers cudaErrorInvalidValue; older runtimes cudaErrorInvalidConfiguration.
    EXPECT_TRUE(e.code() == cudaErrorInvalidValue || e.code() == cudaErrorInvalidConfiguration) << e.what();
  }
}

}  // namespace

namespace {

// Under `./kverify test --gpus` (ctest --resource-spec-file) this test is handed one GPU, and
// runtime/cuda/device.cpp pins the process to it before CUDA starts. No device is needed to see
// the pinning: tools/tests/test_gpus.sh runs it with a faked device list on machines without any.
TEST(CtestGpu, TheTestIsPinnedToItsAssignedGpu) {
  const auto assigned = kverify::ctest_assigned_gpu();
  if (!assigned) GTEST_SKIP() << "not run under a ctest resource spec (./kverify test --gpus all|N)";
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  ASSERT_NE(visible, nullptr);
  EXPECT_EQ(std::string(visible), *assigned);
}

}  // namespace
