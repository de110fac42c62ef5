#!/usr/bin/env python3
"""Instructions and data-cache misses per operation of each benchmark.

Runs every benchmark of zar_scheduler_bench, zar_pool_bench,
zar_channel_bench and zar_io_bench under Callgrind with its cache
simulation (valgrind --tool=callgrind --cache-sim=yes) and prints, per
operation (a round trip, an acquire+release, a round or cycle of the
N-coroutine workloads, a value through the buffered channel, an echoed
message), the instructions executed, the simulated L1 and L2 data misses
(reads and writes) and the context switches (calls of Boost.Context's
jump_fcontext and ontop_fcontext, which the schedulers switch with). The
cache simulated is the machine's L1d and L2 (--d1, --ll; the defaults are
an AMD Zen 5 core: 48 KiB 12-way L1d, 1 MiB 16-way L2; the L3 is not
simulated). Counts are deterministic; they are not times.

Operations are counted two ways. A benchmark of a short operation runs it
many times, calibration runs included: its operations are the calls
Callgrind records to a function each makes a known number of times (the
ABI's suspend, Boost.Fiber's context::yield, the pool's acquire, the
channel's push, libuv's uv_write); a call that is a context switch arriving is not one. A
benchmark whose iteration is a whole workload (N coroutines, 10^6 rounds,
cycles or values at every N of the sweep, BM_PoolSharedByCoroutines/N)
runs one iteration, which the benchmark library reports; N is 1,000 unless
--size names another size of the sweep (10 to 100,000). What the process does
besides (start-up, the engine) is measured by a run that matches no
benchmark and subtracted; a benchmark's own set-up (an engine, a request,
N spawns) is left in, a few instructions per operation at 1,000.

  tools/bench/count_events.py BUILD_DIR [--size 1000] [--filter REGEX]
      [--d1 49152,12,64] [--ll 1048576,16,64]

--filter keeps the benchmarks whose names it matches (all unless given).

BUILD_DIR is a build with -DZAR_BUILD_BENCHMARKS=ON (RelWithDebInfo or
Release). Takes a few minutes: Callgrind runs code ~50 times slower.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

SUSPEND = "zar::core::Suspend(bool, bool)"
ACQUIRE = "zar::core::PoolAcquire("
YIELD = "boost::fibers::context::yield()"
PUSH = "boost::fibers::buffered_channel<int>::push("
UV_WRITE = "uv_write"  # an echo writes twice: there and back

# (binary, benchmark, operation, the counted function and its calls per
# operation, or None and the operations per iteration); "/N" is the size.
BENCHMARKS = [
    ("zar_scheduler_bench", "BM_SchedulerYieldRoundTrip", "round trip",
     SUSPEND, 2),
    ("zar_scheduler_bench", "BM_BoostFiberYieldRoundTrip", "round trip",
     YIELD, 2),
    ("zar_pool_bench", "BM_PoolAcquireReleaseUncontended", "acquire+release",
     ACQUIRE, 1),
    ("zar_pool_bench", "BM_BoostFiberChannelPopPush", "pop+push", PUSH, 1),
    ("zar_pool_bench", "BM_SchedulingFloorTwoYields/N", "round",
     None, 1000 * 1000),
    ("zar_pool_bench", "BM_BoostFiberFloorTwoYields/N", "round",
     None, 1000 * 1000),
    ("zar_pool_bench", "BM_PoolSharedByCoroutines/N", "cycle",
     None, 1000 * 1000),
    ("zar_pool_bench", "BM_BoostFiberSharedByFibers/N", "cycle",
     None, 1000 * 1000),
    ("zar_channel_bench", "BM_ChannelPingPong", "round trip", None, 100000),
    ("zar_channel_bench", "BM_BoostFiberPingPong", "round trip", None,
     100000),
    ("zar_channel_bench", "BM_ChannelManyProducersConsumers/N", "value",
     None, 1000 * 1000),
    ("zar_channel_bench", "BM_BoostFiberManyProducersConsumers/N", "value",
     None, 1000 * 1000),
    ("zar_io_bench", "BM_AbiEcho", "message", UV_WRITE, 2),
    ("zar_io_bench", "BM_LibuvEcho", "message", UV_WRITE, 2),
]

EVENTS = ("Ir", "D1mr", "D1mw", "DLmr", "DLmw")

SWITCHES = re.compile(r"SwitchTo|jump_fcontext|ontop_fcontext|resume")
# Both schedulers switch stacks with Boost.Context (ours with
# jump_fcontext, Boost.Fiber with ontop_fcontext): a call of either is one
# context switch.
JUMP = re.compile(r"(jump|ontop)_fcontext")


def number(text):
    return int(text.replace(",", ""))


def read_profile(path, counted):
    """Program totals of EVENTS, the calls to functions whose name contains
    `counted` (None: none) and the context switches, from a Callgrind
    profile."""
    names = {}  # compressed name id -> name ("fn=(3) name", then "fn=(3)")

    def name_of(value):
        found = re.match(r"\((\d+)\)(?: (.*))?", value)
        if not found:
            return value
        if found.group(2) is not None:
            names[found.group(1)] = found.group(2)
        return names.get(found.group(1), "")

    events, totals, calls, jumps = None, None, 0, 0
    caller, callee = "", ""
    with open(path) as profile:
        for line in profile:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:") or line.startswith("totals:"):
                values = [int(value) for value in line.split()[1:]]
                totals = {name: values[events.index(name)] for name in EVENTS}
            elif line.startswith("fn="):
                caller = name_of(line[3:].strip())
            elif line.startswith("cfn="):
                callee = name_of(line[4:].strip())
            elif line.startswith("calls="):
                made = int(line[6:].split()[0])
                if JUMP.search(callee):
                    jumps += made
                # A context switch shows as a call from the frame switched
                # from: not a call of the function.
                if (counted is not None and counted in callee and
                        not SWITCHES.search(caller)):
                    calls += made
    return totals, calls, jumps


def run(build, binary, pattern, counted, d1, ll):
    """Program totals of EVENTS, the calls to `counted`, the context
    switches and the iterations of the benchmark's final run, for one
    run."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        report = os.path.join(scratch, "report.json")
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--cache-sim=yes",
             "--D1=" + d1, "--LL=" + ll, "--callgrind-out-file=" + out,
             os.path.join(build, "tools", "bench", binary),
             "--benchmark_filter=" + pattern, "--benchmark_min_time=0.5",
             "--benchmark_out=" + report, "--benchmark_out_format=json"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        totals, calls, jumps = read_profile(out, counted)
        with open(report) as data:
            text = data.read()  # empty when no benchmark matched
    runs = json.loads(text).get("benchmarks", []) if text else []
    iterations = runs[0]["iterations"] if runs else 0
    return totals, calls, jumps, iterations


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--filter", default="")
    parser.add_argument("--d1", default="49152,12,64")
    parser.add_argument("--ll", default="1048576,16,64")
    args = parser.parse_args()

    baselines = {}
    print("%-40s %16s %14s %12s %12s %10s" % ("benchmark", "operation",
                                                "instructions", "L1d misses",
                                                "L2 misses", "switches"))
    for binary, name, operation, counted, per in BENCHMARKS:
        name = name.replace("/N", "/%d" % args.size)
        if not re.search(args.filter, name):
            continue
        if binary not in baselines:
            base_totals, _, base_jumps, _ = run(args.build, binary, "^$",
                                                None, args.d1, args.ll)
            baselines[binary] = (base_totals, base_jumps)
        base, base_jumps = baselines[binary]
        totals, calls, jumps, iterations = run(args.build, binary,
                                        "^%s(/|$)" % re.escape(name), counted,
                                        args.d1, args.ll)
        operations = calls / per if counted is not None else iterations * per
        if operations == 0:
            print("%-40s: no operation counted" % name, file=sys.stderr)
            continue
        instructions = (totals["Ir"] - base["Ir"]) / operations
        misses = {level: (totals[level + "mr"] + totals[level + "mw"] -
                          base[level + "mr"] - base[level + "mw"]) / operations
                  for level in ("D1", "DL")}
        switches = (jumps - base_jumps) / operations
        print("%-40s %16s %14.1f %12.2f %12.2f %10.2f" % (
            name, operation, instructions, misses["D1"], misses["DL"],
            switches), flush=True)


if __name__ == "__main__":
    main()
