// matmul_relu's bench baseline: cuBLASLt with its ReLU epilogue. Row-major C = relu(A B) is the
// column-major C^T = relu(B^T A^T): cuBLASLt gets m = N, n = M, k = K with B as its first operand.
// f32 with CUBLAS_COMPUTE_32F (IEEE FFMA, no TF32), f16/bf16 with f32 accumulation and scale.
#include <cublasLt.h>

#include <string>

#include "bench/device.hpp"
#include "runtime/cuda/check.hpp"

namespace kverify::ops::matmul_relu {
namespace {

using namespace kverify::bench;

void lt_check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: cublasStatus " + std::to_string(static_cast<int>(st)));
}

struct LtState {
  cublasLtHandle_t handle = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasLtMatmulHeuristicResult_t algo{};
  std::unique_ptr<DeviceMemory> workspace, out;
  float alpha = 1, beta = 0;
  ~LtState() {
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (la) cublasLtMatrixLayoutDestroy(la);
    if (lb) cublasLtMatrixLayoutDestroy(lb);
    if (lc) cublasLtMatrixLayoutDestroy(lc);
    if (desc) cublasLtMatmulDescDestroy(desc);
    if (handle) cublasLtDestroy(handle);
  }
};

}  // namespace

Baseline device_baseline(const BaselineInputs& input) {
  const DType d = input.dtype;
  const std::int64_t m = input.shape[0], n = input.shape[1], k = input.shape[2];
  const void* a = input.inputs[0];
  const void* b = input.inputs[1];
  void* stream = input.stream;
  const cudaDataType_t type = d == DType::f32 ? CUDA_R_32F : d == DType::f16 ? CUDA_R_16F : CUDA_R_16BF;
  auto st = std::make_shared<LtState>();
  st->out = std::make_unique<DeviceMemory>(static_cast<std::size_t>(m * n) * size_of(d));
  void* c = st->out->data;
  lt_check(cublasLtCreate(&st->handle), "cublasLtCreate");
  lt_check(cublasLtMatmulDescCreate(&st->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
  const cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU;
  lt_check(cublasLtMatmulDescSetAttribute(st->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi), "set epilogue");
  // Column-major: first operand B^T is N x K with ld N, second A^T is K x M with ld K, C^T N x M ld N.
  lt_check(cublasLtMatrixLayoutCreate(&st->la, type, n, k, n), "layout B");
  lt_check(cublasLtMatrixLayoutCreate(&st->lb, type, k, m, k), "layout A");
  lt_check(cublasLtMatrixLayoutCreate(&st->lc, type, n, m, n), "layout C");
  std::size_t ws = 64u << 20;
  st->workspace = std::make_unique<DeviceMemory>(ws);
  lt_check(cublasLtMatmulPreferenceCreate(&st->pref), "preference");
  lt_check(cublasLtMatmulPreferenceSetAttribute(st->pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws),
           "workspace");
  int found = 0;
  lt_check(cublasLtMatmulAlgoGetHeuristic(st->handle, st->desc, st->la, st->lb, st->lc, st->lc, st->pref, 1, &st->algo,
                                          &found),
           "cublasLtMatmulAlgoGetHeuristic");
  if (found == 0) throw std::runtime_error("cuBLASLt found no algorithm for this matmul with the ReLU epilogue");
  const char* tname = d == DType::f32   ? "f32 in/out, CUBLAS_COMPUTE_32F (no TF32)"
                      : d == DType::f16 ? "f16 in/out, CUBLAS_COMPUTE_32F"
                                        : "bf16 in/out, CUBLAS_COMPUTE_32F";
  Baseline base{
      "cuBLASLt+ReLU", std::string(tname) + ", CUBLASLT_EPILOGUE_RELU, heuristic algo #1, 64 MiB workspace", {}, st};
  auto s = static_cast<cudaStream_t>(stream);
  LtState* p = st.get();
  base.run = [=] {
    lt_check(cublasLtMatmul(p->handle, p->desc, &p->alpha, b, p->la, a, p->lb, &p->beta, c, p->lc, c, p->lc,
                            &p->algo.algo, p->workspace->data, p->workspace->bytes, s),
             "cublasLtMatmul");
  };
  return base;
}

}  // namespace kverify::ops::matmul_relu
