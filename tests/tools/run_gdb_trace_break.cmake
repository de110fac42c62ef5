# Runs zend-async-trace's fifo-handoff scenario under gdb with
# ZEND_ASYNC_REF_TRACE_BREAK="pool reserve" and a breakpoint on
# zend_async_ref_trace_break, and checks that the debugger stops right after
# the first "pool reserve" line: the last trace line printed before the stop
# is that event. Invoked by CTest:
#   cmake -DGDB=... -DPROGRAM=<zend-async-trace> -DSCRIPT=... -P run_gdb_trace_break.cmake
# Prints "ZAR_SKIP:" (the test then counts as skipped) when gdb is missing
# or cannot trace.
include(${CMAKE_CURRENT_LIST_DIR}/gdb_batch.cmake)

set(commands
  "set environment ZEND_ASYNC_REF_TRACE_BREAK=pool reserve"
  "break zend_async_ref_trace_break"
  "run fifo-handoff"
  "echo @@STOPPED\\n"
  "kill")
zar_gdb_batch(output errors commands)

string(FIND "${output}" "@@STOPPED\n" stopped)
string(FIND "${output}" "zend_async_ref_trace_break (" at_break)
if(stopped EQUAL -1 OR at_break EQUAL -1)
  message(FATAL_ERROR "gdb did not stop at zend_async_ref_trace_break:\n"
    "${output}\n${errors}")
endif()
string(SUBSTRING "${output}" 0 ${at_break} before)
string(REGEX MATCHALL "\\[trace\\] [^\n]*" lines "${before}")
list(LENGTH lines count)
if(count EQUAL 0)
  message(FATAL_ERROR "no trace line before the stop:\n${output}")
endif()
list(GET lines -1 last)
if(NOT last MATCHES "^\\[trace\\] #[0-9]+ pool reserve Pool#1 for #[0-9]+")
  message(FATAL_ERROR "the last line before the stop is not the first "
    "pool reserve:\n${last}\n--- output:\n${output}")
endif()
string(REGEX MATCHALL "pool reserve" reserves "${before}")
list(LENGTH reserves reserve_count)
if(NOT reserve_count EQUAL 1)
  message(FATAL_ERROR "gdb stopped after ${reserve_count} pool reserve "
    "lines, not the first:\n${output}")
endif()
message("trace break: stopped after \"${last}\"")
