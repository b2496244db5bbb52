#include "core/gpu_slots.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/error.hpp"

namespace kverify {

std::vector<std::string> visible_devices(int device_count) {
  std::vector<std::string> out;
  if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES"); v != nullptr) {
    std::stringstream list(v);
    // CUDA stops at the first entry it cannot use; an empty entry is one.
    for (std::string d; std::getline(list, d, ',') && !d.empty();) out.push_back(d);
    return out;
  }
  for (int i = 0; i < device_count; ++i) out.push_back(std::to_string(i));
  return out;
}

std::optional<int> parse_gpus(std::string_view value, int visible, std::string* problem) {
  if (value == "all") return visible > 0 ? visible : 1;
  int n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec == std::errc() && end == value.data() + value.size() && n >= 1 && n <= 1024) return n;
  if (problem) *problem = "'" + std::string(value) + "' (accepted: all, or a number of devices from 1 to 1024)";
  return std::nullopt;
}

GpuSlots gpu_slots(int count, const std::vector<std::string>& visible, bool need_devices) {
  GpuSlots s;
  if (need_devices) {
    if (count > static_cast<int>(visible.size()))
      throw InputError("--gpus " + std::to_string(count) + ": only " + std::to_string(visible.size()) +
                       " GPU(s) visible here" +
                       (std::getenv("CUDA_VISIBLE_DEVICES") ? " (CUDA_VISIBLE_DEVICES lists them)" : "") +
                       " (accepted: all, or 1 .. " + std::to_string(visible.size()) + ")");
    s.devices.assign(visible.begin(), visible.begin() + count);
  } else {
    s.devices.assign(static_cast<std::size_t>(count), "");
  }
  return s;
}

GpuSlots slots_for_option(std::string_view gpus, bool on_cuda, int device_count) {
  if (gpus.empty()) return gpu_slots(1, {}, false);
  const std::vector<std::string> visible = visible_devices(on_cuda ? device_count : 0);
  std::string problem;
  const auto count = parse_gpus(gpus, static_cast<int>(visible.size()), &problem);
  if (!count) throw InputError("option --gpus " + problem);
  return gpu_slots(*count, visible, on_cuda);
}

std::string GpuSlots::tag(std::size_t slot) const {
  if (devices.size() < 2 || slot >= devices.size()) return "";
  return devices[slot].empty() ? "[" + std::to_string(slot) + "] " : "[gpu " + devices[slot] + "] ";
}

std::vector<std::string> GpuSlots::env(std::size_t slot) const {
  if (slot >= devices.size() || devices[slot].empty()) return {};
  return {"CUDA_VISIBLE_DEVICES=" + devices[slot]};
}

void run_on_slots(std::size_t tasks, const GpuSlots& slots,
                  const std::function<void(std::size_t task, std::size_t slot)>& task) {
  const std::size_t workers = std::max<std::size_t>(1, std::min(slots.size(), tasks));
  if (workers == 1) {
    for (std::size_t i = 0; i < tasks; ++i) task(i, 0);
    return;
  }
  std::mutex m;
  std::size_t next = 0;
  std::exception_ptr error;
  std::vector<std::thread> pool;
  for (std::size_t slot = 0; slot < workers; ++slot)
    pool.emplace_back([&, slot] {
      for (;;) {
        std::size_t i;
        {
          std::lock_guard lock(m);
          if (next >= tasks || error) return;
          i = next++;
        }
        try {
          task(i, slot);
        } catch (...) {
          std::lock_guard lock(m);
          if (!error) error = std::current_exception();
        }
      }
    });
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

std::optional<std::string> claim_free_device(const std::vector<std::string>& devices, const std::string& lock_dir) {
  for (const std::string& d : devices) {
    const std::string path = lock_dir + "/gpu-" + d + ".lock";
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) continue;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) return d;  // fd stays open: the claim lasts as long as the process
    close(fd);
  }
  return std::nullopt;
}

}  // namespace kverify
