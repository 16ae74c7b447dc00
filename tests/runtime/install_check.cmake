# After `cmake --install`, `dlfl config` finds the installed runtime next to the installed
# executable, pkg-config finds dlfl_rt, and their flags build and run a probed program.
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DCXX=... -DLIBDIR=lib -P install_check.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix"
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
set(dlfl "${WORK_DIR}/prefix/bin/dlfl")
foreach(what cflags libs)
  set(args --${what})
  if(what STREQUAL "libs")
    list(APPEND args --gtest)
  endif()
  execute_process(COMMAND "${dlfl}" config ${args} OUTPUT_VARIABLE ${what} RESULT_VARIABLE rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc OR NOT ${what} MATCHES "${WORK_DIR}/prefix")
    message(FATAL_ERROR "dlfl config ${args} (${rc}): '${${what}}' does not point into the install prefix")
  endif()
endforeach()

# A program with one hand-written probe, built with the printed flags.
file(WRITE "${WORK_DIR}/main.cpp" "#define DLFL_RT_PROBE_COUNT 2\n#include <dlfl_rt/probe.h>\n"
  "int main() { __dlfl_map[1].hit = 1; dlfl_rt_begin_test(\"t\"); return dlfl_rt_end_test(0); }\n")
separate_arguments(cflags_list UNIX_COMMAND "${cflags}")
separate_arguments(libs_list UNIX_COMMAND "${libs}")
execute_process(COMMAND ${CXX} ${cflags_list} "${WORK_DIR}/main.cpp" -o "${WORK_DIR}/main" ${libs_list}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "building with the dlfl config flags failed: ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env "DLFL_RT_FILE=${WORK_DIR}/run.map" "${WORK_DIR}/main" RESULT_VARIABLE rc)
if(rc OR NOT EXISTS "${WORK_DIR}/run.map")
  message(FATAL_ERROR "the probed program failed (${rc}) or wrote no snapshot")
endif()

# A project with its own GoogleTest compiles the installed listener source into its tests.
execute_process(COMMAND "${dlfl}" config --gtest-listener-source OUTPUT_VARIABLE listener RESULT_VARIABLE rc
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(rc OR NOT listener MATCHES "^${WORK_DIR}/prefix/" OR NOT EXISTS "${listener}")
  message(FATAL_ERROR "dlfl config --gtest-listener-source (${rc}): '${listener}' is not an installed file")
endif()
execute_process(COMMAND "${dlfl}" config --libs OUTPUT_VARIABLE plain_libs OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(plain_libs_list UNIX_COMMAND "${plain_libs}")
file(WRITE "${WORK_DIR}/gtest_main.cpp" "#define DLFL_RT_PROBE_COUNT 2\n#include <dlfl_rt/probe.h>\n"
  "#include <gtest/gtest.h>\nTEST(Own, Gtest) { __dlfl_map[1].hit = 1; }\n")
execute_process(COMMAND ${CXX} ${cflags_list} "${WORK_DIR}/gtest_main.cpp" "${listener}" -o "${WORK_DIR}/own_gtest"
  ${plain_libs_list} -lgtest_main -lgtest -pthread RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "building with the listener source failed: ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env "DLFL_RT_FILE=${WORK_DIR}/own.map" "${WORK_DIR}/own_gtest"
  RESULT_VARIABLE rc OUTPUT_QUIET)
file(READ "${WORK_DIR}/own.map" own_map HEX)
if(rc OR NOT own_map MATCHES "4f776e2e4774657374")  # "Own.Gtest": the listener bracketed it
  message(FATAL_ERROR "the program with the listener source failed (${rc}) or bracketed no test")
endif()

find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${WORK_DIR}/prefix/${LIBDIR}/pkgconfig"
    ${PKG_CONFIG} --cflags --libs dlfl_rt_gtest OUTPUT_VARIABLE pc RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc OR NOT pc MATCHES "-ldlfl_rt" OR NOT pc MATCHES "-ldlfl_rt_gtest")
    message(FATAL_ERROR "pkg-config dlfl_rt_gtest: (${rc}) '${pc}'")
  endif()
endif()
message(STATUS "dlfl runtime install ok")
