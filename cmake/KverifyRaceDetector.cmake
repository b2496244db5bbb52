# The emu race detector's instrumentation (runtime/emu/detectors/race_detector.hpp says what it reports).
#
# The kernels' TUs get the compiler's memory-access instrumentation without its runtime, so that
# every load and store calls the detector:
#   main tree (plain flavor): -fsanitize=thread (GCC and clang) without a runtime: a call per load,
#     per store and per atomic, each with its kind; the asan and tsan flavors have sanitizer runtimes
#     of their own and keep their kernels uninstrumented (the detector says it is off there);
#   fuzz tree: SanitizerCoverage's load/store tracing, which composes with ASan and libFuzzer.
# kv_emu defines the matching entry points (KVERIFY_EMU_RACE_HOOKS_*).

option(KVERIFY_EMU_RACE_DETECTOR "emu: instrument the kernels for the race detector (OFF: no calls per access at all)" ON)

if(NOT KVERIFY_EMU_RACE_DETECTOR)
  set(KV_RACE_HOOKS "")
  set(KV_RACE_FLAGS "")
elseif(KVERIFY_FUZZ)
  set(KV_RACE_HOOKS SANCOV)
  # On top of the coverage the kernels already get (fuzzer-no-link, or the engine's own flags).
  set(KV_RACE_FLAGS -fsanitize-coverage=trace-loads,trace-stores)
elseif(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  # ThreadSanitizer's instrumentation without its runtime: a call per load and per store, each with
  # its kind, and atomics as calls. AddressSanitizer's, used before, checks an address once per
  # basic block, so the store of a read-modify-write (`s[0] += s[1]`, `acc[row] += partial`) never
  # reached the detector. Function entry/exit hooks are left out (the detector locates an access by
  # its return address); the macro is undefined so that headers do not take the program for one
  # running under TSan.
  # With them, the alignment check of UndefinedBehaviorSanitizer, also runtime-less: an access
  # through a typed pointer at an address its type's alignment does not divide (a float4 at a
  # 4-byte address) calls kv_emu, which fails the launch as the GPU does (runtime/emu/detectors/alignment_check.cpp).
  set(KV_RACE_HOOKS TSAN_CALLS)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(KV_RACE_FLAGS -fsanitize=thread --param=tsan-instrument-func-entry-exit=0 -U__SANITIZE_THREAD__ -Wno-tsan
                      -fsanitize=alignment)
  else()
    # clang drops the read of a read-then-write of one address unless told to keep it.
    set(KV_RACE_FLAGS -fsanitize=thread -mllvm -tsan-instrument-func-entry-exit=0
                      -mllvm -tsan-instrument-read-before-write=1 -fsanitize=alignment)
  endif()
else()
  set(KV_RACE_HOOKS "")
  set(KV_RACE_FLAGS "")
  message(STATUS "kverify: the emu race detector needs GCC or clang; it is off in this build")
endif()

# kv_emu_race_instrument(target...): the detector sees these targets' kernel code (plain flavor
# targets only: a name ending in _asan or _tsan is skipped).
function(kv_emu_race_instrument)
  foreach(t IN LISTS ARGN)
    if(TARGET ${t} AND KV_RACE_FLAGS AND NOT t MATCHES "_(asan|tsan)$")
      target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${KV_RACE_FLAGS}>)
    endif()
  endforeach()
endfunction()

# The runtime side: the entry points in kv_emu (plain flavor).
function(kv_emu_race_hooks target)
  if(TARGET ${target} AND KV_RACE_HOOKS)
    target_compile_definitions(${target} PRIVATE KVERIFY_EMU_RACE_HOOKS_${KV_RACE_HOOKS}=1)
  elseif(TARGET ${target} AND NOT KVERIFY_EMU_RACE_DETECTOR)
    target_compile_definitions(${target} PRIVATE KVERIFY_EMU_RACE_DETECTOR_BUILT_OFF=1)
  endif()
endfunction()
