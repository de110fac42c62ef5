# Runs docs/debugging.md's pool walk-through (WALKTHROUGH, a gdb script)
# on zend-async-trace with the helpers loaded, and checks its stops: their
# order (B and C park, each release wakes the oldest waiter, who then takes
# the resource, until A's second acquire is served), the waiter line-up the
# first wake-up shows, and a clean end. Invoked by CTest:
#   cmake -DGDB=... -DPROGRAM=<zend-async-trace> -DSCRIPT=...
#         -DWALKTHROUGH=... -P run_gdb_walkthrough.cmake
# Prints "ZAR_SKIP:" (the test then counts as skipped) when gdb is missing
# or cannot trace.
include(${CMAKE_CURRENT_LIST_DIR}/gdb_batch.cmake)
if(NOT DEFINED WALKTHROUGH)
  message(FATAL_ERROR "WALKTHROUGH is required")
endif()

set(commands "source ${WALKTHROUGH}")
zar_gdb_batch(output errors commands)
if(errors MATCHES "Python Exception|Error occurred|No symbol")
  message(FATAL_ERROR "the walk-through failed:\n${output}\n${errors}")
endif()

string(REGEX MATCHALL "== stop: [^\n]*\\(([A-Za-z]+)\\)" stops "${output}")
set(order "")
foreach(stop IN LISTS stops)
  string(REGEX REPLACE ".*\\(([A-Za-z]+)\\)$" "\\1" name "${stop}")
  list(APPEND order ${name})
endforeach()
set(expected WaitForResource WaitForResource WakeWaiter WaitForResource
  TakeIdle WakeWaiter TakeIdle WakeWaiter TakeIdle)
if(NOT order STREQUAL expected)
  message(FATAL_ERROR "the walk-through stopped in this order:\n${order}\n"
    "expected:\n${expected}\n--- output:\n${output}")
endif()
foreach(shown
    "waiters=\\[#5, #7\\]"
    "Pool#1 acquire \\(waiter 1 of 2\\)"
    "Pool#1 acquire \\(waiter 2 of 2\\)"
    "waiters=\\[#5 \\(reserved\\), #7\\]"
    "exited normally")
  if(NOT output MATCHES "${shown}")
    message(FATAL_ERROR "the walk-through did not show ${shown}:\n${output}")
  endif()
endforeach()
message("walk-through: ${order}")
