// A build without CUDA: the bench gates on emu and cannot time; these are never reached (the
// command checks backend_available first) but keep the interface linkable.
#include <stdexcept>

#include "bench/device.hpp"

namespace kverify::bench {
namespace {
[[noreturn]] void none() { throw std::runtime_error("this build of kverify has no cuda backend: the bench cannot time"); }
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
Baseline cublaslt_matmul_relu(DType, std::int64_t, std::int64_t, std::int64_t, const void*, const void*, void*, void*) { none(); }
Baseline cub_row_sum(DType, std::int64_t, std::int64_t, const void*, void*) { none(); }
Baseline eager_softmax(DType, std::int64_t, std::int64_t, const void*, void*, void*) { none(); }
Baseline eager_gelu_tanh(DType, std::int64_t, const void*, void*, void*) { none(); }
}  // namespace kverify::bench
