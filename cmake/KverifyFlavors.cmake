# Sanitizer flavors. The emu runtime and its tests are built several times from the same sources:
#   plain - what the CLI and the fast tests use
#   asan  - AddressSanitizer + UndefinedBehaviorSanitizer (the fiber switches are annotated)
#   tsan  - ThreadSanitizer with fiber annotations (barriers release/acquire)
# A dependency that is itself a kv library is taken in the same flavor.

include(GoogleTest)

function(_kv_flavor_name out base flavor)
  if(flavor STREQUAL "plain")
    set(${out} ${base} PARENT_SCOPE)
  else()
    set(${out} ${base}_${flavor} PARENT_SCOPE)
  endif()
endfunction()

function(_kv_apply_flavor target flavor)
  if(flavor STREQUAL "asan")
    # -O1 -g1 after the build type's flags: ASan's own advice (-O1) and line tables for its stack
    # traces build this flavor 2.4x faster than -O2 -g, the largest part of CI's build.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined>)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  elseif(flavor STREQUAL "tsan")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=thread -fno-omit-frame-pointer>)
    target_link_options(${target} PUBLIC -fsanitize=thread)
  endif()
endfunction()

function(_kv_flavored_deps out flavor)
  set(result "")
  get_property(kv_libs GLOBAL PROPERTY KV_LIBRARIES)
  foreach(dep IN LISTS ARGN)
    if(dep IN_LIST kv_libs)
      _kv_flavor_name(name ${dep} ${flavor})
      list(APPEND result ${name})
    else()
      list(APPEND result ${dep})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# kv_library(NAME SOURCES ... [DEPS ...] [FLAVORS ...])  default flavors: plain only
function(kv_library name)
  cmake_parse_arguments(KV "" "" "SOURCES;DEPS;FLAVORS" ${ARGN})
  if(NOT KV_FLAVORS)
    set(KV_FLAVORS plain)
  endif()
  set_property(GLOBAL APPEND PROPERTY KV_LIBRARIES ${name})
  foreach(flavor IN LISTS KV_FLAVORS)
    if(NOT flavor STREQUAL "plain" AND NOT KVERIFY_SANITIZER_FLAVORS)
      continue()
    endif()
    _kv_flavor_name(target ${name} ${flavor})
    add_library(${target} STATIC ${KV_SOURCES})
    target_include_directories(${target} PUBLIC ${KV_PUBLIC_INCLUDES})
    _kv_flavored_deps(deps ${flavor} ${KV_DEPS})
    target_link_libraries(${target} PUBLIC ${deps})
    _kv_apply_flavor(${target} ${flavor})
  endforeach()
endfunction()

# kv_executable(NAME SOURCES ... [DEPS ...] [FLAVORS ...])
function(kv_executable name)
  cmake_parse_arguments(KV "" "" "SOURCES;DEPS;FLAVORS" ${ARGN})
  if(NOT KV_FLAVORS)
    set(KV_FLAVORS plain)
  endif()
  foreach(flavor IN LISTS KV_FLAVORS)
    if(NOT flavor STREQUAL "plain" AND NOT KVERIFY_SANITIZER_FLAVORS)
      continue()
    endif()
    _kv_flavor_name(target ${name} ${flavor})
    add_executable(${target} ${KV_SOURCES})
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
    _kv_flavored_deps(deps ${flavor} ${KV_DEPS})
    target_link_libraries(${target} PRIVATE ${deps})
    _kv_apply_flavor(${target} ${flavor})
    if(flavor STREQUAL "asan")
      target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/sanitizer_defaults.cpp)
    endif()
    if(KVERIFY_STATIC)
      target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
    endif()
  endforeach()
endfunction()

# kv_gtest_from_fuzz_tree(NAME): the suite NAME (a kv_gtest of the calling folder) under ASan+UBSan,
# as the fuzz tree (KVERIFY_FUZZ_TREE) builds it. That tree already compiles core, the kernels and
# the pipeline with ASan+UBSan for its targets; an asan flavor of a suite that links them compiled
# them a third time here (a sixth of CI's build). The fuzz tree builds such suites with its target
# kverify_fuzz_tree_suites (./kverify test does, before ctest); build/'s ctest lists their cases as
# asan:<case>, or, while the binary is missing, one skipped entry that says how to build it.
function(kv_gtest_from_fuzz_tree name)
  if(KVERIFY_FUZZ)
    if(NOT TARGET kverify_fuzz_tree_suites)
      add_custom_target(kverify_fuzz_tree_suites)
    endif()
    add_dependencies(kverify_fuzz_tree_suites ${name})
    return()
  endif()
  if(NOT KVERIFY_SANITIZER_FLAVORS)
    return()
  endif()
  file(RELATIVE_PATH folder ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR})
  set(binary "${KVERIFY_FUZZ_TREE}/${folder}/${name}")
  add_executable(${name}_asan IMPORTED)
  set_target_properties(${name}_asan PROPERTIES IMPORTED_LOCATION "${binary}")
  gtest_discover_tests(${name}_asan DISCOVERY_MODE PRE_TEST TEST_PREFIX "asan:" PROPERTIES LABELS asan)
  # gtest_discover_tests adds a failing ${name}_asan_NOT_BUILT entry for a missing binary: a test
  # that never ran is reported as skipped, with the reason, instead.
  set(not_built ${CMAKE_CURRENT_BINARY_DIR}/${name}_asan_not_built.cmake)
  file(WRITE ${not_built} "if(NOT EXISTS [==[${binary}]==])
  set_tests_properties(${name}_asan_NOT_BUILT PROPERTIES DISABLED TRUE)
  add_test(asan:${name} /bin/sh -c [==[echo '${binary} is not built: ./kverify test builds the fuzz tree and its suites (cmake --build ${KVERIFY_FUZZ_TREE} --target kverify_fuzz_tree_suites)'; exit 3]==])
  set_tests_properties(asan:${name} PROPERTIES SKIP_RETURN_CODE 3 LABELS asan)
endif()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${not_built})
endfunction()

