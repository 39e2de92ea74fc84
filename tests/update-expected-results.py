#!/usr/bin/env python3
"""Rewrite tests/SERIES/expected-results.txt (SERIES from the environment,
6.1 by default) from a lane's run (its summary JSON,
build/SERIES/logs/summary-test.json or summary-test-debug.json): the results each
part printed in that lane replace the lane's earlier entries; the other
lanes' entries stay. The ftracetest lines list the tree's .tc files.

Run it only after a run whose every result is right, and read the diff:
a line that goes away is a test that vanished.

    SERIES=7.2 tests/update-expected-results.py --lane test build/7.2/logs/summary-test.json
"""

import argparse
import json
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERIES = os.environ.get("SERIES", "6.1")
LIST = os.path.join(TOP, "tests", SERIES, "expected-results.txt")

HEADER = """\
# The results each part of a lane must print, one a line:
#   <lanes> <part> <result>
# <lanes>: a comma list of the lanes that print it (test, debug) or *.
# <part>: a part of guest/run-tests.sh (kunit, a guest/tests script) or
#   "ftracetest" for the list of the tree's .tc files (each ftracetest
#   category run must report each of its files, and its instance run for
#   files flagged instance).
# <result>: SUITE:NAME of an FTX-RESULT, kunit:SUITE.CASE of a KUnit case,
#   or a .tc file under test.d.
# scripts/parse-results.py fails a planned part that misses one of its
# results, prints one not listed, or prints none; a part listed for a
# lane that the lane's plan does not run (tests/lanes.list, guest/tests);
# and a .tc file listed here and not in the tree (or the reverse). Made
# by tests/update-expected-results.py from a good run: read its diff.
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lane", required=True, choices=["test", "debug"])
    # the series' tree (build/SERIES/linux): its .tc files are the list
    ap.add_argument("--tree", default=os.path.join(TOP, "build", SERIES, "linux"))
    ap.add_argument("summary")
    args = ap.parse_args()
    with open(args.summary) as f:
        summary = json.load(f)
    got = summary["part_results"]
    # the parts the lane's whole plan runs (run-lane.sh --lane-parts): a
    # part it does not run loses its entries for this lane
    plan = summary.get("lane_parts")
    entries = {}  # (part, result) -> set of lanes
    if os.path.exists(LIST):
        with open(LIST) as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
                    continue
                lanes, part, result = line.split(None, 2)
                if part == "ftracetest":
                    continue
                lanes = {"test", "debug"} if lanes == "*" else set(lanes.split(","))
                had = args.lane in lanes
                lanes.discard(args.lane)
                # a part this run did not run (ONLY) keeps its entries for
                # this lane (those it had), if the lane's plan runs it
                if part not in got and had and (plan is None or part in plan):
                    lanes.add(args.lane)
                if lanes:
                    entries[(part, result.strip())] = lanes
    for part, results in got.items():
        if part == "-" or part.startswith("ftracetest:"):
            continue
        for r in results:
            entries.setdefault((part, r), set()).add(args.lane)
    top = os.path.join(args.tree, "tools/testing/selftests/ftrace/test.d")
    tcs = sorted(os.path.relpath(os.path.join(r, f), top)
                 for r, _, fs in os.walk(top) for f in fs if f.endswith(".tc"))
    if not tcs:
        sys.exit("%s: no .tc file under %s (--tree names the series' tree)" % (sys.argv[0], top))
    with open(LIST, "w") as f:
        f.write(HEADER)
        for (part, result), lanes in sorted(entries.items()):
            ln = "*" if lanes == {"test", "debug"} else ",".join(sorted(lanes))
            f.write("%-11s %-16s %s\n" % (ln, part, result))
        for tc in tcs:
            f.write("%-11s %-16s %s\n" % ("*", "ftracetest", tc))
    print("%s: %d results, %d .tc files" % (LIST, len(entries), len(tcs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
