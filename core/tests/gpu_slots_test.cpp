// The device list, `--gpus`, the pinning environment and the slot pool, with fake device lists
// (CUDA_VISIBLE_DEVICES variations): what shards a run over several GPUs, checked without any.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/gpu_slots.hpp"

namespace kverify {
namespace {

// Sets an environment variable for one test and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* key, const char* value) : key_(key) {
    if (const char* old = std::getenv(key)) old_ = old;
    value ? setenv(key, value, 1) : unsetenv(key);
  }
  ~ScopedEnv() { old_ ? setenv(key_, old_->c_str(), 1) : unsetenv(key_); }

 private:
  const char* key_;
  std::optional<std::string> old_;
};

TEST(GpuSlots, VisibleDevicesFollowCudaVisibleDevices) {
  {
    ScopedEnv e("CUDA_VISIBLE_DEVICES", nullptr);
    EXPECT_EQ(visible_devices(3), (std::vector<std::string>{"0", "1", "2"}));
    EXPECT_TRUE(visible_devices(0).empty());
  }
  {
    ScopedEnv e("CUDA_VISIBLE_DEVICES", "5,2,GPU-8e6a");
    EXPECT_EQ(visible_devices(8), (std::vector<std::string>{"5", "2", "GPU-8e6a"}));
  }
  {
    ScopedEnv e("CUDA_VISIBLE_DEVICES", "1,,3");  // CUDA stops at the empty entry
    EXPECT_EQ(visible_devices(4), (std::vector<std::string>{"1"}));
  }
}

TEST(GpuSlots, ParseGpusTakesAllOrACount) {
  std::string problem;
  EXPECT_EQ(parse_gpus("all", 4, &problem), 4);
  EXPECT_EQ(parse_gpus("all", 0, &problem), 1);  // emu: one process
  EXPECT_EQ(parse_gpus("2", 4, &problem), 2);
  for (const char* bad : {"0", "-1", "two", "2x", "", "1025"}) {
    problem.clear();
    EXPECT_FALSE(parse_gpus(bad, 4, &problem)) << bad;
    EXPECT_NE(problem.find("accepted: all"), std::string::npos) << problem;
  }
}

TEST(GpuSlots, EachSlotIsPinnedToOneVisibleDevice) {
  const GpuSlots s = gpu_slots(2, {"5", "2", "7"}, true);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.env(0), (std::vector<std::string>{"CUDA_VISIBLE_DEVICES=5"}));
  EXPECT_EQ(s.env(1), (std::vector<std::string>{"CUDA_VISIBLE_DEVICES=2"}));
  EXPECT_EQ(s.tag(1), "[gpu 2] ");
  EXPECT_EQ(gpu_slots(1, {"5"}, true).tag(0), "");  // one process: its lines as they are
  try {
    gpu_slots(4, {"5", "2", "7"}, true);
    FAIL() << "4 GPUs of 3 visible were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("only 3 GPU(s) visible"), std::string::npos) << e.what();
  }
  const GpuSlots emu = gpu_slots(3, {}, false);  // emu: parallel processes, none pinned
  EXPECT_EQ(emu.size(), 3u);
  EXPECT_TRUE(emu.env(0).empty());
  EXPECT_EQ(emu.tag(2), "[2] ");
}

TEST(GpuSlots, PoolRunsEveryTaskOnceAtMostSlotsAtATime) {
  const GpuSlots slots = gpu_slots(3, {"0", "1", "2"}, true);
  std::vector<int> ran(20, 0);
  std::vector<std::size_t> slot_of(20, 99);
  std::atomic<int> busy{0}, most{0};
  run_on_slots(ran.size(), slots, [&](std::size_t i, std::size_t slot) {
    const int now = ++busy;
    for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ++ran[i];
    slot_of[i] = slot;
    --busy;
  });
  for (std::size_t i = 0; i < ran.size(); ++i) {
    EXPECT_EQ(ran[i], 1) << i;
    EXPECT_LT(slot_of[i], 3u) << i;
  }
  EXPECT_LE(most.load(), 3);
  EXPECT_GE(most.load(), 2);  // the slots really ran side by side

  EXPECT_THROW(run_on_slots(5, slots,
                            [](std::size_t i, std::size_t) {
                              if (i == 3) throw std::runtime_error("task 3");
                            }),
               std::runtime_error);
}

TEST(GpuSlots, EachClaimTakesADeviceNoOtherHolds) {
  char dir[] = "/tmp/kverify-gpu-locks-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::vector<std::string> devices = {"4", "7"};
  // Each claim opens its own lock file description, as another process would.
  EXPECT_EQ(claim_free_device(devices, dir), "4");
  EXPECT_EQ(claim_free_device(devices, dir), "7");
  EXPECT_EQ(claim_free_device(devices, dir), std::nullopt);  // both taken
  EXPECT_EQ(claim_free_device(devices, "/nonexistent/folder"), std::nullopt);
  std::filesystem::remove_all(dir);
}

TEST(GpuSlots, CtestAssignedGpuReadsTheResourceGroup) {
  {
    ScopedEnv count("CTEST_RESOURCE_GROUP_COUNT", "1");
    ScopedEnv gpus("CTEST_RESOURCE_GROUP_0_GPUS", "id:3,slots:1");
    EXPECT_EQ(ctest_assigned_gpu(), "3");
  }
  {
    ScopedEnv count("CTEST_RESOURCE_GROUP_COUNT", nullptr);
    ScopedEnv gpus("CTEST_RESOURCE_GROUP_0_GPUS", "id:3,slots:1");
    EXPECT_EQ(ctest_assigned_gpu(), std::nullopt);  // not under a resource spec
  }
}

}  // namespace
}  // namespace kverify
