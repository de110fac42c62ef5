#!/usr/bin/env python3
"""Tests of the conformance runner, zend-async-conformance.

    runner_test.py default RUNNER          no arguments: exit 0, every area
    runner_test.py list RUNNER             --list: every area, no problem
    runner_test.py mapped RUNNER           every behaviour in exactly one area
    runner_test.py filter RUNNER           --filter by area and by name,
                                           --verbose, --in-process
    runner_test.py json RUNNER OUT         --json: valid, the documented keys
    runner_test.py broken RUNNER LIB OUT   --impl of a pool that wakes the
                                           newest waiter: exit 1, the FIFO
                                           behaviours among the failures

Each prints what it checked and exits 1 on the first mismatch.
"""

import json
import os
import re
import subprocess
import sys

AREAS = [
    "registration", "lifecycle", "events and callbacks", "waker",
    "scheduler", "reactor", "pool", "circuit breaker", "healthcheck",
    "PDO pool",
]

# The pool's FIFO behaviours: waiters are served in arrival order, whoever
# leaves the queue. (The no-barging ones still pass: the fault reorders the
# queue, it does not let a releaser take a reserved place.)
FIFO_BEHAVIOURS = [
    "PoolWaitingTest.WaitersServedInOrder",
    "PoolWaitingTest.MultipleWaitersAreAllServedWithTheOneResource",
    "PoolFailureModesTest.TimedOutMiddleWaiterKeepsTheOrderOfTheOthers",
    "PoolFailureModesTest.ReleaserNeverRestealsItsSlotUnderLoad",
]

AREA_LINE = re.compile(
    r"^(?P<area>[A-Za-z ]+): (?P<total>\d+) behaviours?, (?P<passed>\d+) "
    r"passed, (?P<failed>\d+) failed", re.M)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message)


def run(*args):
    result = subprocess.run(list(args), capture_output=True, text=True,
                            check=False)
    sys.stdout.write(result.stdout[-4000:])
    if result.stderr:
        sys.stdout.write("--- stderr (last lines)\n" + result.stderr[-2000:])
    return result


def area_lines(stdout):
    return {m.group("area"): m for m in AREA_LINE.finditer(stdout)}


def test_default(runner):
    result = run(runner)
    check(result.returncode == 0, "exit status 0 (got %d)" % result.returncode)
    lines = area_lines(result.stdout)
    for area in AREAS:
        check(area in lines, "the report has the area " + area)
        check(int(lines[area].group("total")) > 0, area + " has behaviours")
        check(lines[area].group("failed") == "0", area + " has no failure")
    check(result.stdout.rstrip().endswith("ALL PASS"), "last line ALL PASS")
    check("implementation: true_async" in result.stdout,
          "the header names the implementation")


def listed(runner, *extra):
    result = run(runner, "--list", *extra)
    areas = {}
    current = None
    for line in result.stdout.splitlines():
        header = re.match(r"^(?P<area>[A-Za-z ]+): (\d+) behaviours?$", line)
        if header:
            current = header.group("area")
            areas[current] = []
        elif line.startswith("  ") and current is not None:
            areas[current].append(line.strip())
    return result, areas


def test_list(runner):
    result, areas = listed(runner)
    check(result.returncode == 0, "--list exits 0 (got %d)" % result.returncode)
    for area in AREAS:
        check(len(areas.get(area, [])) > 0, "--list shows the area " + area)
    check("PoolWaitingTest.WaitersServedInOrder" in areas["pool"],
          "--list files WaitersServedInOrder under pool")


def test_mapped(runner):
    result, areas = listed(runner)
    check("problem:" not in result.stdout,
          "no unmapped behaviour, no stale area table entry")
    check("unmapped" not in areas, "no behaviour in the unmapped area")
    names = [name for members in areas.values() for name in members]
    check(len(names) == len(set(names)), "no behaviour in two areas")
    total = re.search(r"^(\d+) behaviours?$", result.stdout, re.M)
    check(total is not None and int(total.group(1)) == len(names),
          "every behaviour listed once (%d)" % len(names))
    check(len(names) > 500, "the whole suite is linked in (%d)" % len(names))


