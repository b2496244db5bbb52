# CUDA sources for the emu build: the rewrite of <<<>>> launches (runtime/emu/rewrite/).
#
#   kverify_emu_rewrite(<out_var> <source>...)
#
# For each source (a .cu, or any file with host code that launches kernels), adds a build step
# that writes a rewritten copy into the build tree and returns the copies' paths in <out_var>,
# to be listed in the SOURCES of a target that the host compiler builds for emu:
#
#   kverify_emu_rewrite(my_emu_sources kernels/my_op.cu)
#   add_executable(my_op_emu ${my_emu_sources} main.cpp)
#   target_link_libraries(my_op_emu PRIVATE kv_emu kv_emu_cuda_headers)
#
# - Each copy is <current build dir>/kverify_emu_rewrite/<absolute path of the source>.cpp,
#   compiled as C++; a header named in the list (.cuh .h .hpp .hh .inl) gets its copy at
#   <current build dir>/kverify_emu_rewrite/<absolute path> instead, not compiled, for a generated TU of the emu
#   build to #include in place of the original (the launcher-in-a-header of kverify_add_variant).
#   Each copy starts with `#line 1 "<original path>"`: diagnostics, __FILE__ and std::source_location
#   name the user's file and lines (the rewrite keeps every line where it was).
# - Headers: every file the source reaches through `#include "..."` relative to the including
#   file is rewritten too, into the same mirror (<build>/kverify_emu_rewrite/<its absolute path>),
#   so the compiler, looking first in the copy's own folder, finds the rewritten headers in place
#   of the originals: a launcher in a .cuh next to the .cu works. A header found only through the
#   include path (-I) is used as it is (a launch in it does not compile on emu); include it
#   relative to the file instead.
# - The original file's folder is added with -iquote, so an include that the rewrite could not
#   follow (an #include of a macro) still finds what it found before.
# - Editing the source or any header it reached reruns the rewrite (a depfile lists them).
# - Call it in the same CMakeLists.txt as the target that compiles the copies (CMake attaches
#   generated files to targets of the directory that generates them); calling it again there for
#   the same source returns the same copy.

set_property(GLOBAL PROPERTY KVERIFY_EMU_LAUNCH_HEADER "${KVERIFY_DATA_DIR}/runtime/emu/model/launch_syntax.hpp")

set_property(GLOBAL PROPERTY KVERIFY_EMU_REWRITE_TOOL kv_emu_launch_rewrite)  # kverify:: in a package's user

function(kverify_emu_rewrite out_var)
  get_property(tool GLOBAL PROPERTY KVERIFY_EMU_REWRITE_TOOL)
  if(NOT TARGET ${tool})
    message(FATAL_ERROR "kverify_emu_rewrite: the rewrite tool ${tool} is not defined yet (call it after kverify's runtime/ is added)")
  endif()
  # One mirror per directory: targets of two directories may rewrite the same source.
  set(mirror "${CMAKE_CURRENT_BINARY_DIR}/kverify_emu_rewrite")
  get_property(launch_header GLOBAL PROPERTY KVERIFY_EMU_LAUNCH_HEADER)
  get_filename_component(launch_header "${launch_header}" ABSOLUTE)
  set(result "")
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${abs}")
      message(FATAL_ERROR "kverify_emu_rewrite: source '${src}' does not exist (looked for ${abs})")
    endif()
    get_filename_component(dir "${abs}" DIRECTORY)
    if(abs MATCHES "\\.(cuh|h|hpp|hh|inl)$")
      set(out "${mirror}${abs}")  # a header: its rewritten copy, for an #include of the emu build
    else()
      set(out "${mirror}${abs}.cpp")
    endif()
    list(APPEND result "${out}")
    get_property(done DIRECTORY PROPERTY KVERIFY_EMU_REWRITTEN)
    if("${out}" IN_LIST done)
      continue()  # a second call for the same source in this directory reuses the first's copy
    endif()
    set_property(DIRECTORY APPEND PROPERTY KVERIFY_EMU_REWRITTEN "${out}")
    file(RELATIVE_PATH shown "${PROJECT_SOURCE_DIR}" "${abs}")
    add_custom_command(
      OUTPUT "${out}"
      COMMAND ${tool} --mirror "${mirror}" --output "${out}" --depfile "${out}.d"
              --launch-header "${launch_header}" "${abs}"
      DEPENDS "${abs}" ${tool}
      DEPFILE "${out}.d"
      COMMENT "emu: rewriting <<<>>> launches of ${shown}"
      VERBATIM)
    if(NOT abs MATCHES "\\.(cuh|h|hpp|hh|inl)$")
      set_source_files_properties("${out}" PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "-iquote;${dir}")
    endif()
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()
