#include "reference/baseline.hpp"

#include <cmath>

#include "core/error.hpp"

namespace kverify {
namespace {

// One eager op's output: an f32 computation rounded to the storage dtype.
struct Eager {
  DType dtype;
  float operator()(float v) const { return static_cast<float>(round_to(dtype, v)); }
};

std::vector<double> softmax_eager(const TensorView& x, Eager q) {
  std::vector<double> y;
  std::vector<float> e(static_cast<std::size_t>(x.cols()));
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    float m = -INFINITY;
    for (std::int64_t c = 0; c < x.cols(); ++c) m = std::fmax(m, static_cast<float>(x.at(r, c)));
    float s = 0;  // torch.sum accumulates half types in f32
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      e[c] = q(std::exp(q(static_cast<float>(x.at(r, c)) - m)));
      s += e[c];
    }
    s = q(s);
    for (std::int64_t c = 0; c < x.cols(); ++c) y.push_back(q(e[c] / s));
  }
  return y;
}

std::vector<double> gelu_tanh_eager(const TensorView& x, Eager q) {
  std::vector<double> y;
  const float k0 = 0.7978845608028654f, k1 = 0.044715f;
  for (std::int64_t r = 0; r < x.rows(); ++r)
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const float v = static_cast<float>(x.at(r, c));
      const float cube = q(q(v * v) * v);
      const float inner = q(k0 * q(v + q(k1 * cube)));
      y.push_back(q(q(0.5f * v) * q(1.0f + q(std::tanh(inner)))));
    }
  return y;
}

std::vector<double> row_sum_eager(const TensorView& x, Eager q) {
  std::vector<double> y;
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    float s = 0;
    for (std::int64_t c = 0; c < x.cols(); ++c) s += static_cast<float>(x.at(r, c));
    y.push_back(q(s));
  }
  return y;
}

std::vector<double> matmul_relu_eager(const TensorView& a, const TensorView& b, Eager q) {
  std::vector<double> y;
  for (std::int64_t m = 0; m < a.rows(); ++m)
    for (std::int64_t n = 0; n < b.cols(); ++n) {
      float acc = 0;
      for (std::int64_t k = 0; k < a.cols(); ++k)
        acc = std::fma(static_cast<float>(a.at(m, k)), static_cast<float>(b.at(k, n)), acc);
      const float stored = q(acc);
      y.push_back(stored > 0 ? stored : (std::isnan(stored) ? stored : 0.0f));
    }
  return y;
}

}  // namespace

std::vector<double> baseline_output(const Case& c, std::span<const TensorView> in) {
  const Eager q{c.dtype};
  const std::string_view op = c.op->name;
  if (op == "softmax") return softmax_eager(in[0], q);
  if (op == "gelu_tanh") return gelu_tanh_eager(in[0], q);
  if (op == "row_sum") return row_sum_eager(in[0], q);
  if (op == "matmul_relu") return matmul_relu_eager(in[0], in[1], q);
  throw InputError("no baseline for op '" + std::string(op) + "'");
}

}  // namespace kverify