def test_filter(runner):
    result = run(runner, "--filter", "circuit-breaker")
    lines = area_lines(result.stdout)
    check(result.returncode == 0, "--filter circuit-breaker exits 0")
    check(list(lines) == ["circuit breaker"],
          "--filter circuit-breaker runs that area only (%s)" % list(lines))

    result = run(runner, "--verbose", "--filter",
                 "PoolWaitingTest.WaitersServedInOrder:*NeverSuspends")
    lines = area_lines(result.stdout)
    check(result.returncode == 0, "--filter by names exits 0")
    check(list(lines) == ["pool"] and lines["pool"].group("total") == "2",
          "--filter by names runs exactly those two")
    check("  PASS PoolWaitingTest.WaitersServedInOrder" in result.stdout,
          "--verbose lists each behaviour with PASS")

    result = run(runner, "--in-process", "--filter", "waker:healthcheck")
    lines = area_lines(result.stdout)
    check(result.returncode == 0, "--in-process exits 0")
    check(list(lines) == ["waker", "healthcheck"],
          "--in-process runs the selected areas (%s)" % list(lines))

    result = run(runner, "--filter", "NoSuchBehaviour")
    check(result.returncode == 2, "a filter that matches nothing exits 2")


def test_json(runner, out):
    result = run(runner, "--filter", "healthcheck:waker", "--json", out)
    check(result.returncode == 0, "--json run exits 0")
    with open(out, encoding="utf-8") as f:
        report = json.load(f)
    print("ok: the JSON file parses")
    for key in ("implementation", "passed", "summary", "areas",
                "run_failures", "problems"):
        check(key in report, "top-level key " + key)
    implementation = report["implementation"]
    check(implementation["name"] == "true_async", "implementation.name")
    for key in ("version", "library", "abi_version"):
        check(key in implementation, "implementation." + key)
    check(report["passed"] is True, "passed is true")
    check([a["name"] for a in report["areas"]] == ["waker", "healthcheck"],
          "the selected areas, in report order")
    for area in report["areas"]:
        for key in ("total", "passed", "failed", "skipped", "behaviours"):
            check(key in area, area["name"] + " has " + key)
        check(area["total"] == len(area["behaviours"]),
              area["name"] + ": total counts its behaviours")
        for behaviour in area["behaviours"]:
            for key in ("name", "status", "file", "line", "failures"):
                if key not in behaviour:
                    fail("%s lacks %s" % (behaviour.get("name"), key))
            if behaviour["status"] != "passed":
                fail(behaviour["name"] + " did not pass")
    summary = report["summary"]
    check(summary["behaviours"] == sum(a["total"] for a in report["areas"]),
          "summary.behaviours is the sum of the areas")


def test_broken(runner, library, out):
    result = run(runner, "--impl", library, "--filter", "pool", "--json", out)
    check(result.returncode == 1, "exit status 1 (got %d)" % result.returncode)
    check(re.search(r"^FAILED: \d+ of \d+", result.stdout, re.M) is not None,
          "the report ends FAILED: n of m")
    library = os.path.abspath(library)
    check(library in result.stdout, "the header names the library")
    with open(out, encoding="utf-8") as f:
        report = json.load(f)
    check(report["passed"] is False, "passed is false")
    check(report["implementation"]["library"] == library,
          "implementation.library is the broken library")
    failed = {}
    for area in report["areas"]:
        for behaviour in area["behaviours"]:
            if behaviour["status"] == "failed":
                failed[behaviour["name"]] = behaviour
    for name in FIFO_BEHAVIOURS:
        check(name in failed, name + " fails")
        details = failed[name]["failures"]
        check(len(details) > 0 and all("message" in d for d in details),
              name + " has failure details")
    order = failed["PoolWaitingTest.WaitersServedInOrder"]["failures"][0]
    check(order.get("expected") == '"0 1 2 3 4 5 0 1 2 3 4 5 0 1 2 3 4 5"',
          "WaitersServedInOrder: expected is the FIFO order")
    check(order.get("actual") != order.get("expected"),
          "WaitersServedInOrder: actual is another order (%s)" %
          order.get("actual"))
    check("PoolAcquireReleaseTest.CoroutineAcquiresAndReleases" not in failed,
          "behaviours without waiters still pass")


def main(argv):
    if len(argv) < 3:
        fail(__doc__)
    mode, runner = argv[1], argv[2]
    if mode == "default":
        test_default(runner)
    elif mode == "list":
        test_list(runner)
    elif mode == "mapped":
        test_mapped(runner)
    elif mode == "filter":
        test_filter(runner)
    elif mode == "json":
        test_json(runner, argv[3])
    elif mode == "broken":
        test_broken(runner, argv[3], argv[4])
    else:
        fail("unknown mode " + mode)


if __name__ == "__main__":
    main(sys.argv)
