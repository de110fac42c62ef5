# Installs the build into a scratch prefix, then configures and builds a
# consumer project against it and runs its programs. Invoked by CTest:
#   cmake -DBUILD_DIR=... -DPROJECT_DIR=... -DWORK_DIR=... -DPROGRAMS=a;b
#         [-DGENERATOR=...] [-DC_COMPILER=...] [-DCXX_COMPILER=...]
#         -P run_consumer.cmake
foreach(var BUILD_DIR PROJECT_DIR WORK_DIR PROGRAMS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}")
  endif()
endfunction()

# The same generator and compilers as the build under test (a C-only
# project does not use the C++ one).
set(configure_args -DCMAKE_PREFIX_PATH=${prefix} --no-warn-unused-cli)
if(GENERATOR)
  list(APPEND configure_args -G "${GENERATOR}")
endif()
if(C_COMPILER)
  list(APPEND configure_args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()
if(CXX_COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
run(${CMAKE_COMMAND} -S "${PROJECT_DIR}" -B "${WORK_DIR}/build" ${configure_args})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
foreach(program IN LISTS PROGRAMS)
  run("${WORK_DIR}/build/${program}")
endforeach()
