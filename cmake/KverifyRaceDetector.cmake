# The emu race detector's instrumentation (runtime/emu/race_detector.hpp says what it reports).
#
# The kernels' TUs get the compiler's memory-access instrumentation without its runtime, so that
# every load and store calls the detector:
#   main tree (plain flavor): -fsanitize=kernel-address (GCC and clang) without a runtime, inline
#     checks of a shadow the detector maps (x86-64) or a call per access, stack and globals left alone; the asan and tsan flavors have sanitizer runtimes of their own and
#     keep their kernels uninstrumented (the detector says it is off there);
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
  set(KV_RACE_HOOKS ASAN_CALLS)
  # x86-64: inline checks of AddressSanitizer's shadow layout, which the detector maps and marks
  # on watched memory only (race_detector.cpp), so an access elsewhere costs a load and a compare.
  # Elsewhere: a call per access.
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(KV_RACE_SHADOW_OFFSET 0x7fff8000)
    set(_threshold 1000000000)
  else()
    set(KV_RACE_SHADOW_OFFSET "")
    set(_threshold 0)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(KV_RACE_FLAGS -fsanitize=kernel-address --param=asan-instrumentation-with-call-threshold=${_threshold}
                      --param=asan-stack=0 --param=asan-globals=0 -U__SANITIZE_ADDRESS__)
    if(KV_RACE_SHADOW_OFFSET)
      list(APPEND KV_RACE_FLAGS -fasan-shadow-offset=${KV_RACE_SHADOW_OFFSET})
    endif()
  else()
    set(KV_RACE_FLAGS -fsanitize=kernel-address -mllvm -asan-instrumentation-with-call-threshold=${_threshold}
                      -mllvm -asan-stack=0 -mllvm -asan-globals=0)
    if(KV_RACE_SHADOW_OFFSET)
      list(APPEND KV_RACE_FLAGS -mllvm -asan-mapping-offset=${KV_RACE_SHADOW_OFFSET})
    endif()
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
    if(KV_RACE_SHADOW_OFFSET)
      target_compile_definitions(${target} PRIVATE KVERIFY_EMU_RACE_SHADOW_OFFSET=${KV_RACE_SHADOW_OFFSET})
    endif()
  elseif(TARGET ${target} AND NOT KVERIFY_EMU_RACE_DETECTOR)
    target_compile_definitions(${target} PRIVATE KVERIFY_EMU_RACE_DETECTOR_BUILT_OFF=1)
  endif()
endfunction()
