#include "pipeline/execute.hpp"

#include <algorithm>
#include <atomic>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "runtime/emu/detectors/race_detector.hpp"
#include "runtime/emu/model/streams.hpp"

#if KVERIFY_HAVE_CUDA
#include <cuda_runtime.h>

#include "runtime/cuda/check.hpp"
#include "runtime/cuda/device.hpp"
#endif

namespace kverify {

bool backend_available(Backend b, std::string* why_not) {
  if (b != Backend::cuda) return true;
#if KVERIFY_HAVE_CUDA
  const auto& status = cuda::device_status();
  if (!status.available && why_not) *why_not = status.reason;
  return status.available;
#else
  if (why_not) *why_not = "this build of kverify has no cuda backend (configured without a CUDA compiler)";
  return false;
#endif
}

int cuda_device_count() {
#if KVERIFY_HAVE_CUDA
  return cuda::device_status().device_count;
#else
  return 0;
#endif
}

bool device_context_lost(Backend b, std::string* why) {
#if KVERIFY_HAVE_CUDA
  if (b != Backend::cuda || !cuda::device_status().available) return false;
  (void)cudaGetLastError();  // clears a non-sticky error (e.g. a bad launch configuration)
  const cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) return false;
  if (why) *why = std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
  return true;
#else
  (void)b;
  (void)why;
  return false;
#endif
}

Backend resolve_backend(Backend requested) {
  if (requested != Backend::automatic) return requested;
  return backend_available(Backend::cuda, nullptr) ? Backend::cuda : Backend::emu;
}

LaunchRequest launch_request_of(const Case& c, Backend backend) {
  LaunchRequest r;
  r.dtype = c.dtype;
  r.shape = c.shape;
  for (std::size_t p = 0; p < c.op->params.size(); ++p) {
    r.params.push_back(c.param(static_cast<int>(p)));
    r.param_names.push_back(c.op->params[p].name);
  }
  for (const auto& d : c.op->dims) r.dim_names.push_back(d.name);
  r.schedule_seed = backend == Backend::emu ? c.schedule : 0;
  return r;
}

namespace {
std::atomic<int> g_cases_at_once{0};
}  // namespace
CasesAtOnce::CasesAtOnce() { ++g_cases_at_once; }
CasesAtOnce::~CasesAtOnce() { --g_cases_at_once; }
bool CasesAtOnce::active() { return g_cases_at_once.load() > 0; }

