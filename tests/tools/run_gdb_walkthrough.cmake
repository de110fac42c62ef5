# Runs one of docs/debugging.md's walk-throughs (WALKTHROUGH, a gdb script
# whose stops each echo a line "== stop: <what happens> (<function>)") on
# zend-async-trace with the helpers loaded, and checks its stops: the
# order of their functions, what they show, and a clean end. Invoked by
# CTest:
#   cmake -DGDB=... -DPROGRAM=<zend-async-trace> -DSCRIPT=...
#         -DWALKTHROUGH=<script.gdb> -DORDER=<function;...>
#         [-DALSO_ORDER=<function;...>] -DSHOWN=<regex;...>
#         -P run_gdb_walkthrough.cmake
# ORDER is the expected order of the stops' functions; ALSO_ORDER another
# order the scenario's semantics admit (e.g. two timers firing in one pass
# of the loop or in two, depending on how long the stops took). Each regex
# of SHOWN must match the output (gdb's and the trace's, in one text);
# "exited normally" is always required.
# Prints "ZAR_SKIP:" (the test then counts as skipped) when gdb is missing
# or cannot trace.
include(${CMAKE_CURRENT_LIST_DIR}/gdb_batch.cmake)
foreach(var WALKTHROUGH ORDER SHOWN)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is required")
  endif()
endforeach()

set(commands "source ${WALKTHROUGH}")
zar_gdb_batch(output errors commands)
if(errors MATCHES "Python Exception|Error occurred|No symbol")
  message(FATAL_ERROR "the walk-through failed:\n${output}\n${errors}")
endif()

string(REGEX MATCHALL "== stop: [^\n]*\\(([A-Za-z_]+)\\)" stops "${output}")
set(order "")
foreach(stop IN LISTS stops)
  string(REGEX REPLACE ".*\\(([A-Za-z_]+)\\)$" "\\1" name "${stop}")
  list(APPEND order ${name})
endforeach()
if(NOT "${order}" STREQUAL "${ORDER}" AND
   (NOT DEFINED ALSO_ORDER OR NOT "${order}" STREQUAL "${ALSO_ORDER}"))
  if(DEFINED ALSO_ORDER)
    set(also "or:\n${ALSO_ORDER}\n")
  endif()
  message(FATAL_ERROR "the walk-through stopped in this order:\n${order}\n"
    "expected:\n${ORDER}\n${also}--- output:\n${output}")
endif()
foreach(shown IN LISTS SHOWN ITEMS "exited normally")
  if(NOT output MATCHES "${shown}")
    message(FATAL_ERROR "the walk-through did not show ${shown}:\n${output}")
  endif()
endforeach()
message("walk-through: ${order}")
