// matmul_relu's bench baseline: cuBLASLt with its ReLU epilogue. Row-major C = relu(A B) is the
// column-major C^T = relu(B^T A^T): cuBLASLt gets m = N, n = M, k = K with B as its first operand.
// f32 with CUBLAS_COMPUTE_32F (IEEE FFMA, no TF32), f16/bf16 with f32 accumulation and scale.
#include <cublasLt.h>
#include <dlfcn.h>

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

// cuBLASLt is opened when this baseline first runs, not linked: loading it costs every process
// about 0.1 s and 200 MiB of page faults in its initializers, and all but `bench` on cuda never
// call it (the CLI starts hundreds of times in CI, a child per variant and per mutant).
// KV_CUBLASLT_SONAME is the toolkit's soname (bench/CMakeLists.txt); the binary's RUNPATH names
// the toolkit's library folder, which dlopen searches like the linker would.
struct LtLibrary {
  void* handle = dlopen(KV_CUBLASLT_SONAME, RTLD_NOW | RTLD_LOCAL);
  decltype(&::cublasLtCreate) cublasLtCreate = load<decltype(cublasLtCreate)>("cublasLtCreate");
  decltype(&::cublasLtDestroy) cublasLtDestroy = load<decltype(cublasLtDestroy)>("cublasLtDestroy");
  decltype(&::cublasLtMatmul) cublasLtMatmul = load<decltype(cublasLtMatmul)>("cublasLtMatmul");
  decltype(&::cublasLtMatmulAlgoGetHeuristic) cublasLtMatmulAlgoGetHeuristic =
      load<decltype(cublasLtMatmulAlgoGetHeuristic)>("cublasLtMatmulAlgoGetHeuristic");
  decltype(&::cublasLtMatmulDescCreate) cublasLtMatmulDescCreate =
      load<decltype(cublasLtMatmulDescCreate)>("cublasLtMatmulDescCreate");
  decltype(&::cublasLtMatmulDescDestroy) cublasLtMatmulDescDestroy =
      load<decltype(cublasLtMatmulDescDestroy)>("cublasLtMatmulDescDestroy");
  decltype(&::cublasLtMatmulDescSetAttribute) cublasLtMatmulDescSetAttribute =
      load<decltype(cublasLtMatmulDescSetAttribute)>("cublasLtMatmulDescSetAttribute");
  decltype(&::cublasLtMatmulPreferenceCreate) cublasLtMatmulPreferenceCreate =
      load<decltype(cublasLtMatmulPreferenceCreate)>("cublasLtMatmulPreferenceCreate");
  decltype(&::cublasLtMatmulPreferenceDestroy) cublasLtMatmulPreferenceDestroy =
      load<decltype(cublasLtMatmulPreferenceDestroy)>("cublasLtMatmulPreferenceDestroy");
  decltype(&::cublasLtMatmulPreferenceSetAttribute) cublasLtMatmulPreferenceSetAttribute =
      load<decltype(cublasLtMatmulPreferenceSetAttribute)>("cublasLtMatmulPreferenceSetAttribute");
  decltype(&::cublasLtMatrixLayoutCreate) cublasLtMatrixLayoutCreate =
      load<decltype(cublasLtMatrixLayoutCreate)>("cublasLtMatrixLayoutCreate");
  decltype(&::cublasLtMatrixLayoutDestroy) cublasLtMatrixLayoutDestroy =
      load<decltype(cublasLtMatrixLayoutDestroy)>("cublasLtMatrixLayoutDestroy");

  template <class Function>
  Function load(const char* name) const {
    if (!handle)
      throw std::runtime_error(
          std::string("cuBLASLt (" KV_CUBLASLT_SONAME ") could not be loaded for the matmul_relu baseline: ") +
          dlerror() + "; the CUDA toolkit's library folder must be on the loader's search path");
    void* symbol = dlsym(handle, name);
    if (!symbol)
      throw std::runtime_error(std::string(KV_CUBLASLT_SONAME " has no ") + name + " (another toolkit version?)");
    return reinterpret_cast<Function>(symbol);
  }
};
// Opened once and kept to the process's end (its handles live in LtStates of the bench's rows).
const LtLibrary& lt() {
  static const LtLibrary library;
  return library;
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
    if (pref) lt().cublasLtMatmulPreferenceDestroy(pref);
    if (la) lt().cublasLtMatrixLayoutDestroy(la);
    if (lb) lt().cublasLtMatrixLayoutDestroy(lb);
    if (lc) lt().cublasLtMatrixLayoutDestroy(lc);
    if (desc) lt().cublasLtMatmulDescDestroy(desc);
    if (handle) lt().cublasLtDestroy(handle);
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
  lt_check(lt().cublasLtCreate(&st->handle), "cublasLtCreate");
  lt_check(lt().cublasLtMatmulDescCreate(&st->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
  const cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU;
  lt_check(lt().cublasLtMatmulDescSetAttribute(st->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi),
           "set epilogue");
  // Column-major: first operand B^T is N x K with ld N, second A^T is K x M with ld K, C^T N x M ld N.
  lt_check(lt().cublasLtMatrixLayoutCreate(&st->la, type, n, k, n), "layout B");
  lt_check(lt().cublasLtMatrixLayoutCreate(&st->lb, type, k, m, k), "layout A");
  lt_check(lt().cublasLtMatrixLayoutCreate(&st->lc, type, n, m, n), "layout C");
  std::size_t ws = 64u << 20;
  st->workspace = std::make_unique<DeviceMemory>(ws);
  lt_check(lt().cublasLtMatmulPreferenceCreate(&st->pref), "preference");
  lt_check(
      lt().cublasLtMatmulPreferenceSetAttribute(st->pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws),
      "workspace");
  int found = 0;
  lt_check(lt().cublasLtMatmulAlgoGetHeuristic(st->handle, st->desc, st->la, st->lb, st->lc, st->lc, st->pref, 1,
                                               &st->algo, &found),
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
    lt_check(lt().cublasLtMatmul(p->handle, p->desc, &p->alpha, b, p->la, a, p->lb, &p->beta, c, p->lc, c, p->lc,
                                 &p->algo.algo, p->workspace->data, p->workspace->bytes, s),
             "cublasLtMatmul");
  };
  return base;
}

}  // namespace kverify::ops::matmul_relu
