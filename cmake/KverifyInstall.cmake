# kverify installed (`cmake --install build --prefix P`) and as a Debian package (cpack, the DEB
# generator; ./kverify package): what a project needs to use kverify as a package with no kverify
# checkout, and the kverify command line itself. The prefix's layout (relative folders from the
# top-level CMakeLists.txt):
#   bin/kverify                      kverify's own command line (its kernels: list, check, new)
#   libexec/kverify/                 fuzz_run and the emu rewrite tool (kv_emu_launch_rewrite)
#   lib/kverify/                     the static libraries a project's kverify links
#   include/kverify/                 their headers, included as from the checkout ("core/case.hpp"),
#                                    and emu's CUDA header names (runtime/emu/include)
#   lib/cmake/kverify/               the CMake package: kverifyConfig.cmake, its version file, the
#                                    exported targets, the registered ops and variants, the modules
#   share/kverify/                   the files the commands read: the seed corpus, the fuzz options,
#                                    kverify's kernel and op sources (a CI annotation points there),
#                                    the two main()s a project compiles, check/junit.xsd; the mark
#                                    `kverify-data` says an installed kverify lies here
#   share/doc/kverify/               README.md and docs/
# Nothing installed names this checkout or build folder: the config finds every part from its own
# place, so the prefix may move (a package extracted under another root works as installed).

set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)  # installing builds what it installs, not every suite

