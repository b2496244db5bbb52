# The fuzz tree (KVERIFY_FUZZ=ON). Two ways to configure it:
#
#   here, preset fuzz (build-fuzz/): clang-14; every C++ file with ASan + UBSan; libFuzzer's
#     coverage (-fsanitize=fuzzer-no-link) on the code whose behaviour the fuzzer should explore:
#     the kernels (compiled into the emu launchers), the emu runtime, core (the Case parser and the
#     value recipes) and fuzz/ itself (the decoder and the harness); the targets link libFuzzer.
#   OSS-Fuzz / ClusterFuzzLite (fuzz/build.sh): the engine's $CFLAGS/$CXXFLAGS already carry the
#     sanitizer and coverage flags for every file, and KVERIFY_FUZZ_ENGINE=$LIB_FUZZING_ENGINE links
#     the engine; nothing is added here.
#
# nvcc-compiled code (the fuzz-gpu preset) gets neither: no coverage of device code is needed, the
# host side (decoder, pipeline, references) still guides the fuzzer.

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "kverify: KVERIFY_FUZZ needs clang (libFuzzer); configure with `cmake --preset fuzz`")
endif()

# clang 14 with libstdc++ 12 has no std::source_location (it needs clang 15's
# __builtin_source_location); the emu runtime uses it: give the compiler a stand-in.
include(CheckCXXSourceCompiles)
check_cxx_source_compiles("#include <source_location>
int main() { return static_cast<int>(std::source_location::current().line()); }" KV_HAVE_SOURCE_LOCATION)
if(NOT KV_HAVE_SOURCE_LOCATION)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-include${PROJECT_SOURCE_DIR}/fuzz/compat/source_location.hpp>)
endif()

set(KVERIFY_FUZZ_ENGINE "" CACHE STRING
  "Link flags of the fuzzing engine (OSS-Fuzz: $LIB_FUZZING_ENGINE). Empty: -fsanitize=fuzzer, with kverify's own sanitizer and coverage flags")

if(KVERIFY_FUZZ_ENGINE STREQUAL "")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=address,undefined)
  set(KV_FUZZ_COVERAGE -fsanitize=fuzzer-no-link)
  set(KV_FUZZ_LINK_ENGINE -fsanitize=fuzzer)
else()
  set(KV_FUZZ_COVERAGE "")
  separate_arguments(KV_FUZZ_LINK_ENGINE UNIX_COMMAND "${KVERIFY_FUZZ_ENGINE}")
endif()

# kv_fuzz_coverage(target...): libFuzzer coverage for these targets' C++ sources.
function(kv_fuzz_coverage)
  foreach(t IN LISTS ARGN)
    if(TARGET ${t} AND KV_FUZZ_COVERAGE)
      target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${KV_FUZZ_COVERAGE}>)
    endif()
  endforeach()
endfunction()
