#include "mutation/kernelbench.hpp"

#include <cmath>

#include "pipeline/execute.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/run_case.hpp"
#include "runtime/emu/race_detector.hpp"

namespace kverify::properties {

KernelBenchResult kernelbench_check(const Variant& variant, DType dtype, Backend backend) {
  KernelBenchResult result;
  if (!variant.supports(dtype)) {
    result.applies = false;
    result.detail = std::string(variant.name) + " does not take " + std::string(name(dtype));
    return result;
  }
  const double tol = dtype == DType::f32 ? 1e-4 : 1e-2;
  for (int trial = 1; trial <= 5; ++trial) {
    Case c =
        parse_case("op=" + std::string(variant.op) + " shape=" + std::string(find_op(variant.op)->kernelbench_shape) +
                   " dtype=" + std::string(name(dtype)) + " seed=" + std::to_string(trial));
    c.variant = std::string(variant.name);
    c.backend = backend;
    ++result.trials;
    std::vector<GuardedImage> images = materialize(c);
    std::vector<TensorView> inputs;
    for (int t = 0; t < c.op->tensor_count; ++t)
      if (!c.op->tensors()[t].output) inputs.push_back(images[t].view());
    const Expectations want = c.op->reference(c, inputs);
    // KernelBench compares values only: what emu's race detector reports is not its to catch.
    const emu::race::Collector races_not_counted;
    try {
      execute(backend, variant, c, images);
    } catch (const std::exception& e) {
      result.caught = true;
      result.detail = std::string("launch failed: ") + e.what();
      return result;
    }
    const TensorView out = images.back().view();
    for (std::int64_t r = 0; r < out.rows(); ++r)
      for (std::int64_t col = 0; col < out.cols(); ++col) {
        const double got = out.at(r, col), ref = want.at(r, col).value;
        // torch.allclose: |got - ref| <= atol + rtol * |ref|, NaN never close.
        if (!(std::fabs(got - ref) <= tol + tol * std::fabs(ref))) {
          result.caught = true;
          result.detail = "trial " + std::to_string(trial) + ": element (" + std::to_string(r) + "," +
                          std::to_string(col) + ") " + std::to_string(got) + " vs " + std::to_string(ref);
          return result;
        }
      }
  }
  return result;
}

}  // namespace kverify::properties
