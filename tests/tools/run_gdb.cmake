# Runs zar_gdb_fixture under gdb with the zend-async-ref helpers loaded,
# stops at zar_gdb_breakpoint_here(), prints the fixture's request, and
# compares that output with the golden file. Invoked by CTest:
#   cmake -DGDB=... -DPROGRAM=... -DSCRIPT=... -DEXPECTED=... [-DACTUAL=...]
#         [-DUPDATE=ON] -P run_gdb.cmake
# UPDATE=ON rewrites EXPECTED with what gdb printed. Prints "ZAR_SKIP:"
# (the test then counts as skipped) when gdb is missing or cannot trace.
include(${CMAKE_CURRENT_LIST_DIR}/gdb_batch.cmake)
if(NOT DEFINED EXPECTED)
  message(FATAL_ERROR "EXPECTED is required")
endif()

# Frame 1 is RunScene, where the scene's locals live. Everything between
# the two markers is compared.
set(commands
  "break zar_gdb_breakpoint_here"
  "run"
  "frame 1"
  "echo @@BEGIN\\n"
  "print *finished"
  "print *cancelled"
  "print *waiter1"
  "print *waiter2"
  "print *fresh"
  "print waiter2"
  "print *zend_async_globals_api.coroutine"
  "print *pool"
  "print pool->event"
  "print *(zar::core::AsyncPool*)pool"
  "print *(zar::core::AsyncCoroutine*)waiter1"
  "print *channel"
  "print channel->event"
  "print *(zar::core::AsyncChannel*)channel"
  "print timer->base"
  "print *io"
  "print io->event"
  "print *read"
  "print finished->event"
  "print zv_long"
  "print zv_string"
  "print zv_object"
  "print zv_ptr"
  "print zv_array"
  "print zv_null"
  "print zv_double"
  "print zv_bool"
  "print held"
  "print *zv_object.value.obj"
  "print *zv_string.value.str"
  "print *$zar_coroutine(6)"
  "print *settled"
  "print pending"
  "print ended->base"
  "print unstarted->base"
  "print *workers"
  "print workers"
  "print *sleeper"
  "print *scene.inbox"
  "print *awaited"
  "print group->event"
  "zar-coroutines"
  "zar-async"
  "zar-events"
  "echo @@END\\n"
  "continue")
zar_gdb_batch(output errors commands)

if(NOT output MATCHES "Breakpoint 1, zar_gdb_breakpoint_here")
  message(FATAL_ERROR "the fixture did not stop at the breakpoint:\n"
    "${output}\n${errors}")
endif()
string(FIND "${output}" "@@BEGIN\n" begin)
string(FIND "${output}" "@@END\n" end)
if(begin EQUAL -1 OR end EQUAL -1)
  message(FATAL_ERROR "gdb stopped before the end of the commands:\n"
    "${output}\n${errors}")
endif()
math(EXPR begin "${begin} + 8")
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${output}" ${begin} ${length} printed)
# Addresses differ from run to run.
string(REGEX REPLACE "0x[0-9a-f]+" "0x…" printed "${printed}")
# zar-coroutines' "parked in" names the outermost implementation function a
# coroutine called, which depends on what the build inlined (Send, or the
# ChannelSend that calls it): the caller's place is compared, and the
# column's padding with it.
string(REGEX REPLACE "[A-Za-z_]+ from ([A-Za-z_.]+:[0-9]+) +" "… from \\1 "
  printed "${printed}")

if(NOT output MATCHES "exited normally")
  message(FATAL_ERROR "the fixture did not end cleanly after the "
    "breakpoint:\n${output}\n${errors}")
endif()
if(errors MATCHES "Python Exception|Error occurred in Python")
  message(FATAL_ERROR "the helpers raised:\n${errors}")
endif()

if(UPDATE)
  file(WRITE "${EXPECTED}" "${printed}")
  message("updated ${EXPECTED}")
  return()
endif()
if(DEFINED ACTUAL)
  file(WRITE "${ACTUAL}" "${printed}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT printed STREQUAL expected)
  message(FATAL_ERROR "gdb printed something else than ${EXPECTED}.\n"
    "--- printed:\n${printed}\n--- expected:\n${expected}\n"
    "(stderr:\n${errors})")
endif()
message("gdb helpers: output matches ${EXPECTED}")
