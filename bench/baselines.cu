// Each op's GPU baseline (ops/<op>/bench_baseline.cu). bench/CMakeLists.txt lists, in
// op_baselines.def, the ops of ops/ops.def that have one; an op without one still builds and benches,
// and its rows say that there is no baseline.
#include <stdexcept>
#include <string>

#include "bench/device.hpp"

#define KVERIFY_OP_BASELINE(op)                                         \
  namespace kverify::ops::op {                                          \
  extern const OpSpec spec;                                             \
  bench::Baseline device_baseline(const bench::BaselineInputs& inputs); \
  }
#include "op_baselines.def"
#undef KVERIFY_OP_BASELINE

namespace kverify::bench {

Baseline op_baseline(const OpSpec& op, const BaselineInputs& in) {
#define KVERIFY_OP_BASELINE(name) \
  if (&op == &ops::name::spec) return ops::name::device_baseline(in);
#include "op_baselines.def"
#undef KVERIFY_OP_BASELINE
  throw std::runtime_error("op " + std::string(op.name) + " has no GPU baseline (ops/" + std::string(op.name) +
                           "/bench_baseline.cu)");
}

}  // namespace kverify::bench
