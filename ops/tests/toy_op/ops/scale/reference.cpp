#include <cmath>

#include "ops/scale/scale.hpp"
#include "reference/baseline.hpp"

namespace kverify {

Expectations scale_reference(const TensorView& x) {
  Expectations out{x.rows(), x.cols(), {}};
  for (std::int64_t r = 0; r < x.rows(); ++r)
    for (std::int64_t c = 0; c < x.cols(); ++c) {
      const double y = round_to(x.dtype, 2.0 * x.at(r, c));  // exact, or the overflow's infinity
      out.values.push_back(std::isnan(y) ? Expected{y, Expected::Kind::nan, 0} : Expected{y, Expected::Kind::exact, 0});
    }
  return out;
}

std::vector<double> scale_eager(const TensorView& x, DType storage) {
  const StorageRounding q{storage};
  std::vector<double> y;
  for (std::int64_t r = 0; r < x.rows(); ++r)
    for (std::int64_t c = 0; c < x.cols(); ++c) y.push_back(q(2.0f * static_cast<float>(x.at(r, c))));
  return y;
}

}  // namespace kverify
