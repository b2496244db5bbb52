// What a rewritten `<<<>>>` launch expands to on emu (runtime/emu/rewrite/ writes the
// rewrite and includes this header first in every file it rewrites).
//
//   kernel<<<grid, block, shmem, stream>>>(args...)
//   becomes
//   KVERIFY_EMU_LAUNCH((kernel), (grid, block, shmem, stream))(args...)
//
// The configuration is evaluated first, then the arguments, once each, as CUDA does. The launch
// is handed to KVERIFY_EMU_LAUNCH_TARGET(kernel_pointer, grid, block, shmem, stream, args...),
// with shmem 0 and stream nullptr where the launch leaves them out. The configuration stays one
// parenthesised list, so one written through a macro (`<<<CONFIG>>>` with
// `#define CONFIG grid, block`) still counts its arguments after expansion.
//
// The kernel expression may name a kernel, a specialisation (`k<T, 4>`), a qualified name, a
// function pointer variable, a member or an array element: it reaches the target as that
// pointer. A kernel template whose arguments CUDA deduces from the call (`k<<<g, b>>>(ptr)` for
// `template <class T> __global__ void k(const T*)`) has no pointer until the call is seen, and a
// launch that leaves default arguments out passes fewer arguments than the pointer takes; both
// reach the target as a pointer to a thunk taking the decayed argument types, which calls the
// kernel by name in each thread, so deduction, defaults and conversions are the call's own.
#pragma once

#include <bit>
#include <cstddef>
#include <stdexcept>
#include <type_traits>

// What nvcc makes visible to every .cu without an include (cuda_runtime.h: qualifiers, built-in
// variables, vector types, the runtime API) and the launch target below.
#include "runtime/emu/model/cuda_model.hpp"

// The one place that names what a rewritten launch calls:
//   f(void (*kernel)(Params...), grid, block, std::size_t shmem, stream, Args&&... args)
// grid and block are as written (dim3 or integers); the target converts them.
#ifndef KVERIFY_EMU_LAUNCH_TARGET
#define KVERIFY_EMU_LAUNCH_TARGET ::kverify::emu::launch_kernel
#endif

namespace kverify::emu::launch_syntax {

template <class Grid, class Block, class Shmem, class Stream>
struct Config {
  Grid grid;
  Block block;
  Shmem shmem;
  Stream stream;
};

// CUDA's two to four launch parameters. A stream written as the integer 0 (`<<<g, b, 0, 0>>>`,
// the default stream) reaches the target as nullptr: an int variable would not convert to
// cudaStream_t, the literal 0 does.
template <class Grid, class Block, class Shmem = std::size_t, class Stream = std::nullptr_t>
auto make_config(Grid grid, Block block, Shmem shmem = 0, Stream stream = nullptr) {
  if constexpr (std::is_integral_v<Stream>) {
    if (stream != 0) throw std::invalid_argument("a <<<>>> launch's stream is a cudaStream_t or 0");
    return Config<Grid, Block, Shmem, std::nullptr_t>{grid, block, shmem, nullptr};
  } else {
    return Config<Grid, Block, Shmem, Stream>{grid, block, shmem, stream};
  }
}

// The argument types of a launch: makes the pointer_of test below depend on the launch, so that
// a kernel expression with no single pointer (a template to deduce) fails it softly.
template <class... Args>
struct Tag {};

// The kernel's pointer when the expression names one kernel taking as many parameters as the
// launch passes arguments (a kernel whose default arguments fill the rest goes by name, below).
template <class... Params, class... Args>
requires(sizeof...(Params) == sizeof...(Args)) auto pointer_of(void (*kernel)(Params...), Tag<Args...>)
    -> void (*)(Params...) {
  return kernel;
}

// The thunk for a deduced kernel template. Call is a lambda that names the template and
// captures nothing (a function name is not captured), so any object of its type is the same
// callable; it is made from no bytes rather than stored, and the pointer stays valid for as long
// as the launch target keeps it.
template <class Call, class... Params>
void call_by_name(Params... params) {
  static_assert(std::is_empty_v<Call> && std::is_trivially_copyable_v<Call>,
                "emu launch: a deduced kernel template must be named without local state");
  struct NoBytes {
    unsigned char unused[sizeof(Call)];
  };
  std::bit_cast<Call>(NoBytes{})(params...);
}

template <class C, class F>
struct Pending {
  C config;
  F launch;
  template <class... Args>
  void operator()(Args&&... args) {
    launch(config, static_cast<Args&&>(args)...);
  }
};

template <class C, class F>
Pending<C, F> make_pending(C config, F launch) {
  return {config, launch};
}

}  // namespace kverify::emu::launch_syntax

#define KVERIFY_EMU_LAUNCH(kernel, config)                                                                        \
  ::kverify::emu::launch_syntax::make_pending(                                                                    \
      ::kverify::emu::launch_syntax::make_config config, [&](auto kv_emu_config, auto&&... kv_emu_args) -> void { \
        using kv_emu_tag = ::kverify::emu::launch_syntax::Tag<decltype(kv_emu_args)...>;                          \
        if constexpr (requires { ::kverify::emu::launch_syntax::pointer_of(kernel, kv_emu_tag{}); }) {            \
          KVERIFY_EMU_LAUNCH_TARGET(::kverify::emu::launch_syntax::pointer_of(kernel, kv_emu_tag{}),              \
                                    kv_emu_config.grid, kv_emu_config.block, kv_emu_config.shmem,                 \
                                    kv_emu_config.stream, static_cast<decltype(kv_emu_args)&&>(kv_emu_args)...);  \
        } else {                                                                                                  \
          auto kv_emu_call = [&](auto&... kv_emu_params) { kernel(kv_emu_params...); };                           \
          KVERIFY_EMU_LAUNCH_TARGET(                                                                              \
              &::kverify::emu::launch_syntax::call_by_name<decltype(kv_emu_call),                                 \
                                                           std::decay_t<decltype(kv_emu_args)>...>,               \
              kv_emu_config.grid, kv_emu_config.block, kv_emu_config.shmem, kv_emu_config.stream,                 \
              static_cast<decltype(kv_emu_args)&&>(kv_emu_args)...);                                              \
        }                                                                                                         \
      })
