# The ops, from ops/ops.def (the one list of them): KVERIFY_OPS here and as a global property (for
# kverify_add_variant called from an outside project), and the conventional files of an op's
# folders that each library takes:
#   ops/<op>/reference.cpp, spec.cpp     kv_core (what the op is and how it is checked)
#   ops/<op>/properties.cpp              kv_properties
#   ops/<op>/bench_baseline.cu           kv_bench_cuda (the GPU baseline the bench times against)
#   ops/<op>/tests/reference_test.cpp    reference_tests;  ops/<op>/tests/pipeline_test.cpp  pipeline_tests
#   kernels/<op>/variants.cpp, <op>_emu.cpp, <op>_cuda.cu, mutants/   kv_kernels, kv_kernels_cuda
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../ops/ops.def" _kv_op_lines REGEX "^KVERIFY_OP\\(")
set(KVERIFY_OPS "")
foreach(line IN LISTS _kv_op_lines)
  if(NOT line MATCHES "^KVERIFY_OP\\(([a-z_][a-z0-9_]*)\\)$")
    message(FATAL_ERROR "ops/ops.def: '${line}' is not KVERIFY_OP(<lower-case name>)")
  endif()
  list(APPEND KVERIFY_OPS ${CMAKE_MATCH_1})
endforeach()
set_property(GLOBAL PROPERTY KVERIFY_OPS "${KVERIFY_OPS}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/../ops/ops.def")

# kv_op_files(<out> <path pattern with @OP@>): the existing files of that pattern for every op.
function(kv_op_files out pattern)
  set(files "")
  foreach(op IN LISTS KVERIFY_OPS)
    string(REPLACE "@OP@" "${op}" path "${PROJECT_SOURCE_DIR}/${pattern}")
    if(EXISTS "${path}")
      list(APPEND files "${path}")
    endif()
  endforeach()
  set(${out} ${files} PARENT_SCOPE)
endfunction()
