#!/usr/bin/env bash
# Configures a Clang fuzz build (libFuzzer + ASan + UBSan) and runs fuzz
# targets of tools/fuzz for a given time each, one after the other,
# merging the new inputs they find into the committed corpus
# (tools/fuzz/corpus/<target>/, kept small by libFuzzer's -merge=1).
#
#   tools/fuzz/run.sh                      # every target, 600 s each
#   tools/fuzz/run.sh 900 sql dsn          # these targets, 900 s each
#   ZAR_FUZZ_JOBS=2 tools/fuzz/run.sh 60   # two fuzzing processes per target
#
# Targets: pool_sequence, dsn, sql. The build goes to $ZAR_FUZZ_BUILD_DIR
# (default build-fuzz). Each run's log is <build>/fuzz-<target>.log; its
# last "stat" lines give the executions and the seconds it ran. New inputs
# are first collected in <build>/fuzz-new/<target>/ and merged into the
# corpus only when the run ended without a crash. A crash stops the script
# with libFuzzer's report; the input is saved as <build>/crash-<target>-*
# (replay it: <build>/tools/fuzz/zar_fuzz_<target> FILE, or with the
# replay driver of any build: build/tools/fuzz/zar_fuzz_replay_<target>
# FILE).
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-600}"
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(pool_sequence dsn sql); fi
build_dir="${ZAR_FUZZ_BUILD_DIR:-build-fuzz}"
jobs="${ZAR_FUZZ_JOBS:-1}"

CC="${CC:-clang}" CXX="${CXX:-clang++}" cmake -S . -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DZAR_FUZZ=ON -DZAR_SANITIZE=ON \
  -DZAR_BUILD_TESTS=OFF >/dev/null
cmake --build "$build_dir" -j"$(nproc)" \
  --target "${targets[@]/#/zar_fuzz_}"

# libFuzzer's -jobs writes each job's output to ./fuzz-<n>.log: only when
# asked for more than one.
parallel=()
if ((jobs > 1)); then parallel=(-jobs="$jobs" -workers="$jobs"); fi

for target in "${targets[@]}"; do
  corpus="tools/fuzz/corpus/$target"
  new="$build_dir/fuzz-new/$target"
  log="$build_dir/fuzz-$target.log"
  mkdir -p "$corpus" "$new"
  echo "::: $target for ${seconds}s (log: $log)"
  # Leaks are the request's leak check's job (it aborts on one); the
  # engine's process-long allocations are not leaks.
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$build_dir/tools/fuzz/zar_fuzz_$target" "$new" "$corpus" \
      -max_total_time="$seconds" "${parallel[@]}" \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build_dir/crash-$target-" >"$log" 2>&1 || {
    echo "$target: crashed or failed; the end of $log:"
    tail -n 60 "$log"
    exit 1
  }
  grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|Done)" "$log" || true
  # Only inputs that reach code the corpus does not reach yet join it
  # (edges, not hit counts: -use_counters=0 keeps it to a few hundred).
  ASAN_OPTIONS="detect_leaks=0" \
  "$build_dir/tools/fuzz/zar_fuzz_$target" -merge=1 -use_counters=0 \
    "$corpus" "$new" \
    >"$build_dir/fuzz-$target-merge.log" 2>&1
  echo "$target: corpus has $(ls "$corpus" | wc -l) inputs"
done
