// gelu_tanh's bench baseline: the eager composition a framework runs without fusion, eight
// elementwise kernels (x^3, *0.044715, +x, *sqrt(2/pi), tanh, +1, *x, *0.5).
#include "bench/device.hpp"
#include "bench/eager_kernels.cuh"
#include "kernels/common/backend_launch.hpp"  // with_storage_type, kv::to_f32 / from_f32
#include "runtime/cuda/check.hpp"

namespace kverify::ops::gelu_tanh {
namespace {

using namespace kverify::bench;

struct State {
  DeviceMemory out, t1, t2;
  explicit State(std::size_t bytes) : out(bytes), t1(bytes), t2(bytes) {}
};

}  // namespace

Baseline device_baseline(const BaselineInputs& in) {
  using namespace kverify::bench::eager;
  const long long n = in.shape[0] * in.shape[1];
  auto st = std::make_shared<State>(static_cast<std::size_t>(n) * size_of(in.dtype));
  Baseline b{"eager gelu_tanh", "8 elementwise kernels: x^3, *0.044715, +x, *sqrt(2/pi), tanh, +1, *x, *0.5", {}, st};
  auto s = static_cast<cudaStream_t>(in.stream);
  with_storage_type(in.dtype, [&]<typename T>() {
    const T* x = static_cast<const T*>(in.inputs[0]);
    T* y = static_cast<T*>(st->out.data);
    T* a = static_cast<T*>(st->t1.data);
    T* c = static_cast<T*>(st->t2.data);
    b.run = [=] {
      const int g = grid_for(n);
      map1<<<g, kThreads, 0, s>>>(x, a, n, Cube{});
      map1<<<g, kThreads, 0, s>>>(a, c, n, Scale{0.044715f});
      map2<<<g, kThreads, 0, s>>>(x, c, a, n, Add{});
      map1<<<g, kThreads, 0, s>>>(a, c, n, Scale{0.7978845608028654f});
      map1<<<g, kThreads, 0, s>>>(c, a, n, Tanh{});
      map1<<<g, kThreads, 0, s>>>(a, c, n, OnePlus{});
      map2<<<g, kThreads, 0, s>>>(x, c, a, n, Mul{});
      map1<<<g, kThreads, 0, s>>>(a, y, n, Scale{0.5f});
      kverify::cuda::check_launch("eager gelu_tanh");
    };
  });
  return b;
}

}  // namespace kverify::ops::gelu_tanh
