# Shared by the script-mode tests that build a project against the
# installed tree (tests/install/run_consumer.cmake,
# tests/tools/run_example.cmake): included, it checks BUILD_DIR, PROJECT_DIR
# and WORK_DIR, installs BUILD_DIR into a fresh ${WORK_DIR}/prefix, and
# configures and builds PROJECT_DIR in ${WORK_DIR}/build with the generator,
# compilers and build type of the build under test (GENERATOR, C_COMPILER,
# CXX_COMPILER, BUILD_TYPE, each optional). It defines run(<command...>),
# which fails the script when the command fails, and `build` (the consumer's
# build folder).
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

# A C-only project does not use the C++ compiler: no warning for it.
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
if(BUILD_TYPE)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
endif()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
run(${CMAKE_COMMAND} -S "${PROJECT_DIR}" -B "${build}" ${configure_args})
run(${CMAKE_COMMAND} --build "${build}")
