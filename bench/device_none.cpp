// A build without CUDA: the bench gates on emu and cannot time; these are never reached (the
// command checks backend_available first) but keep the interface linkable.
#include <stdexcept>

#include "bench/device.hpp"
#include "bench/device_image.hpp"

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
void DeviceMemory::copy_from_device(const void*, std::size_t) { none(); }
void device_copy(void*, const void*, std::size_t) { none(); }
void device_synchronize() { none(); }
void DeviceImage::copy_elements_from(const void*) { none(); }
struct Timer::Impl {};
Timer::Timer(std::size_t) { none(); }
Timer::~Timer() = default;
void* Timer::stream() const { none(); }
Timing Timer::time(const std::function<void()>&, int, int, Repetitions*) { none(); }
Ceiling copy_ceiling(Timer&, std::size_t, int) { none(); }
Baseline op_baseline(const OpSpec&, const BaselineInputs&) { none(); }
struct DeviceImage::Impl {};
DeviceImage::DeviceImage(std::string, Layout, DType, std::uint64_t) { none(); }
DeviceImage::~DeviceImage() = default;
void* DeviceImage::element0() const { none(); }
void DeviceImage::draw(const recipe_math::Draw&) { none(); }
void DeviceImage::poison(Poison, std::uint64_t) { none(); }
void DeviceImage::rewrite_canaries() { none(); }
std::uint64_t DeviceImage::hash() const { none(); }
std::uint64_t DeviceImage::damaged_canary_bytes() const { none(); }
std::vector<unsigned char> DeviceImage::gather_rows(const std::vector<std::int64_t>&) const { none(); }
GuardedImage DeviceImage::to_host() const { none(); }
DeviceImage::RunDifferences DeviceImage::compare_runs(const DeviceImage&, const DeviceImage&, std::uint64_t) { none(); }
void draw_on_device(void*, const Layout2D&, DType, const recipe_math::Draw&) { none(); }
}  // namespace kverify::bench
