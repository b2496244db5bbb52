// The wgmma mutants' workspace, for their registration (WORKSPACE_FUNCTION in CMakeLists.txt).
#include "kernels/matmul_relu/mutants/wgmma_mutant_plan.hpp"

std::size_t kverify_wgmma_mutant_workspace(const kverify::LaunchRequest& r) {
  return kverify::kernels::matmul_relu::mutants::wgmma_mutant_workspace(r);
}
