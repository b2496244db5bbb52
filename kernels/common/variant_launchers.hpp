// For kernels/<op>/variants.cpp: KV_DECLARE_LAUNCHER(name) declares an op's launcher for both
// backends (emu::name from <op>_emu.cpp, cuda::name from <op>_cuda.cu), and KV_LAUNCHERS(name)
// fills a Variant's two launcher fields (launch_cuda is null in a build without CUDA).
#pragma once

#include "kernels/launch_request.hpp"

#if KVERIFY_HAVE_CUDA
#define KV_DECLARE_LAUNCHER(name)             \
  namespace emu {                             \
  void name(const ::kverify::LaunchRequest&); \
  }                                           \
  namespace cuda {                            \
  void name(const ::kverify::LaunchRequest&); \
  }
#define KV_LAUNCHERS(name) .launch_emu = &emu::name, .launch_cuda = &cuda::name
#else
#define KV_DECLARE_LAUNCHER(name)             \
  namespace emu {                             \
  void name(const ::kverify::LaunchRequest&); \
  }
#define KV_LAUNCHERS(name) .launch_emu = &emu::name, .launch_cuda = nullptr
#endif
