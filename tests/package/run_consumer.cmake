# Installs dlfl into WORK_DIR/prefix, then builds the consumer project against it and runs
# it on the consumer's own gcov-instrumented subject.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
# Test "N" checks classify(N); "20" meets the seeded fault.
file(WRITE ${WORK_DIR}/tests.txt "3\n0\n20\n")
run(${WORK_DIR}/build/consumer ${WORK_DIR}/spectrum.dlfl ${WORK_DIR}/build/subject ${WORK_DIR}/tests.txt
    ${CONSUMER_SOURCE})