# Under `./kverify test --gpus` (ctest --resource-spec-file, tools/gpu_resource_spec.sh) a test of a
# build with CUDA takes one slot of one GPU, and runtime/cuda/device.cpp pins the test's process
# there (CUDA_VISIBLE_DEVICES); without a resource spec ctest ignores the property.
if(KVERIFY_HAVE_CUDA)
  set(KV_GPU_RESOURCE RESOURCE_GROUPS "gpus:1")
else()
  set(KV_GPU_RESOURCE "")
endif()
# kv_gpu_tests(NAME...): the same for ctest entries added with add_test.
function(kv_gpu_tests)
  if(KVERIFY_HAVE_CUDA)
    set_tests_properties(${ARGN} PROPERTIES RESOURCE_GROUPS "gpus:1")
  endif()
endfunction()

# A suite's own files, after the build type's flags (the libraries they test stay compiled as the
# CLI has them): -O1 (28 % faster to compile than -O2); the asan flavor's at -O0, where GCC's
# UndefinedBehaviorSanitizer checks made -O1 2.7x slower to compile (the CUB suite: 14.0 -> 5.2 s)
# while its suites spend their time in the -O1 emu library. The precompiled GoogleTest header of a
# flavor is built alike (GCC takes a header only at the level it was compiled with).
function(_kv_suite_optimization target flavor)
  if(flavor STREQUAL "asan")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O0>)
  else()
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O1>)
  endif()
endfunction()

# GoogleTest's header precompiled once per flavor and reused by every suite of that flavor: each
# suite's file otherwise parses it again (a third of a typical suite file's compile). GCC only: a
# PCH whose flags differ from a file's is ignored by GCC (the file then parses the header), where
# clang stops with an error.
function(_kv_gtest_header_precompiled target flavor)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    return()
  endif()
  set(pch kv_gtest_header_${flavor})
  if(NOT TARGET ${pch})
    add_library(${pch} OBJECT ${PROJECT_SOURCE_DIR}/cmake/gtest_header.cpp)
    target_link_libraries(${pch} PRIVATE GTest::gtest)
    _kv_apply_flavor(${pch} ${flavor})
    _kv_suite_optimization(${pch} ${flavor})
    target_precompile_headers(${pch} PRIVATE <gtest/gtest.h>)
  endif()
  target_precompile_headers(${target} REUSE_FROM ${pch})
endfunction()

# kv_gtest(NAME SOURCES ... [DEPS ...] [FLAVORS ...] [ENV k=v ...])
# One ctest entry per flavor. A GoogleTest skip is reported by ctest as skipped, never as passed.
function(kv_gtest name)
  cmake_parse_arguments(KV "" "" "SOURCES;DEPS;FLAVORS;ENV" ${ARGN})
  if(NOT KV_FLAVORS)
    set(KV_FLAVORS plain)
  endif()
  kv_executable(${name} SOURCES ${KV_SOURCES} DEPS ${KV_DEPS} GTest::gtest GTest::gtest_main FLAVORS ${KV_FLAVORS})
  foreach(flavor IN LISTS KV_FLAVORS)
    _kv_flavor_name(target ${name} ${flavor})
    if(TARGET ${target})
      _kv_suite_optimization(${target} ${flavor})
      _kv_gtest_header_precompiled(${target} ${flavor})
    endif()
  endforeach()
  if(KVERIFY_FUZZ)
    # The fuzz tree (build-fuzz/) builds the libraries and fuzz/: a suite is defined (its folder's
    # CMakeLists may refine it) but not built by default nor registered there; build/'s ctest runs
    # those named by kv_gtest_from_fuzz_tree.
    set_target_properties(${name} PROPERTIES EXCLUDE_FROM_ALL ON)
    return()
  endif()
  foreach(flavor IN LISTS KV_FLAVORS)
    if(NOT flavor STREQUAL "plain" AND NOT KVERIFY_SANITIZER_FLAVORS)
      continue()
    endif()
    _kv_flavor_name(target ${name} ${flavor})
    set(env ${KV_ENV})
    # One ctest entry per test case, so a skipped case shows as skipped and the rest as passed.
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST TEST_PREFIX "${flavor}:"
      PROPERTIES ENVIRONMENT "${env}" LABELS ${flavor} ${KV_GPU_RESOURCE})
  endforeach()
endfunction()
