# zend-async-trace's command line: --list and --help (and -h) exit 0,
# no scenario, an unknown flag or an unknown scenario exit 2 with a clear
# message on stderr.
#
#   cmake -DTOOL=<zend-async-trace> -P check_usage.cmake

# expect(<exit status> <regex stdout and stderr must match> <args>...)
function(expect status pattern)
  execute_process(
    COMMAND "${TOOL}" ${ARGN}
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err
    RESULT_VARIABLE got)
  if(NOT got EQUAL status)
    message(FATAL_ERROR "zend-async-trace ${ARGN}: exit ${got}, expected "
      "${status}\n${out}${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "zend-async-trace ${ARGN}: output does not match "
      "'${pattern}'\n${out}${err}")
  endif()
  message(STATUS "ok: zend-async-trace ${ARGN} -> ${status}")
endfunction()

expect(0 "fifo-handoff +max=1" --list)
expect(0 "usage: zend-async-trace SCENARIO" --help)
expect(0 "usage: zend-async-trace SCENARIO" -h)
expect(2 "usage: zend-async-trace SCENARIO")
expect(2 "usage: zend-async-trace SCENARIO" --list fifo-handoff)
expect(2 "Unknown command line flag 'bogus'.*zend-async-trace: see --help"
  --bogus)
expect(2 "unknown scenario \"nope\" \\(see --list\\)" nope)
