#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine for zend-async-ref and builds it:
# installs the build dependencies (Debian packages only), configures with
# CMake and builds into ./build (or $ZAR_BUILD_DIR).
#
#   tools/setup.sh                 # RelWithDebInfo build in ./build
#   ZAR_BUILD_DIR=build-asan tools/setup.sh -DZAR_SANITIZE=ON
#   CC=clang CXX=clang++ ZAR_BUILD_DIR=build-clang tools/setup.sh
#   ZAR_WERROR=OFF tools/setup.sh  # warnings stay warnings
#   ZAR_BUILD_TARGETS="zar_thread_pool_test" tools/setup.sh  # only those
#
# This is the developer's setup: warnings are errors (-DZAR_WERROR=ON)
# unless ZAR_WERROR=OFF. A plain CMake build, as a user packaging the
# project does it, leaves them warnings. CMAKE_BUILD_TYPE picks the build
# type; CC and CXX the compilers (a clang one is installed when named).
# Extra arguments are passed to the CMake configure step.
#
# MariaDB Connector/C (libmariadb-dev) builds PDO's "mysql" driver; its tests
# start a private server of their own from mariadb-server's binaries (never
# the system's service, which the package's installation may leave running or
# not: nothing here depends on it).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libabsl-dev libuv1-dev libboost-context-dev libboost-fiber-dev libsqlite3-dev
  clang-format gdb python3
  libmariadb-dev mariadb-server
)
# The benchmark build (-DZAR_BUILD_BENCHMARKS=ON) also gets the Go peers'
# toolchain, tools/bench/run.sh's plotting and the PDO pool's yardstick:
# Debian's golang-go, python3-matplotlib and sysbench.
for arg in "$@"; do
  if [[ "$arg" =~ ^-DZAR_BUILD_BENCHMARKS(:BOOL)?=(ON|on|1|TRUE|true|YES|yes)$ ]]; then
    packages+=(golang-go python3-matplotlib sysbench)
  fi
done
# A Clang named in CC or CXX comes from its Debian package: clang++-14 is
# in clang-14, clang++ in clang.
for compiler in "${CC:-}" "${CXX:-}"; do
  name="$(basename "$compiler")"
  if [[ "$name" == clang* ]]; then packages+=("${name/++/}"); fi
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

build_dir="${ZAR_BUILD_DIR:-build}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" \
  -DZAR_WERROR="${ZAR_WERROR:-ON}" "$@"
# ZAR_BUILD_TARGETS (space-separated) builds only those targets.
targets=()
for target in ${ZAR_BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j"$(nproc)" "${targets[@]}"
