// The simt mutants' workspace, for their registration (WORKSPACE_FUNCTION in CMakeLists.txt).
#include "kernels/matmul_relu/mutants/simt_mutant_plan.hpp"

std::size_t kverify_simt_mutant_workspace(const kverify::LaunchRequest& r) {
  return kverify::kernels::matmul_relu::mutants::simt_mutant_workspace(r);
}
