# CPACK_PRE_BUILD_SCRIPTS: strips the debug information of the static libraries in the
# package's staging tree, as Debian's dh_strip does (CPACK_STRIP_FILES strips executables
# and shared libraries only); -g objects are otherwise most of the package's size.
find_program(STRIP strip REQUIRED)
file(GLOB_RECURSE archives "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*.a")
foreach(archive ${archives})
  execute_process(COMMAND ${STRIP} --strip-debug --remove-section=.comment --remove-section=.note
                          --enable-deterministic-archives ${archive} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "strip ${archive} failed (${rc})")
  endif()
endforeach()
