#include "mutation/kernelbench.hpp"

#include <algorithm>
#include <cmath>

#include "pipeline/execute.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/run_case.hpp"
#include "runtime/emu/detectors/race_detector.hpp"

namespace kverify::properties {
namespace {

// The op's one power-of-two shape (OpSpec::kernelbench_shape), else every dimension at 128
// within its domain.
std::string kernelbench_sizes(const OpSpec& op) {
  const bool named = op.shape_form.empty();
  if (!op.kernelbench_shape.empty())
    return std::string(named || op.kernelbench_shape.find(':') != std::string_view::npos ? "dims=" : "shape=") +
           std::string(op.kernelbench_shape);
  std::vector<std::int64_t> sizes;
  for (const auto& d : op.dims) {
    const std::int64_t n = std::clamp<std::int64_t>(128, d.min, d.max);
    sizes.push_back(std::max(d.min, n / d.multiple * d.multiple));
  }
  return op.sizes_token(sizes);
}

}  // namespace

KernelBenchResult kernelbench_check(const Variant& variant, DType dtype, Backend backend) {
  KernelBenchResult result;
  if (!variant.supports(dtype)) {
    result.applies = false;
    result.detail = std::string(variant.name) + " does not take " + std::string(name(dtype));
    return result;
  }
  const double tol = dtype == DType::f32 ? 1e-4 : 1e-2;
  // KernelBench compares values only: what emu's race detector would report is not its to
  // catch, so the trials run without it (a third of their time on emu).
  const emu::race::Disabled detector_off;
  for (int trial = 1; trial <= 5; ++trial) {
    Case c = parse_case("op=" + std::string(variant.op) + " " + kernelbench_sizes(*find_op(variant.op)) +
                        " dtype=" + std::string(name(dtype)) + " seed=" + std::to_string(trial));
    c.variant = std::string(variant.name);
    c.backend = backend;
    ++result.trials;
    std::vector<GuardedImage> images = materialize(c);
    std::vector<TensorView> inputs;
    for (int t = 0; t < c.op->tensor_count(); ++t)
      if (!c.op->tensors[static_cast<std::size_t>(t)].output) inputs.push_back(images[t].view());
    const OutputExpectations want = c.op->reference(c, inputs);
    try {
      execute(backend, variant, c, images);
    } catch (const std::exception& e) {
      result.caught = true;
      result.detail = std::string("launch failed: ") + e.what();
      return result;
    }
    const std::vector<int> outputs = c.op->outputs();
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      const TensorView out = images[static_cast<std::size_t>(outputs[k])].view();
      for (std::int64_t r = 0; r < out.rows(); ++r)
        for (std::int64_t col = 0; col < out.cols(); ++col) {
          const double got = out.at(r, col), ref = want.at(k).at(r, col).value;
          // torch.allclose: |got - ref| <= atol + rtol * |ref|, NaN never close.
          if (!(std::fabs(got - ref) <= tol + tol * std::fabs(ref))) {
            result.caught = true;
            result.detail = "trial " + std::to_string(trial) + ": " +
                            images[static_cast<std::size_t>(outputs[k])].name() + " element " +
                            index_text(out.layout, r, col) + " " + std::to_string(got) + " vs " + std::to_string(ref);
            return result;
          }
        }
    }
  }
  return result;
}

}  // namespace kverify::properties
