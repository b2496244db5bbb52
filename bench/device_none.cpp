// A build without CUDA: the bench gates on emu and cannot time; these are never reached (the
// command checks backend_available first) but keep the interface linkable.
#include <stdexcept>

#include "bench/device.hpp"

namespace kverify::bench {
namespace {
[[noreturn]] void none() {
  throw std::runtime_error("this build of kverify has no cuda backend: the bench cannot time");
}
}  // namespace
DeviceInfo device_info() { none(); }
DeviceMemory::DeviceMemory(std::size_t) { none(); }
DeviceMemory::~DeviceMemory() = default;
void DeviceMemory::upload(const void*, std::size_t) { none(); }
struct Timer::Impl {};
Timer::Timer(std::size_t) { none(); }
Timer::~Timer() = default;
void* Timer::stream() const { none(); }
Timing Timer::time(const std::function<void()>&, int, int) { none(); }
Ceiling copy_ceiling(Timer&, std::size_t, int) { none(); }
Baseline op_baseline(const OpSpec&, const BaselineInputs&) { none(); }
}  // namespace kverify::bench
