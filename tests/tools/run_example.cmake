# Installs the build into a scratch prefix, then configures and builds an
# example extension's own project against it and runs that project's tests
# (its ctest). Invoked by CTest:
#   cmake -DBUILD_DIR=... -DPROJECT_DIR=... -DWORK_DIR=... [-DGENERATOR=...]
#         [-DC_COMPILER=...] [-DCXX_COMPILER=...] [-DBUILD_TYPE=...]
#         -P run_example.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/consumer_project.cmake)

run(${CMAKE_CTEST_COMMAND} --test-dir "${build}" --output-on-failure)
