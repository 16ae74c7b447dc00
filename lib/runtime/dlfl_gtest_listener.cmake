# dlfl_gtest_listener.cmake: compiles dlfl's GoogleTest listener into every executable of a
# CMake project that links GoogleTest, against the GoogleTest that project builds (a
# vendored or downloaded copy of any version from 1.7 on), with no edit of its files.
#
#   cmake -S SRC -B BUILD $(dlfl config --gtest-cmake) -DCMAKE_EXE_LINKER_FLAGS="$(dlfl config --libs)"
#
# A CMAKE_PROJECT_INCLUDE script: it runs after each project() call, and on the first one
# defers a pass over all targets to the end of the top-level CMakeLists.txt, when every
# target exists. The prebuilt libdlfl_rt_gtest.so cannot serve an old GoogleTest (its
# listener interface differs); the source adapts to the API it is compiled against.
#
# Inputs (cache variables `dlfl config --gtest-cmake` sets):
#   DLFL_GTEST_LISTENER_SOURCE  dlfl_rt_gtest_listener.cpp
#   DLFL_RT_INCLUDE_DIR         the directory holding dlfl_rt/dlfl_rt.h
#   DLFL_RT_GTEST_LINK          link options of the prebuilt listener, used for every
#                               executable when no executable links GoogleTest by a name
#                               this script recognises (gtest, gmock, GTest::...)
# It prints which executables got the listener.
# Read here so CMake never calls it an unused variable.
set(_dlfl_gtest_link "${DLFL_RT_GTEST_LINK}")
get_property(_dlfl_listener_deferred GLOBAL PROPERTY DLFL_GTEST_LISTENER_DEFERRED)
if(NOT _dlfl_listener_deferred)
  set_property(GLOBAL PROPERTY DLFL_GTEST_LISTENER_DEFERRED TRUE)

  function(_dlfl_collect_executables dir out)
    set(found)
    get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target IN LISTS targets)
      get_property(type TARGET "${target}" PROPERTY TYPE)
      if(type STREQUAL "EXECUTABLE")
        list(APPEND found "${target}")
      endif()
    endforeach()
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    foreach(subdir IN LISTS subdirs)
      _dlfl_collect_executables("${subdir}" sub)
      list(APPEND found ${sub})
    endforeach()
    set(${out} "${found}" PARENT_SCOPE)
  endfunction()

  # True when one of the target's link items names GoogleTest or GoogleMock: a target
  # (gtest, gtest_main, GTest::gtest, GTest::GTest), a library path or a -l flag.
  function(_dlfl_links_gtest target out)
    get_property(items TARGET "${target}" PROPERTY LINK_LIBRARIES)
    set(hit FALSE)
    foreach(item IN LISTS items)
      string(TOLOWER "${item}" lower)
      if(lower MATCHES "(^|[/:_-]|^-l)(lib)?g(test|mock)([_.:>]|$)")
        set(hit TRUE)
      endif()
    endforeach()
    set(${out} ${hit} PARENT_SCOPE)
  endfunction()

  function(_dlfl_add_gtest_listener)
    if(NOT EXISTS "${DLFL_GTEST_LISTENER_SOURCE}")
      message(FATAL_ERROR "dlfl: DLFL_GTEST_LISTENER_SOURCE '${DLFL_GTEST_LISTENER_SOURCE}' does not exist "
                          "(use the values `dlfl config --gtest-cmake` prints)")
    endif()
    _dlfl_collect_executables("${CMAKE_SOURCE_DIR}" executables)
    set(with)
    foreach(target IN LISTS executables)
      _dlfl_links_gtest("${target}" links)
      if(links)
        set_property(TARGET "${target}" APPEND PROPERTY SOURCES "${DLFL_GTEST_LISTENER_SOURCE}")
        set_property(TARGET "${target}" APPEND PROPERTY INCLUDE_DIRECTORIES "${DLFL_RT_INCLUDE_DIR}")
        list(APPEND with "${target}")
      endif()
    endforeach()
    if(with)
      string(REPLACE ";" ", " names "${with}")
      message(STATUS "dlfl: GoogleTest listener compiled into ${names}")
    elseif(executables AND DLFL_RT_GTEST_LINK)
      foreach(target IN LISTS executables)
        set_property(TARGET "${target}" APPEND PROPERTY LINK_OPTIONS ${DLFL_RT_GTEST_LINK})
      endforeach()
      message(STATUS "dlfl: no executable links GoogleTest by a known name: the prebuilt listener "
                     "(libdlfl_rt_gtest) is linked into every executable instead")
    else()
      message(WARNING "dlfl: no executable of this project links GoogleTest: no listener added")
    endif()
  endfunction()

  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _dlfl_add_gtest_listener)
endif()
