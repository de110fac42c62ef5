# Installs the build into a scratch prefix, then configures and builds an
# example extension's own project against it and runs that project's tests
# (its ctest). Invoked by CTest:
#   cmake -DBUILD_DIR=... -DPROJECT_DIR=... -DWORK_DIR=... [-DGENERATOR=...]
#         [-DC_COMPILER=...] [-DCXX_COMPILER=...] [-DBUILD_TYPE=...]
#         -P run_example.cmake
foreach(var BUILD_DIR PROJECT_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}")
  endif()
endfunction()

# The same generator and compilers as the build under test.
set(configure_args -DCMAKE_PREFIX_PATH=${prefix})
if(GENERATOR)
  list(APPEND configure_args -G "${GENERATOR}")
endif()
if(C_COMPILER)
  list(APPEND configure_args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()
if(CXX_COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
if(BUILD_TYPE)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
endif()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
run(${CMAKE_COMMAND} -S "${PROJECT_DIR}" -B "${build}" ${configure_args})
run(${CMAKE_COMMAND} --build "${build}")
run(${CMAKE_CTEST_COMMAND} --test-dir "${build}" --output-on-failure)
