# Runs zar_gdb_fixture under gdb with the zend-async-ref helpers loaded,
# stops at zar_gdb_breakpoint_here() and checks zar-bt: the backtrace of
# waiter2, parked in a pool acquire, runs from the fiber switch that parked
# it through PoolAcquire and the fixture's AcquireAndRelease down to the
# fiber's first frame, with no frame gdb cannot name; `fresh`, never
# started, has no frames; the frame selected before (RunScene's, where the
# locals live) is selected again after.
#
# With CORE set, the same checks run on a core file: zar-gcore writes it at
# the breakpoint, and a second gdb opens it (the program is killed, not
# continued). Invoked by CTest:
#   cmake -DGDB=... -DPROGRAM=... -DSCRIPT=... [-DCORE=<file>]
#         -P run_gdb_bt.cmake
# Prints "ZAR_SKIP:" (the test then counts as skipped) when gdb is missing
# or cannot trace.
include(${CMAKE_CURRENT_LIST_DIR}/gdb_batch.cmake)

set(checks
  "frame 1"
  "echo @@WAITER\\n"
  "zar-bt waiter2"
  "echo @@FRESH\\n"
  "zar-bt fresh"
  "echo @@END\\n")
if(DEFINED CORE)
  file(REMOVE "${CORE}")
  set(commands
    "break zar_gdb_breakpoint_here"
    "run"
    "zar-gcore ${CORE}"
    "kill")
  zar_gdb_batch(output errors commands)
  if(NOT output MATCHES "Saved corefile" OR NOT EXISTS "${CORE}")
    message(FATAL_ERROR "zar-gcore wrote no core:\n${output}\n${errors}")
  endif()
  zar_gdb_batch(output errors checks "${CORE}")
  file(REMOVE "${CORE}")
else()
  set(commands "break zar_gdb_breakpoint_here" "run" ${checks} "continue")
  zar_gdb_batch(output errors commands)
endif()
if(errors MATCHES "Python Exception|Error occurred")
  message(FATAL_ERROR "the helpers raised:\n${output}\n${errors}")
endif()

string(FIND "${output}" "@@WAITER\n" waiter)
string(FIND "${output}" "@@FRESH\n" fresh)
string(FIND "${output}" "@@END\n" end)
if(waiter EQUAL -1 OR fresh EQUAL -1 OR end EQUAL -1)
  message(FATAL_ERROR "gdb stopped before the end of the commands:\n"
    "${output}\n${errors}")
endif()
math(EXPR waiter "${waiter} + 9")
math(EXPR length "${fresh} - ${waiter}")
string(SUBSTRING "${output}" ${waiter} ${length} waiter_bt)
math(EXPR fresh "${fresh} + 8")
math(EXPR length "${end} - ${fresh}")
string(SUBSTRING "${output}" ${fresh} ${length} fresh_bt)

set(expected_waiter
  "^#0  zar::core::Fiber::SwitchTo at [^\n]*\n"
  "(#[0-9]+ +[^\n?]+\n)*"
  "#[0-9]+ +zar::core::PoolAcquire at [^\n]*pool\\.cc:[0-9]+\n"
  "#[0-9]+ +\\(anonymous namespace\\)::AcquireAndRelease at [^\n]*gdb_fixture\\.cc:[0-9]+\n"
  "(#[0-9]+ +[^\n?]+\n)*"
  "#[0-9]+ +zar::core::FiberEntry::Run at [^\n]*fiber\\.cc:[0-9]+\n$")
string(CONCAT expected_waiter ${expected_waiter})
if(NOT waiter_bt MATCHES "${expected_waiter}")
  message(FATAL_ERROR "zar-bt waiter2 printed:\n${waiter_bt}\n"
    "expected the parked acquire's frames down to FiberEntry::Run")
endif()
if(NOT fresh_bt STREQUAL "(no frames: not started)\n")
  message(FATAL_ERROR "zar-bt fresh printed:\n${fresh_bt}")
endif()
if(NOT DEFINED CORE AND NOT output MATCHES "exited normally")
  message(FATAL_ERROR "the fixture did not end cleanly after the "
    "breakpoint:\n${output}\n${errors}")
endif()
message("zar-bt: the parked coroutine's backtrace is whole")
