// Host code of two_pass_row_sum, compiled once into kverify: a tolerance of the user's own (POLICY
// custom=...), row_sum's policy with every bound doubled, as a team that accepts a looser kernel
// would write it; and a precondition no ACCEPTS token spells (PRECONDITION).
#include <memory>
#include <string>

#include "core/case.hpp"
#include "ops/row_sum/row_sum.hpp"

namespace your_terms {

class Doubled final : public kverify::Tolerance {
 public:
  explicit Doubled(std::unique_ptr<kverify::Tolerance> base) : base_(std::move(base)) {}
  double bound(const kverify::Expected& e) const override { return 2 * base_->bound(e); }
  std::string describe() const override { return "twice (" + base_->describe() + ")"; }
  double error_unit(const kverify::Expected& e, kverify::DType out) const override { return base_->error_unit(e, out); }

 private:
  std::unique_ptr<kverify::Tolerance> base_;
};

std::unique_ptr<kverify::Tolerance> loose_row_sum(const kverify::Case& c) {
  return std::make_unique<Doubled>(kverify::row_sum_tolerance(c.dtype, c.shape[1]));
}

std::string partials_fit_in_int(const kverify::Case& c) {
  return c.shape[0] * 8 >= (1LL << 31) ? "indexes rows * 8 partials with int (rows below 2^28)" : "";
}

}  // namespace your_terms
