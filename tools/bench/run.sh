#!/usr/bin/env bash
# Runs every benchmark of a build pinned to one CPU, ours beside its
# Boost.Fiber and Go peers in the same run, and prints one table of
# nanoseconds per operation and the ratios ours/Boost.Fiber and ours/Go per
# benchmark and size (a Markdown table, on stdout), then how each ratio
# grows from 1,000 to 100,000 coroutines; writes the table as CSV and draws
# the curves (nanoseconds per operation against coroutines, log-log) as a
# PNG. Builds nothing.
#
#   tools/bench/run.sh BUILD_DIR CURVES.png [TABLE.csv]
#   CPU=0 REPETITIONS=5 MIN_TIME=1 tools/bench/run.sh build docs/performance.png
#
# BUILD_DIR is a build with -DZAR_BUILD_BENCHMARKS=ON (RelWithDebInfo or
# Release); its Go peers are there when Go was found (tools/setup.sh
# installs it for the benchmark build), and left out of the table when not.
# TABLE.csv defaults to CURVES.png with .csv for .png. CPU is the CPU the
# runs are pinned to (taskset -c; 1 unless given), REPETITIONS the
# repetitions of each benchmark, whose median is reported (3), MIN_TIME
# the least seconds a repetition runs (0.5), PYTHON the interpreter that
# draws (python3; it needs matplotlib, Debian's python3-matplotlib). The
# sweep takes about six minutes (3 repetitions, 0.5 s).
set -euo pipefail

if (($# < 2 || $# > 3)); then
  echo "usage: $0 BUILD_DIR CURVES.png [TABLE.csv]" >&2
  exit 2
fi
build="$1"
png="$2"
csv="${3:-${png%.png}.csv}"
here="$(cd "$(dirname "$0")" && pwd)"
bench="$build/tools/bench"

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

flags=(
  --benchmark_repetitions="${REPETITIONS:-3}"
  --benchmark_report_aggregates_only=true
  --benchmark_min_time="${MIN_TIME:-0.5}"
  --benchmark_out_format=json
)
# The benchmark programs' own report goes to stderr: stdout is the table.
for family in scheduler pool channel; do
  for program in "zar_${family}_bench" "go/zar_go_${family}_bench"; do
    if [[ ! -x "$bench/$program" ]]; then
      if [[ "$program" == go/* ]]; then
        echo "$program: not built (no Go found), left out" >&2
        continue
      fi
      echo "$bench/$program: not built (-DZAR_BUILD_BENCHMARKS=ON)" >&2
      exit 1
    fi
    echo "::: taskset -c ${CPU:-1} $program" >&2
    taskset -c "${CPU:-1}" "$bench/$program" "${flags[@]}" \
      --benchmark_out="$results/$(basename "$program").json" >&2
  done
done

"${PYTHON:-python3}" "$here/curves.py" --csv "$csv" --png "$png" \
  --note "pinned to CPU ${CPU:-1}, medians of ${REPETITIONS:-3}" \
  "$results"/*.json
