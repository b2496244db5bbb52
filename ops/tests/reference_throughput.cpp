// Reference speed on this machine, in elements per second (output elements for the reductions'
// inputs counted as input elements read): the float64 references as the pipeline calls them, and
// the exact MPFR paths. reports/emu/NOTES.md quotes the figures with the machine.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "ops/gelu_tanh/gelu_tanh.hpp"
#include "ops/matmul_relu/matmul_relu.hpp"
#include "ops/row_sum/row_sum.hpp"
#include "ops/softmax/softmax.hpp"
#include "reference/exact.hpp"

namespace {

using kverify::DType;
using kverify::Layout2D;
using kverify::TensorView;

template <typename F>
void measure(const char* what, double elements, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  int reps = 0;
  double seconds = 0;
  do {
    f();
    ++reps;
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (seconds < 0.5);
  std::printf("%-44s %10.3g elements/s\n", what, elements * reps / seconds);
}

}  // namespace

int main() {
  std::mt19937 rng(1);
  std::normal_distribution<float> normal(0, 1);
  std::vector<float> data(1 << 20);
  for (auto& v : data) v = normal(rng);
  const TensorView x{reinterpret_cast<const unsigned char*>(data.data()), Layout2D::row_major(256, 4096), DType::f32};
  measure("softmax float64 (256x4096)", 256.0 * 4096, [&] { kverify::softmax_reference(x); });
  measure("softmax MPFR 166-bit (16x4096)", 16.0 * 4096, [&] {
    kverify::softmax_reference_exact({x.base, Layout2D::row_major(16, 4096), DType::f32});
  });
  measure("gelu_tanh float64 (256x4096)", 256.0 * 4096, [&] { kverify::gelu_tanh_reference(x); });
  measure("row_sum float64, certified (256x4096)", 256.0 * 4096, [&] { kverify::row_sum_reference(x, DType::f32); });
  std::vector<double> row(data.begin(), data.begin() + 4096);
  measure("exact_sum MPFR 665-bit (4096 terms)", 4096, [&] { kverify::exact_sum(row); });
  const TensorView a{x.base, Layout2D::row_major(128, 128), DType::f32};
  const TensorView b{x.base + 128 * 128 * 4, Layout2D::row_major(128, 128), DType::f32};
  measure("matmul_relu float64 (128^3 multiply-adds)", 128.0 * 128 * 128,
          [&] { kverify::matmul_relu_reference(a, b); });
  measure("exact_dot MPFR 665-bit (4096 terms)", 4096, [&] { kverify::exact_dot(row, row); });
  return 0;
}
