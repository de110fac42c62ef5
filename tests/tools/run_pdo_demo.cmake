# Runs zend-async-pdo-demo and checks what it reports: exit status 0 (77,
# no server to start, is passed on for CTest to read as skipped), every
# job done, no failure, no leak, never more connections than MAX, the
# pool idle at the end. Invoked by CTest:
#   cmake -DDEMO=<program> -DARGS="--mysql;12;3" -DCOROUTINES=12 -DMAX=3
#         -P run_pdo_demo.cmake
execute_process(COMMAND ${DEMO} ${ARGS}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
message("${out}${err}")
if(status EQUAL 77)
  # CTest's SKIP_REGULAR_EXPRESSION reads this line.
  message("SKIPPED: the demo has no server to run on")
  return()
endif()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${DEMO} ${ARGS} ended with status ${status}")
endif()

math(EXPR jobs "${COROUTINES} / 3")
set(expected
  "order +${jobs} coroutines"
  "report +${jobs} coroutines"
  "lookup +${jobs} coroutines"
  "connections opened +${MAX} "
  "orders written +${jobs} "
  "pool at the end +count=${MAX} idle=${MAX} active=0"
  "failures +0\n"
  "leaked blocks +0\n")
foreach(line IN LISTS expected)
  if(NOT out MATCHES "${line}")
    message(FATAL_ERROR "the report lacks the line \"${line}\"")
  endif()
endforeach()
