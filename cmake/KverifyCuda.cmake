# The CUDA language as kverify compiles it (nvcc, C++20, sm_90 unless the caller chose, the static
# runtime), for kverify's build and for a project using kverify as a package. Sets
# KVERIFY_HAVE_CUDA: whether this project compiles CUDA.
#
# KVERIFY_CUDA_PTX_ONLY: device code as PTX alone (CMake's "<arch>-virtual"): nvcc's front end and
# cicc still compile every kernel, so what nvcc refuses fails the build, but ptxas does not run, and
# a GPU that loads the binary compiles the PTX in its driver (slower to start; the driver's
# compiler, not this toolkit's ptxas, so `kverify bench` names it). ./kverify sets it for build/ on
# a machine where nvidia-smi lists no GPU (CI), where no device code can run: ptxas is about a
# quarter of nvcc's time.
option(KVERIFY_CUDA_PTX_ONLY "device code as PTX only: no ptxas (./kverify sets it where no GPU is visible)" OFF)

# The CUDA_ARCHITECTURES value for `arch` (90, 90a): PTX only under KVERIFY_CUDA_PTX_ONLY.
function(kverify_cuda_architecture out arch)
  if(KVERIFY_CUDA_PTX_ONLY AND NOT arch MATCHES "-(virtual|real)$")
    set(arch "${arch}-virtual")
  endif()
  set(${out} "${arch}" PARENT_SCOPE)
endfunction()

include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  if(KVERIFY_CUDA_PTX_ONLY)
    set(_kv_architectures "")
    foreach(_kv_arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
      kverify_cuda_architecture(_kv_arch "${_kv_arch}")
      list(APPEND _kv_architectures "${_kv_arch}")
    endforeach()
    set(CMAKE_CUDA_ARCHITECTURES "${_kv_architectures}")
    message(STATUS "kverify: device code as PTX only (KVERIFY_CUDA_PTX_ONLY): ${CMAKE_CUDA_ARCHITECTURES}")
  endif()
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
  enable_language(CUDA)
  # CMake 3.25 does not know nvcc's C++20 flag; nvcc 13 has it.
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  string(APPEND CMAKE_CUDA_FLAGS " --expt-relaxed-constexpr")
  find_package(CUDAToolkit REQUIRED)
  set(KVERIFY_HAVE_CUDA ON)
else()
  message(WARNING "kverify: no CUDA compiler found; building without the cuda backend (emu only)")
  set(KVERIFY_HAVE_CUDA OFF)
endif()
