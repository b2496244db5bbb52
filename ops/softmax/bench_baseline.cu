// softmax's bench baseline: the eager composition a framework runs without fusion, five kernels
// (row max, subtract, exp, row sum, divide), each intermediate in the storage dtype.
#include "bench/device.hpp"
#include "bench/eager_kernels.cuh"
#include "kernels/common/backend_launch.hpp"  // with_storage_type, kv::to_f32 / from_f32
#include "runtime/cuda/check.hpp"

namespace kverify::ops::softmax {
namespace {

using namespace kverify::bench;

struct State {
  DeviceMemory out, tmp1, tmp2, row_max, row_sum;
  State(std::size_t elems, std::size_t es, std::size_t rows)
      : out(elems * es), tmp1(elems * es), tmp2(elems * es), row_max(rows * 4), row_sum(rows * 4) {}
};

}  // namespace

Baseline device_baseline(const BaselineInputs& in) {
  using namespace kverify::bench::eager;
  const long long rows = in.shape[0], cols = in.shape[1], n = rows * cols;
  auto st = std::make_shared<State>(n, size_of(in.dtype), rows);
  Baseline b{"eager softmax", "5 kernels: max, x-max, exp, sum, divide; intermediates in the storage dtype", {}, st};
  auto s = static_cast<cudaStream_t>(in.stream);
  with_storage_type(in.dtype, [&]<typename T>() {
    const T* x = static_cast<const T*>(in.inputs[0]);
    T* y = static_cast<T*>(st->out.data);
    T* t1 = static_cast<T*>(st->tmp1.data);
    T* t2 = static_cast<T*>(st->tmp2.data);
    float* mx = static_cast<float*>(st->row_max.data);
    float* sm = static_cast<float*>(st->row_sum.data);
    b.run = [=] {
      softmax_parts(x, t1, t2, mx, sm, rows, cols, s);
      map_row<<<grid_for(n), kThreads, 0, s>>>(t2, sm, y, n, cols, Div{});
      kverify::cuda::check_launch("eager softmax");
    };
  });
  return b;
}

}  // namespace kverify::ops::softmax
