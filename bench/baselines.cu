// Each op's GPU baseline (ops/<op>/bench_baseline.cu), found through ops/ops.def.
#include <stdexcept>
#include <string>

#include "bench/device.hpp"

#define KVERIFY_OP(op)                                                  \
  namespace kverify::ops::op {                                          \
  extern const OpSpec spec;                                             \
  bench::Baseline device_baseline(const bench::BaselineInputs& inputs); \
  }
#include "ops/ops.def"
#undef KVERIFY_OP

namespace kverify::bench {

Baseline op_baseline(const OpSpec& op, const BaselineInputs& in) {
#define KVERIFY_OP(name) \
  if (&op == &ops::name::spec) return ops::name::device_baseline(in);
#include "ops/ops.def"
#undef KVERIFY_OP
  throw std::logic_error("op " + std::string(op.name) + " is not in ops/ops.def");
}

}  // namespace kverify::bench
