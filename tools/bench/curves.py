#!/usr/bin/env python3
"""The table and the curves of tools/bench/run.sh.

Reads the JSON reports (Google Benchmark's --benchmark_out, and the Go
peers' in the same layout) of zar_{scheduler,pool,channel}_bench and
zar_go_{scheduler,pool,channel}_bench; prints one Markdown table of
nanoseconds per operation, ours beside Boost.Fiber and Go, and the ratios
ours/Boost.Fiber and ours/Go, per benchmark and size; then, for each swept
benchmark, the ratio at 100,000 coroutines over the ratio at 1,000 (at
most 1.5 is the target). Writes the table as CSV and the curves as a PNG
(matplotlib, Agg backend): nanoseconds per operation against coroutines,
log-log, one panel per swept benchmark, and one of the two-coroutine
benchmarks.

  tools/bench/curves.py --csv TABLE.csv --png CURVES.png [--note TEXT] \\
      REPORT.json...

Per operation: the "cycle" counter when the report has one (seconds per
cycle, round or value), else the real time per iteration; the median when
the benchmark was repeated, else the mean of its runs.
"""

import argparse
import csv
import datetime
import json
import re
import sys

SIZES = [10, 100, 1000, 10000, 100000]

# (title, the x-axis label of a swept benchmark or the coroutines of one
# that is not, ours, Boost.Fiber, Go): benchmark names; "/N" stands for each
# size.
FAMILIES = [
    ("yield round trip, 2 coroutines", 2, "BM_SchedulerYieldRoundTrip",
     "BM_BoostFiberYieldRoundTrip", "BM_GoYieldRoundTrip"),
    ("uncontended acquire + release", 1, "BM_PoolAcquireReleaseUncontended",
     "BM_BoostFiberChannelPopPush", "BM_GoChannelReceiveSend"),
    ("unbuffered channel ping-pong, 2 coroutines", 2, "BM_ChannelPingPong",
     "BM_BoostFiberPingPong", "BM_GoPingPong"),
    ("floor: two yields per round among N", "coroutines",
     "BM_SchedulingFloorTwoYields/N", "BM_BoostFiberFloorTwoYields/N",
     "BM_GoFloorTwoYields/N"),
    ("pool cycle, N coroutines / 8 resources", "coroutines",
     "BM_PoolSharedByCoroutines/N", "BM_BoostFiberSharedByFibers/N",
     "BM_GoPoolSharedByGoroutines/N"),
    ("buffered channel (63), N producers / N consumers", "producers",
     "BM_ChannelManyProducersConsumers/N",
     "BM_BoostFiberManyProducersConsumers/N", "BM_GoManyProducersConsumers/N"),
]
PEERS = ("ours", "Boost.Fiber", "Go")

UNITS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def read(paths):
    """Nanoseconds per operation of each benchmark (its name with the
    argument, without /manual_time), from the reports."""
    medians, runs = {}, {}
    for path in paths:
        with open(path) as report:
            for entry in json.load(report).get("benchmarks", []):
                if entry.get("error_occurred"):
                    continue
                name = re.sub(r"/(manual|real)_time$", "",
                              entry.get("run_name", entry["name"]))
                if "cycle" in entry:
                    ns = entry["cycle"] * 1e9
                else:
                    ns = entry["real_time"] * UNITS[entry.get("time_unit",
                                                              "ns")]
                if entry.get("run_type") == "aggregate":
                    if entry.get("aggregate_name") == "median":
                        medians[name] = ns
                else:
                    runs.setdefault(name, []).append(ns)
    times = {name: sum(values) / len(values) for name, values in runs.items()}
    times.update(medians)
    return times


def swept(axis):
    return isinstance(axis, str)


def rows(times):
    """(family, coroutines, [ours, Boost.Fiber, Go]) for every benchmark
    that ran; a peer that did not run is None."""
    for title, axis, *names in FAMILIES:
        for size in (SIZES if swept(axis) else [axis]):
            values = [times.get(name.replace("/N", "/%d" % size))
                      for name in names]
            if values[0] is None and values[1] is None and values[2] is None:
                continue
            yield title, size, values


def ratio(ours, theirs):
    return ours / theirs if ours and theirs else None


def text(value, digits):
    return "—" if value is None else "%.*f" % (digits, value)