std::string launch_on_device(const Variant& variant, LaunchRequest& request) {
#if KVERIFY_HAVE_CUDA
  std::unique_ptr<cuda::DeviceBuffer> workspace;
  if (const std::size_t bytes = variant.workspace_bytes ? variant.workspace_bytes(request) : 0; bytes > 0) {
    workspace = std::make_unique<cuda::DeviceBuffer>(bytes);
    // Unwritten scratch reads as NaN, as on emu; under compute-sanitizer initcheck the fill is left
    // out (KVERIFY_UNFILLED_WORKSPACE=1, set by `kverify check --sanitize initcheck`) so that a read
    // of scratch that was never written is reported instead of hidden.
    if (!std::getenv("KVERIFY_UNFILLED_WORKSPACE")) workspace->fill(0xff);
    request.workspace = workspace->data();
  }
  const std::string kernel(variant.name);
  cuda::synchronize(("the inputs and scratch of " + kernel).c_str());  // the given stream waits for nothing
  struct GivenStream {  // the launcher's stream, gone with the request's pointers however the launch ends
    LaunchRequest& request;
    ~GivenStream() {
      if (request.stream) cudaStreamDestroy(static_cast<cudaStream_t>(request.stream));
      request.stream = nullptr;
      request.workspace = nullptr;
    }
  } given_stream{request};
  cudaStream_t given = nullptr;
  if (variant.takes_stream)
    cuda::check(cudaStreamCreateWithFlags(&given, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  request.stream = given;
  std::string left;
  variant.launch_cuda(request);
  cuda::check_launch(kernel.c_str());  // a refused <<<>>> the launcher did not check
  if (given) {
    cuda::check(cudaStreamSynchronize(given), ("synchronize the stream given to " + kernel).c_str());
    if (!CasesAtOnce::active())
      for (const auto& [stream, which] : {std::pair{cudaStreamLegacy, "the legacy default stream"},
                                          std::pair{cudaStreamPerThread, "the per-thread default stream"}})
        if (cudaStreamQuery(stream) == cudaErrorNotReady && left.empty())
          left = std::string(which) + " still had work when the stream the launcher was given had finished";
  }
  cuda::synchronize(kernel.c_str());
  return left;
#else
  (void)variant;
  (void)request;
  throw std::runtime_error("this build of kverify has no cuda backend");
#endif
}

namespace {
// The bytes of an image a kernel may read: its elements. A dense layout is one range; one with gaps
// a bit per element slot, or (far strides, few elements over a wide span) the sorted slots.
std::shared_ptr<const emu::race::ElementSlots> element_slots_of(GuardedImage& image) {
  const Layout& l = image.layout();
  auto e = std::make_shared<emu::race::ElementSlots>();
  e->origin = reinterpret_cast<std::uintptr_t>(image.element(0, 0));
  e->slot_bytes = size_of(image.dtype());
  const std::int64_t elements = l.elements();
  e->slots = static_cast<std::uint64_t>(l.footprint() - l.offset);
  if (static_cast<std::uint64_t>(elements) == e->slots) return e;
  const bool sparse = e->slots / 64 > static_cast<std::uint64_t>(elements);
  if (!sparse) e->bits.assign((e->slots + 63) / 64, 0);
  for (std::int64_t r = 0; r < l.rows(); ++r)
    for (std::int64_t col = 0; col < l.cols(); ++col) {
      const auto slot = static_cast<std::uint64_t>(l.index(r, col) - l.offset);
      if (sparse)
        e->sorted.push_back(slot);
      else
        e->bits[slot / 64] |= std::uint64_t{1} << (slot % 64);
    }
  std::sort(e->sorted.begin(), e->sorted.end());
  return e;
}
}  // namespace

std::string execute(Backend backend, const Variant& variant, const Case& c, std::vector<GuardedImage>& images) {
  LaunchRequest request = launch_request_of(c, backend);
  if (backend == Backend::emu) {
    if (variant.takes_stream) request.stream = emu::caller_stream();  // the run's own (run_case.cpp), if any
    // emu's device memory is the images themselves, watched by the race detector while they are.
    std::vector<std::unique_ptr<emu::race::GlobalRegion>> watched;
    for (auto& image : images) {
      request.tensors.push_back(DeviceTensor::of(image.element(0, 0), image.layout(), image.dtype(),
                                                 c.op->tensors[request.tensors.size()].name));
      const auto elements = emu::race::enabled() ? element_slots_of(image) : nullptr;
      for (const auto& s : image.segments())  // a far layout's mapped pages, or the whole image
        watched.push_back(std::make_unique<emu::race::GlobalRegion>(image.data() + s.begin, s.end - s.begin,
                                                                    "tensor " + image.name(), elements));
    }
    std::vector<unsigned char> workspace(variant.workspace_bytes ? variant.workspace_bytes(request) : 0, 0xff);
    request.workspace = workspace.empty() ? nullptr : workspace.data();
    if (!workspace.empty())
      watched.push_back(std::make_unique<emu::race::GlobalRegion>(workspace.data(), workspace.size(), "the workspace"));
    launch_on_emu(variant.launch_emu, request);
    return {};
  }
#if KVERIFY_HAVE_CUDA
  std::vector<std::unique_ptr<cuda::DeviceBuffer>> buffers;
  std::vector<std::unique_ptr<cuda::SparseDeviceBuffer>> sparse_buffers;
  for (auto& image : images) {
    void* device = nullptr;
    if (image.sparse()) {  // a far layout: only its mapped pages exist on the device too
      std::vector<cuda::SparseDeviceBuffer::Range> mapped;
      for (const auto& s : image.segments()) mapped.push_back({s.begin, s.end});
      sparse_buffers.push_back(std::make_unique<cuda::SparseDeviceBuffer>(image.bytes(), mapped));
      sparse_buffers.back()->upload(image.data());
      buffers.push_back(nullptr);
      device = sparse_buffers.back()->data();
    } else {
      buffers.push_back(std::make_unique<cuda::DeviceBuffer>(image.bytes()));
      buffers.back()->upload(image.data());
      sparse_buffers.push_back(nullptr);
      device = buffers.back()->data();
    }
    const std::size_t first = static_cast<std::size_t>(image.element(0, 0) - image.data());
    request.tensors.push_back(DeviceTensor::of(static_cast<unsigned char*>(device) + first, image.layout(),
                                               image.dtype(), c.op->tensors[request.tensors.size()].name));
  }
  const std::string left = launch_on_device(variant, request);
  for (std::size_t i = 0; i < images.size(); ++i)
    buffers[i] ? buffers[i]->download(images[i].data()) : sparse_buffers[i]->download(images[i].data());
  return left;
#else
  throw std::runtime_error("this build of kverify has no cuda backend");
#endif
}

}  // namespace kverify
