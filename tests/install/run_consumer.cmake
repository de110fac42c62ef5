# Installs the build into a scratch prefix, then configures and builds a
# consumer project against it and runs its programs. Invoked by CTest:
#   cmake -DBUILD_DIR=... -DPROJECT_DIR=... -DWORK_DIR=... -DPROGRAMS=a;b
#         [-DGENERATOR=...] [-DC_COMPILER=...] [-DCXX_COMPILER=...]
#         -P run_consumer.cmake
if(NOT DEFINED PROGRAMS)
  message(FATAL_ERROR "PROGRAMS is required")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/consumer_project.cmake)

foreach(program IN LISTS PROGRAMS)
  run("${build}/${program}")
endforeach()
