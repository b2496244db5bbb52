// Several GPUs of one host, one process each: which devices a run uses (`--gpus`), the environment
// that pins a child process to one of them, and a pool that runs a list of child tasks over those
// devices, one task per device at a time. `kverify check`, `mutants` and `fuzz` shard their work
// with it; results are collected by task index, so a run on N devices reports exactly what a run
// on one does, in the same order.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kverify {

// The devices this process may use, as CUDA_VISIBLE_DEVICES names them: its entries when it is
// set (indices or GPU-... UUIDs), else "0" .. "count-1" (count: cudaGetDeviceCount, 0 without a GPU).
std::vector<std::string> visible_devices(int device_count);

// `--gpus` as given: "all" or a whole number N >= 1; nullopt and the text of what is accepted
// when it is neither.
std::optional<int> parse_gpus(std::string_view value, int visible, std::string* problem);

// The slots of a run over `count` devices of `visible`: slot i pinned to visible[i]. Without
// devices (emu) the slots are plain parallel processes: `count` of them, none pinned.
struct GpuSlots {
  std::vector<std::string> devices;  // one per slot; empty strings: not pinned
  std::size_t size() const { return devices.size(); }
  // KEY=VALUE lines for a child process on slot i (CUDA_VISIBLE_DEVICES=<its device>; none on emu).
  std::vector<std::string> env(std::size_t slot) const;
  // What a child's progress lines start with when several run at once: "[gpu <device>] " or
  // "[<slot>] " (unpinned); "" with one slot.
  std::string tag(std::size_t slot) const;
};
// Throws InputError when more devices are asked for than are visible.
GpuSlots gpu_slots(int count, const std::vector<std::string>& visible, bool need_devices);

// The slots of a command's `--gpus` value: one unpinned slot when it is empty; else all or N of the
// visible devices (on_cuda: pinned to them; otherwise plain processes). `device_count`:
// cudaGetDeviceCount's. Throws InputError on a bad value or too few devices.
GpuSlots slots_for_option(std::string_view gpus, bool on_cuda, int device_count);

// task(i, slot) for every i in [0, tasks): at most slots.size() at a time, task i on the first slot
// that is free, in index order. Blocks until all are done; the first exception is rethrown.
void run_on_slots(std::size_t tasks, const GpuSlots& slots,
                  const std::function<void(std::size_t task, std::size_t slot)>& task);

// The first of `devices` no other process holds, claimed for this process's lifetime (an
// exclusive flock on <lock_dir>/gpu-<device>.lock, released when the process ends, however it
// ends); nullopt when every one is taken. The fuzz jobs of `kverify fuzz --backend cuda --jobs N`
// take a device each this way: libFuzzer starts them, so only they can say which one is free.
std::optional<std::string> claim_free_device(const std::vector<std::string>& devices, const std::string& lock_dir);

// Under `ctest --resource-spec-file` a test that declared RESOURCE_GROUPS "gpus:1" is given a GPU
// in CTEST_RESOURCE_GROUP_0_GPUS ("id:<device>,slots:1"); this returns that device, if any.
// Inline: the cuda runtime wrapper (runtime/cuda/device.cpp) reads it before CUDA starts.
inline std::optional<std::string> ctest_assigned_gpu() {
  const char* groups = std::getenv("CTEST_RESOURCE_GROUP_COUNT");
  const char* gpus = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (!groups || !gpus || std::atoi(groups) < 1) return std::nullopt;
  const std::string_view v(gpus);
  if (!v.starts_with("id:")) return std::nullopt;
  const std::size_t comma = v.find(',');
  const std::string_view id = v.substr(3, comma == std::string_view::npos ? std::string_view::npos : comma - 3);
  if (id.empty()) return std::nullopt;
  return std::string(id);
}

}  // namespace kverify