def print_table(times, out):
    print("| benchmark | coroutines | ours ns | Boost.Fiber ns | Go ns "
          "| ours/Boost.Fiber | ours/Go |", file=out)
    print("|---|---:|---:|---:|---:|---:|---:|", file=out)
    for title, size, (ours, fiber, go) in rows(times):
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            title, "{:,}".format(size), text(ours, 1), text(fiber, 1),
            text(go, 1), text(ratio(ours, fiber), 2), text(ratio(ours, go), 2)),
            file=out)
    print(file=out)
    print("Growth of each ratio from 1,000 to 100,000 coroutines "
          "(ratio at 100,000 / ratio at 1,000; target <= 1.5):", file=out)
    for title, axis, ours_name, *peer_names in FAMILIES:
        if not swept(axis):
            continue
        for peer, peer_name in zip(PEERS[1:], peer_names):
            at = {}
            for size in (1000, 100000):
                at[size] = ratio(times.get(ours_name.replace("/N", "/%d" % size)),
                                 times.get(peer_name.replace("/N", "/%d" % size)))
            if at[1000] is None or at[100000] is None:
                continue
            growth = at[100000] / at[1000]
            print("  %-50s vs %-11s %.2f -> %.2f: %.2f%s" % (
                title, peer, at[1000], at[100000], growth,
                "" if growth <= 1.5 else "  (above 1.5)"), file=out)


def write_csv(times, path):
    with open(path, "w", newline="") as table:
        writer = csv.writer(table)
        writer.writerow(["benchmark", "coroutines", "ours_ns",
                         "boost_fiber_ns", "go_ns", "ours_over_boost_fiber",
                         "ours_over_go"])
        for title, size, (ours, fiber, go) in rows(times):
            writer.writerow([title, size] + [
                "" if value is None else "%.4g" % value for value in
                (ours, fiber, go, ratio(ours, fiber), ratio(ours, go))])


def draw(times, path, note):
    """Draws the curves into `path`; False when matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        print("no matplotlib for %s (Debian: python3-matplotlib; run.sh: "
              "PYTHON names the interpreter)" % sys.executable, file=sys.stderr)
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles = {"ours": ("tab:blue", "o"), "Boost.Fiber": ("tab:orange", "s"),
              "Go": ("tab:green", "^")}
    curves = [family for family in FAMILIES if swept(family[1])]
    fixed = [family for family in FAMILIES if not swept(family[1])]
    figure, axes = plt.subplots(2, 2, figsize=(12, 9))
    for panel, (title, axis, *names) in zip(axes.flat, curves):
        for peer, name in zip(PEERS, names):
            points = [(size, times.get(name.replace("/N", "/%d" % size)))
                      for size in SIZES]
            points = [(x, y) for x, y in points if y]
            if not points:
                continue
            color, marker = styles[peer]
            panel.plot([x for x, _ in points], [y for _, y in points],
                       marker=marker, color=color, label=peer)
        panel.set_xscale("log")
        panel.set_yscale("log")
        panel.set_title(title, fontsize=10)
        panel.set_xlabel(axis)
        panel.set_ylabel("ns per operation")
        panel.grid(True, which="both", alpha=0.3)
        panel.legend()
    bars = axes.flat[len(curves)]
    width = 0.27
    for index, peer in enumerate(PEERS):
        values = [times.get(names[index]) or 0 for _, _, *names in fixed]
        color, _ = styles[peer]
        bars.bar([i + (index - 1) * width for i in range(len(fixed))], values,
                 width, color=color, label=peer)
    bars.set_xticks(range(len(fixed)))
    bars.set_xticklabels([title.replace(", 2 coroutines", "\n(2 coroutines)")
                          .replace(" + ", "\n+ ") for title, *_ in fixed],
                         fontsize=8)
    bars.set_yscale("log")
    bars.set_ylabel("ns per operation")
    bars.set_title("two coroutines (and no contention)", fontsize=10)
    bars.grid(True, axis="y", alpha=0.3)
    bars.legend()
    figure.suptitle("zend-async-ref beside Boost.Fiber and Go (GOMAXPROCS=1): "
                    "%s, %s" % (note, datetime.date.today().isoformat()),
                    fontsize=11)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--csv", required=True)
    parser.add_argument("--png", required=True)
    parser.add_argument("--note", default="one CPU")
    args = parser.parse_args()
    times = read(args.reports)
    print_table(times, sys.stdout)
    write_csv(times, args.csv)
    if not draw(times, args.png, args.note):
        return 1
    print("\ntable: %s; curves: %s" % (args.csv, args.png))
    return 0


if __name__ == "__main__":
    sys.exit(main())
