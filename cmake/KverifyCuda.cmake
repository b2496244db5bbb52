# The CUDA language as kverify compiles it (nvcc, C++20, sm_90 unless the caller chose, the static
# runtime), for kverify's build and for a project using kverify as a package. Sets
# KVERIFY_HAVE_CUDA: whether this project compiles CUDA.
include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
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