# Called by _kverify_write_package with the targets a project links (libraries, the rewrite tool).
function(_kverify_install_package)
  set(libraries "")
  set(programs "")
  foreach(t IN LISTS ARGN)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "EXECUTABLE")
      list(APPEND programs ${t})
    else()
      list(APPEND libraries ${t})
    endif()
  endforeach()
  install(TARGETS ${libraries} ${programs} EXPORT kverifyTargets
    ARCHIVE DESTINATION ${KVERIFY_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${KVERIFY_INSTALL_LIBEXECDIR})
  install(EXPORT kverifyTargets NAMESPACE kverify:: DESTINATION ${KVERIFY_INSTALL_PACKAGEDIR})
  install(TARGETS kverify RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set(commands kverify)
  if(TARGET fuzz_run)  # not built where clang's FuzzedDataProvider.h is missing (fuzz/CMakeLists.txt)
    install(TARGETS fuzz_run RUNTIME DESTINATION ${KVERIFY_INSTALL_LIBEXECDIR})
    list(APPEND commands fuzz_run)
  endif()
  # What an install copies, built by one target (./kverify package builds it, not the suites).
  add_custom_target(kverify_package_parts)
  add_dependencies(kverify_package_parts ${libraries} ${programs} ${commands})

  # The headers, as the sources include them (the folders of kverify's libraries, tests left out).
  foreach(folder IN ITEMS bench check core fuzz gpu kernels mutation ops pipeline properties reference report runtime tools)
    install(DIRECTORY "${PROJECT_SOURCE_DIR}/${folder}" DESTINATION ${KVERIFY_INSTALL_INCLUDEDIR}
      FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.cuh" PATTERN "*.inl" PATTERN "*.def"
      PATTERN "tests" EXCLUDE PATTERN "mutants" EXCLUDE)
  endforeach()
  # emu's CUDA header names: every file, some have no extension (cuda/std/functional).
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/emu/include/" DESTINATION ${KVERIFY_INSTALL_INCLUDEDIR}/runtime/emu/include)

  # The files the commands read, in the checkout's layout (core/home.hpp). The mark records what
  # was installed, taken when it is installed (the checkout may have moved on since configuring):
  # the version, and the repository and commit a new project's CI builds the package from.
  install(CODE "
    execute_process(COMMAND git -C \"${PROJECT_SOURCE_DIR}\" rev-parse HEAD OUTPUT_VARIABLE commit
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND git -C \"${PROJECT_SOURCE_DIR}\" remote get-url origin OUTPUT_VARIABLE origin
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    set(mark \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${KVERIFY_INSTALL_DATADIR}/kverify-data\")
    message(STATUS \"Installing: \${mark}\")
    file(WRITE \"\${mark}\" \"version ${PROJECT_VERSION}\\ncommit \${commit}\\norigin \${origin}\\n\")")
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/corpus" DESTINATION ${KVERIFY_INSTALL_DATADIR})
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/fuzz/options" DESTINATION ${KVERIFY_INSTALL_DATADIR}/fuzz)
  install(FILES "${PROJECT_SOURCE_DIR}/fuzz/standalone_main.cpp" DESTINATION ${KVERIFY_INSTALL_DATADIR}/fuzz)
  install(FILES "${PROJECT_SOURCE_DIR}/tools/main.cpp" DESTINATION ${KVERIFY_INSTALL_DATADIR}/tools)
  install(FILES "${PROJECT_SOURCE_DIR}/check/junit.xsd" DESTINATION ${KVERIFY_INSTALL_DATADIR}/check)
  install(FILES "${PROJECT_SOURCE_DIR}/runtime/emu/model/launch_syntax.hpp" DESTINATION ${KVERIFY_INSTALL_DATADIR}/runtime/emu/model)
  foreach(folder IN ITEMS kernels ops)
    install(DIRECTORY "${PROJECT_SOURCE_DIR}/${folder}" DESTINATION ${KVERIFY_INSTALL_DATADIR}
      PATTERN "tests" EXCLUDE)
  endforeach()
  install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION ${CMAKE_INSTALL_DOCDIR})
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION ${CMAKE_INSTALL_DOCDIR})

  # The CMake package: the config finds the prefix from its own folder.
  file(RELATIVE_PATH to_prefix "/prefix/${KVERIFY_INSTALL_PACKAGEDIR}" "/prefix")
  set(KV_CONFIG_PLACES "# An installed kverify: every part found from this file's folder.
get_filename_component(_kv_prefix \"\${CMAKE_CURRENT_LIST_DIR}/${to_prefix}\" ABSOLUTE)
set(_kv_modules \"\${CMAKE_CURRENT_LIST_DIR}\")
set(KVERIFY_DATA_DIR \"\${_kv_prefix}/${KVERIFY_INSTALL_DATADIR}\")
set(kverify_SOURCE_DIR \"\")  # no sources: KVERIFY_FROM_SOURCE needs a checkout")
  set(KV_CONFIG_KIND "an installed kverify")
  configure_file("${PROJECT_SOURCE_DIR}/cmake/kverifyConfig.cmake.in" "${PROJECT_BINARY_DIR}/install/kverifyConfig.cmake" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/install/kverifyConfig.cmake" "${PROJECT_BINARY_DIR}/kverifyConfigVersion.cmake"
    "${PROJECT_BINARY_DIR}/install/kverifyRegistered.cmake" DESTINATION ${KVERIFY_INSTALL_PACKAGEDIR})
  foreach(module IN ITEMS KverifyCuda KverifyOps KverifyVariants KverifyEmuSources KverifyRaceDetector KverifyPackage)
    install(FILES "${PROJECT_SOURCE_DIR}/cmake/${module}.cmake" DESTINATION ${KVERIFY_INSTALL_PACKAGEDIR})
  endforeach()
endfunction()

# The Debian package (cpack --config <build>/CPackConfig.cmake): the install above under /usr, its
# Depends the packages of tools/debian-packages.txt marked `project`. Only where kverify is the
# project (not inside a user's).
if(NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()
file(STRINGS "${PROJECT_SOURCE_DIR}/tools/debian-packages.txt" _kv_package_lines REGEX "^[^#].* project( |$)")
set(_kv_depends "")
foreach(line IN LISTS _kv_package_lines)
  string(REGEX MATCH "^[^ ]+" name "${line}")
  list(APPEND _kv_depends "${name}")
endforeach()
list(JOIN _kv_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kverify)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # kverify_<version>_<arch>.deb
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "kverify developers")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS ninja-build)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)  # seconds, where xz takes minutes for the archives
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "checks CUDA kernels against float64 and MPFR references, on the GPU or on the CPU (emu)")
if(KVERIFY_HAVE_CUDA)
  set(_kv_backends "emu and cuda: its libraries link the CUDA runtime of the CUDA toolkit ${CUDAToolkit_VERSION} (and its bench opens cuBLASLt), which a project using it needs where find_package(CUDAToolkit) finds it (NVIDIA's toolkit: not a Debian package); ./kverify package makes the emu-only package")
else()
  set(_kv_backends "emu only: no CUDA toolkit needed")
endif()
set(CPACK_PACKAGE_DESCRIPTION "The kverify command line, and kverify as a CMake package (find_package(kverify ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR} CONFIG)) for a project that checks its own kernels: its property suites run in ctest, with JUnit XML for CI. Backends: ${_kv_backends}.")
include(CPack)
