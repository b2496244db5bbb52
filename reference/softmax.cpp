#include "reference/softmax.hpp"

#include <cmath>
#include <limits>

namespace kverify {

Expectations softmax_reference(const TensorView& x) {
  Expectations out{x.rows(), x.cols(), std::vector<Expected>(static_cast<std::size_t>(x.rows() * x.cols()))};
  std::vector<double> row(static_cast<std::size_t>(x.cols()));
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    bool nan_row = false;
    double max = -std::numeric_limits<double>::infinity();
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      row[c] = x.at(r, c);
      if (std::isnan(row[c]) || row[c] == std::numeric_limits<double>::infinity()) nan_row = true;
      max = std::max(max, row[c]);
    }
    if (max == -std::numeric_limits<double>::infinity()) nan_row = true;  // all -inf
    Expected* y = &out.values[static_cast<std::size_t>(r * x.cols())];
    if (nan_row) {
      for (std::int64_t c = 0; c < x.cols(); ++c) y[c] = {std::numeric_limits<double>::quiet_NaN(), Expected::Kind::nan, 0};
      continue;
    }
    // f64 keeps 29 more bits than f32: exp's and the sum's rounding errors here are far below the
    // f32 kernel's, so this reference decides every f32/f16/bf16 softmax output.
    double sum = 0;
    for (std::int64_t c = 0; c < x.cols(); ++c) sum += std::exp(row[c] - max);
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      if (row[c] == -std::numeric_limits<double>::infinity()) {
        y[c] = {0.0, Expected::Kind::exact, 0};
      } else {
        y[c] = {std::exp(row[c] - max) / sum, Expected::Kind::approx, max - row[c]};
      }
    }
  }
  return out;
}

}  // namespace kverify
