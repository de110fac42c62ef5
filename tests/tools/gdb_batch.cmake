# zar_gdb_batch(<output-var> <errors-var> <commands-var> [<core>]): runs
# PROGRAM (or opens <core>, a core file of it) under `gdb -batch -nx` with
# the helpers (SCRIPT) loaded and the commands of the list <commands-var>,
# leaving what gdb printed on stdout and stderr in the two variables. A
# macro, so that where gdb is missing or may not trace processes (ptrace) it
# prints "ZAR_SKIP:" (the test then counts as skipped) and returns from the
# calling script; a gdb that fails otherwise fails the test.
# Including it requires PROGRAM (the fixture) and SCRIPT (the helpers).
foreach(var PROGRAM SCRIPT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is required")
  endif()
endforeach()

macro(zar_gdb_batch output_var errors_var commands_var)
  if(NOT GDB)
    message("ZAR_SKIP: gdb was not found")
    return()
  endif()
  set(_zar_gdb_args -batch -nx
    -iex "set debuginfod enabled off"
    -iex "set pagination off"
    -iex "set width 0"
    -ex "source ${SCRIPT}")
  foreach(_zar_gdb_command IN LISTS ${commands_var})
    list(APPEND _zar_gdb_args -ex "${_zar_gdb_command}")
  endforeach()
  execute_process(
    COMMAND "${GDB}" ${_zar_gdb_args} "${PROGRAM}" ${ARGN}
    OUTPUT_VARIABLE ${output_var}
    ERROR_VARIABLE ${errors_var}
    RESULT_VARIABLE _zar_gdb_rc)
  if("${${output_var}}${${errors_var}}" MATCHES
     "ptrace: Operation not permitted")
    message("ZAR_SKIP: gdb may not trace processes here (ptrace)")
    return()
  endif()
  if(NOT _zar_gdb_rc EQUAL 0)
    message(FATAL_ERROR "gdb failed (${_zar_gdb_rc}):\n"
      "${${output_var}}\n${${errors_var}}")
  endif()
endmacro()
