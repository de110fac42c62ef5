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
    runner_test.py model RUNNER LIB [DIFF] --impl of that pool (or of a
                                           seeded fault), --filter "pool
                                           model": the random sequences fail,
                                           with the seed, its replay, the
                                           shrunk sequence and a difference
                                           matching DIFF (a regular
                                           expression; default: the waiter
                                           the model serves first pending)
    runner_test.py adapter RUNNER LIB      --impl of the reference pool built
                                           through the pool adapter
                                           (zend_async_ref_add_conformance_impl):
                                           exit 0, every area, ALL PASS
    runner_test.py usage RUNNER            the command line: --help, -h and
                                           --helpfull,
                                           --flag=value and --flag value,
                                           --in-process and --in_process;
                                           a bad option exits 2 with
                                           Abseil's message and a pointer
                                           to --help
    runner_test.py junit RUNNER LIB OUT    --junit against the reference
                                           (OUT.reference.xml) and the broken
                                           library (OUT.broken.xml): well
                                           formed, counts agree with the text
                                           report, FIFO behaviours are
                                           <failure>s with expected/actual

Each prints what it checked and exits 1 on the first mismatch.
"""

import json
import xml.etree.ElementTree as ElementTree
import os
import re
import subprocess
import sys

AREAS = [
    "registration", "lifecycle", "events and callbacks", "waker",
    "scheduler", "futures", "channels", "iterators", "task groups", "reactor",
    "DNS", "processes", "filesystem events", "async IO", "socket listening",
    "thread pool", "threads", "pool", "circuit breaker", "healthcheck",
    "pool model", "PDO pool",
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


def test_model(runner, library,
               difference=r"actor \d+: expected got \d+, actual pending"):
    result = run(runner, "--impl", library, "--filter", "pool model")
    check(result.returncode == 1, "exit status 1 (got %d)" % result.returncode)
    check("FAIL PoolModelTest.RandomSequencesMatchTheModel" in result.stdout,
          "the model behaviour fails")
    seed = re.search(r"the pool differs from the model, seed (\d+) "
                     r"\(replay: ZAR_POOL_MODEL_SEED=(\d+)", result.stdout)
    check(seed is not None and seed.group(1) == seed.group(2),
          "the failure names its seed and how to replay it")
    shrunk = re.search(r"shrunk from (\d+) to (\d+) ops:", result.stdout)
    check(shrunk is not None and
          0 < int(shrunk.group(2)) <= int(shrunk.group(1)),
          "the failure shows the shrunk sequence")
    check(re.search(r"^ +1\. [a-z]", result.stdout, re.M) is not None,
          "the shrunk sequence is one readable line per operation")
    check(re.search(difference, result.stdout) is not None,
          "the difference is the fault's: " + difference)


def test_adapter(runner, library):
    result = run(runner, "--impl", library)
    check(result.returncode == 0, "exit status 0 (got %d)" % result.returncode)
    check(os.path.abspath(library) in result.stdout,
          "the header names the adapter library")
    lines = area_lines(result.stdout)
    for area in AREAS:
        check(area in lines, "the report has the area " + area)
        check(lines[area]["failed"] == "0", area + ": nothing failed")
    check(result.stdout.rstrip().endswith("ALL PASS"), "the report ends ALL PASS")


def test_usage(runner):
    for flag in ("--help", "-h", "--helpfull"):
        result = run(runner, flag)
        check(result.returncode == 0, flag + " exits 0")
        check(result.stdout.startswith("Usage: zend-async-conformance "),
              flag + " prints the usage text")
        check("--in-process" in result.stdout,
              flag + " documents --in-process")

    for args in (["--filter=waker"], ["--filter", "waker"]):
        result = run(runner, "--list", *args)
        check(result.returncode == 0 and list(listed_areas(result.stdout)) ==
              ["waker"], "%s selects the area" % " ".join(args))

    for spelling in ("--in-process", "--in_process"):
        result = run(runner, spelling, "--filter", "healthcheck")
        check(result.returncode == 0 and
              list(area_lines(result.stdout)) == ["healthcheck"],
              spelling + " runs in process")

    cases = [
        (["--no-such-option"],
         "ERROR: Unknown command line flag 'no-such-option'"),
        (["--timeout", "abc"],
         "ERROR: Illegal value 'abc' specified for flag 'timeout'"),
        (["--impl"], "ERROR: Missing the value for the flag 'impl'"),
        (["--timeout", "0"], "zend-async-conformance: bad --timeout 0"),
        (["stray"], "zend-async-conformance: unknown argument stray"),
    ]
    for args, message in cases:
        result = run(runner, *args)
        check(result.returncode == 2, "%s exits 2 (got %d)" %
              (" ".join(args), result.returncode))
        check(message in result.stderr, "%s says: %s" % (" ".join(args),
                                                         message))
        check("see --help" in result.stderr,
              "%s points to --help" % " ".join(args))


def listed_areas(stdout):
    return [m.group(1) for m in
            re.finditer(r"^([A-Za-z ]+): \d+ behaviours?$", stdout, re.M)]


def junit_cases(path):
    """The parsed document and {(classname, name): testcase}."""
    tree = ElementTree.parse(path)  # raises on a malformed document
    print("ok: %s is well-formed XML" % os.path.basename(path))
    root = tree.getroot()
    cases = {}
    for case in root.iter("testcase"):
        key = (case.get("classname"), case.get("name"))
        if key in cases:
            fail("testcase %s appears twice" % (key,))
        cases[key] = case
    return root, cases


def check_junit_counts(root, stdout):
    check(root.tag == "testsuites", "the root is <testsuites>")
    lines = area_lines(stdout)
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    check(list(suites) == list(lines),
          "one <testsuite> per reported area, in report order")
    for area, counts in lines.items():
        suite = suites[area]
        cases = suite.findall("testcase")
        check(int(suite.get("tests")) == int(counts["total"]) == len(cases),
              area + ": tests= is the area's behaviour count")
        failed = [c for c in cases if c.find("failure") is not None]
        check(int(suite.get("failures")) == int(counts["failed"]) ==
              len(failed),
              area + ": failures= is the area's failed count")
        check(all(c.get("classname") == area for c in cases),
              area + ": every testcase's classname is the area")
    check(int(root.get("tests")) ==
          sum(int(c["total"]) for c in lines.values()),
          "testsuites tests= is the sum of the areas")
    check(int(root.get("failures")) ==
          sum(int(c["failed"]) for c in lines.values()),
          "testsuites failures= is the sum of the areas")


def test_junit(runner, library, out):
    reference_xml = out + ".reference.xml"
    result = run(runner, "--filter", "healthcheck:waker", "--junit",
                 reference_xml)
    check(result.returncode == 0, "--junit run of the reference exits 0")
    root, cases = junit_cases(reference_xml)
    check_junit_counts(root, result.stdout)
    check(int(root.get("failures")) == 0 and int(root.get("errors")) == 0,
          "the reference has no failure and no error")
    check(("waker", "WakerTest.TheWakerIsReusedAndCleanedForEverySuspension")
          in cases, "a testcase is named classname=area, name=behaviour")

    broken_xml = out + ".broken.xml"
    result = run(runner, "--impl", library, "--filter", "pool", "--junit",
                 broken_xml)
    check(result.returncode == 1, "--junit run of the broken pool exits 1")
    root, cases = junit_cases(broken_xml)
    check_junit_counts(root, result.stdout)
    for name in FIFO_BEHAVIOURS:
        case = cases.get(("pool", name))
        check(case is not None, name + " is a testcase of area pool")
        failure = case.find("failure")
        check(failure is not None, name + " has a <failure>")
        check("expected" in failure.get("message") and
              "actual" in failure.get("message"),
              name + ": the message gives expected and actual")
    order = cases[("pool", "PoolWaitingTest.WaitersServedInOrder")]
    failure = order.find("failure")
    check('expected: "0 1 2 3 4 5 0 1 2 3 4 5 0 1 2 3 4 5"' in failure.text,
          "WaitersServedInOrder: the body gives the expected FIFO order")
    check("actual:" in failure.text and
          "tests/pool/waiting_test.cc:" in failure.text,
          "WaitersServedInOrder: the body gives actual and where")
    check(order.find("failure").get("message").startswith("Joined(log): "),
          "the message names the checked expression")
    passed = cases[("pool",
                    "PoolAcquireReleaseTest.CoroutineAcquiresAndReleases")]
    check(len(list(passed)) == 0, "a passing behaviour has no child element")
    # Quotes in the messages came through the escaping: the raw file has
    # them as &quot; inside attributes.
    with open(broken_xml, encoding="utf-8") as f:
        raw = f.read()
    check("&quot;0 1 2 3 4 5" in raw, "quotes in attributes are escaped")


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
    elif mode == "model":
        test_model(runner, *argv[3:5])
    elif mode == "adapter":
        test_adapter(runner, argv[3])
    elif mode == "usage":
        test_usage(runner)
    elif mode == "junit":
        test_junit(runner, argv[3], argv[4])
    else:
        fail("unknown mode " + mode)


if __name__ == "__main__":
    main(sys.argv)
