# Runs `zend-async-trace SCENARIO` and compares its output with a golden
# file; with -DUPDATE=ON, writes the output to the golden file instead.
#
#   cmake -DTOOL=<zend-async-trace> -DSCENARIO=<name> -DGOLDEN=<file>
#         [-DUPDATE=ON] -P compare_trace.cmake
execute_process(
  COMMAND "${TOOL}" "${SCENARIO}"
  OUTPUT_VARIABLE actual
  ERROR_VARIABLE errors
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "zend-async-trace ${SCENARIO} exited with ${status}\n"
    "${actual}${errors}")
endif()
if(UPDATE)
  file(WRITE "${GOLDEN}" "${actual}")
  message(STATUS "wrote ${GOLDEN}")
  return()
endif()
file(READ "${GOLDEN}" expected)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "the trace of ${SCENARIO} differs from ${GOLDEN}\n"
    "--- expected\n${expected}--- actual\n${actual}")
endif()
