# The Debian package of dlfl (scripts/package.sh: `cpack -G DEB` in a build configured with
# -DCMAKE_INSTALL_PREFIX=/usr): the tools, libdlfl_rt and the GoogleTest listener, the
# headers and CMake package, the pytest plugin for Debian's python3, man pages and shell
# completion, as `cmake --install` puts them; plus the Debian documentation files
# (copyright, changelog) under share/doc/dlfl. docs/install.md explains the choices and the
# lintian tags left.
# copyright (Debian policy 12.5) states the license of the repository's LICENSE file.
file(STRINGS ${PROJECT_SOURCE_DIR}/LICENSE license_head LIMIT_COUNT 3)
if(NOT license_head MATCHES "Apache License.*Version 2.0")
  message(FATAL_ERROR "LICENSE is not the Apache License 2.0 that cmake/debian/copyright.in states: update both")
endif()
# Dates from the commit, not the clock, so that a rebuild gives the same package.
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} log -1 "--format=%cD%n%h%n%cd%n%an <%ae>" --date=format:%Y
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE git_out OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE git_rc ERROR_QUIET)
endif()
if(git_rc EQUAL 0 AND git_out)
  string(REPLACE "\n" ";" git_out "${git_out}")
  list(GET git_out 0 DLFL_PACKAGE_DATE)
  list(GET git_out 1 DLFL_PACKAGE_COMMIT)
  list(GET git_out 2 DLFL_COPYRIGHT_YEAR)
  list(GET git_out 3 commit_author)
else()
  string(TIMESTAMP DLFL_PACKAGE_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
  string(TIMESTAMP DLFL_COPYRIGHT_YEAR "%Y" UTC)
  set(DLFL_PACKAGE_COMMIT "unknown")
  set(commit_author "dlfl maintainers <dlfl@invalid>")
endif()
set(DLFL_PACKAGE_MAINTAINER "" CACHE STRING
  "The Debian package's Maintainer field, NAME <EMAIL> (empty: the author of the commit built)")
if(NOT DLFL_PACKAGE_MAINTAINER)
  set(DLFL_PACKAGE_MAINTAINER "${commit_author}")
endif()
set(debian_docs ${CMAKE_CURRENT_BINARY_DIR}/debian-docs)
configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/copyright.in ${debian_docs}/copyright @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in ${debian_docs}/changelog @ONLY)
find_program(GZIP gzip REQUIRED)
execute_process(COMMAND ${GZIP} -9n -c ${debian_docs}/changelog OUTPUT_FILE ${debian_docs}/changelog.gz
  RESULT_VARIABLE gzip_rc)
if(NOT gzip_rc EQUAL 0)
  message(FATAL_ERROR "gzip ${debian_docs}/changelog failed")
endif()
install(FILES ${debian_docs}/copyright ${debian_docs}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Each lintian tag the package keeps, with the reason (cmake/debian/lintian-overrides).
install(FILES ${PROJECT_SOURCE_DIR}/cmake/debian/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
  RENAME dlfl)
# The shared libraries are registered by dpkg's ldconfig trigger (Debian policy 8.1.1);
# CPack also writes postinst/postrm scripts that call ldconfig (an override explains).
file(WRITE ${debian_docs}/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${debian_docs}/triggers)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dlfl)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${DLFL_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/debian/strip_archives.cmake)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # dlfl_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "spectrum-based fault localization for C++/CUDA deep-learning code
dlfl ranks the program elements (lines, blocks, functions, files) of C++ and
CUDA code, such as the native code of deep-learning frameworks, by how strongly
their execution correlates with failing tests. It collects per-test coverage
with gcov, llvm-cov or its own source instrumentation (Clang), from GoogleTest
binaries, CTest, command lists and pytest runs (the dlfl_pytest plugin, with
Python lines too), and writes rankings as tables, CSV, JSON, SARIF, GitHub
annotations or HTML.
.
This package holds the dlfl tools, the coverage runtime libdlfl_rt with its
GoogleTest listener, the pytest plugin for python3, and the C++ library
(headers, static libraries and a CMake package) for programs that localize
faults themselves.")
# Depends: the shared libraries the binaries link (dpkg-shlibdeps), and what dlfl runs:
# Clang's builtin headers for `dlfl instrument`, a coverage tool for gcov/llvm collection
# (gcc's gcov or LLVM 14's llvm-cov), and python3 with pytest and coverage.py for the
# plugin. Suggests: what the C++ library's CMake package finds for its consumers, GoogleTest
# for the prebuilt listener, pytest-xdist for parallel pytest runs, bear for the
# compilation database of a BugsC++ defect's mutation analysis (bugset reproduce --mbfl).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libclang-common-14-dev, gcc | llvm-14, python3, python3-pytest, python3-coverage")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc, llvm-14")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
  "libeigen3-dev, libboost-dev, libsimdjson-dev, libpugixml-dev, libgtest-dev, python3-pytest-xdist, cmake, bear")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
