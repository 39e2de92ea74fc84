#!/usr/bin/env python3
"""Turn one guest run into a per-suite table and a closing line.

Reads the console log (kernel messages, KTAP from KUnit, test output), the
results channel (FTX-RESULT lines and ftracetest's own logs, written by the
guest to ttyS1) and optional host-side result files. Prints a table, the
failures with their details, and ends with "N passed, N failed" (plus
", N skipped" when there are skips). Exits 1 on any failure.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"

# Kernel reports that fail a run wherever they appear on the console. A
# printk can land in the middle of a line of test output, so search anywhere.
SPLATS = [
    r"WARNING: CPU: \d+ PID: \d+",
    r"WARNING: .* at .*",
    r"BUG: ",
    r"kernel BUG at",
    r"Oops: ",
    r"general protection fault",
    r"Kernel panic - not syncing",
    r"INFO: possible recursive locking detected",
    r"WARNING: possible circular locking dependency detected",
    r"WARNING: suspicious RCU usage",
    r"inconsistent lock state",
    r"INFO: rcu_(sched|preempt|tasks).* (self-)?detected stall",
    r"rcu: INFO: rcu_(sched|preempt).* (self-)?detected stall",
    r"INFO: task .* blocked for more than",
    r"watchdog: BUG: soft lockup",
    r"KASAN: ",
    r"KFENCE: ",
    r"UBSAN: ",
    r"unreferenced object 0x",
    r"list_(add|del) corruption",
    r"ODEBUG: ",
]
SPLAT_RE = re.compile(r"\[\s*\d+\.\d+\]\s.*?(" + "|".join(SPLATS) + ")")


class Results:
    def __init__(self):
        self.cases = []  # (suite, name, status, detail)
        self.times = {}  # suite -> seconds
        self.notes = []

    def add(self, suite, name, status, detail=""):
        self.cases.append((suite, name, status, detail))


def read_lines(path):
    if not path or not os.path.exists(path):
        return []
    with open(path, errors="replace") as f:
        return [l.rstrip("\r\n").replace("\r", "") for l in f]


def ftracetest_index(tree):
    """(category, description) -> test file relative to test.d."""
    index = {}
    top = os.path.join(tree, "tools/testing/selftests/ftrace/test.d")
    for root, _, files in os.walk(top):
        for fn in files:
            if not fn.endswith(".tc"):
                continue
            path = os.path.join(root, fn)
            rel = os.path.relpath(path, top)
            with open(path, errors="replace") as f:
                for line in f:
                    m = re.match(r"#\s*description:(.*)", line)
                    if m:
                        cat = os.path.dirname(rel)
                        index[(cat, m.group(1).strip())] = rel
                        break
    return index


def read_xfail(path):
    """Known failures on the pristine base: 'file.tc[ (instance)]  reason'."""
    xfail = {}
    for line in read_lines(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"(\S+\.tc(?: \(instance\))?)\s+(.*)", line)
        if not m:
            m = re.match(r"(\S+\.tc)(.*)", line)
        xfail[m.group(1)] = m.group(2).strip()
    return xfail


FT_LINE = re.compile(
    r"^\[(\d+)\](.*?)\s*\[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\]\s*$")


def parse_kmemleak(lines, res, symbols, tag):
    """kmemleak's report between FTX-KMEMLEAK-BEGIN/END: fail on leaks whose
    backtrace runs through tracing code, the samples or the series."""
    inside, reports, cur = False, [], None
    for line in lines:
        if line.startswith("FTX-KMEMLEAK-BEGIN"):
            inside = True
            continue
        if line.startswith("FTX-KMEMLEAK-END"):
            inside = False
            continue
        if not inside:
            continue
        if line.startswith("unreferenced object"):
            cur = [line]
            reports.append(cur)
        elif cur is not None:
            cur.append(line)
    if not lines or not any(l.startswith("FTX-KMEMLEAK-BEGIN") for l in lines):
        return None
    ours = []
    for rep in reports:
        frames = [m.group(1) for m in (re.search(r"\] ([A-Za-z0-9_.]+)\+0x", l) for l in rep) if m]
        if any(f in symbols for f in frames):
            ours.append(rep)
    if ours:
        res.add("kmemleak", "no-leak-in-tracing" + tag, FAIL,
                "%d leaks in tracing code, samples or the series:\n%s"
                % (len(ours), "\n".join("\n".join(r[:14]) for r in ours[:3])))
    else:
        res.add("kmemleak", "no-leak-in-tracing" + tag, PASS,
                "%d suspected leaks elsewhere" % len(reports) if reports else "")
    return len(reports), len(ours)


def parse_results_channel(lines, res, index, xfail, seen_xfail):
    cat = None
    totals = collections.OrderedDict()
    for line in lines:
        m = re.match(r"FTX-(FUZZ|STRESS) (.*)", line)
        if m:
            res.notes.append("%s: %s" % (m.group(1).lower(), m.group(2)))
            continue
        m = re.match(r"FTX-RESULT (\S+) (\S+) (PASS|FAIL|SKIP)\s*(.*)", line)
        if m:
            res.add(m.group(1), m.group(2), m.group(3), m.group(4))
            continue
        m = re.match(r"FTX-TIME (\S+) (\d+)", line)
        if m:
            res.times[m.group(1)] = res.times.get(m.group(1), 0) + int(m.group(2))
            continue
        m = re.match(r"FTX-FTRACETEST-BEGIN (\S+) rc=(\d+) secs=(\d+)", line)
        if m:
            cat = m.group(1)
            res.times["ftracetest/" + cat] = int(m.group(3))
            totals[cat] = {}
            continue
        if line.startswith("FTX-FTRACETEST-END"):
            cat = None
            continue
        if cat is None:
            continue
        m = re.match(r"# of ([a-z()\s]+):\s+(\d+)", line)
        if m:
            totals[cat][m.group(1).strip()] = int(m.group(2))
            continue
        m = FT_LINE.match(line)
        if not m:
            continue
        num, desc, status = m.groups()
        instance = "(instance)" in desc
        desc = desc.replace("(instance)", "").strip()
        rel = index.get((cat, desc)) or index.get((cat.split("/")[0], desc))
        tid = (rel or "%s/[%s] %s" % (cat, num, desc)) + (" (instance)" if instance else "")
        suite = "ftracetest/" + cat
        if status in ("PASS", "XFAIL"):
            res.add(suite, tid, PASS, "xfail (test's expected outcome)" if status == "XFAIL" else "")
        elif status in ("UNSUPPORTED", "UNTESTED"):
            res.add(suite, tid, SKIP, status)
        elif tid in xfail:
            seen_xfail.add(tid)
            res.add(suite, tid, SKIP, "known base failure: " + xfail[tid])
        else:
            res.add(suite, tid, FAIL, status)
    return totals


def parse_kunit(tree, console, res):
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        p = subprocess.run(
            [sys.executable, os.path.join(tree, "tools/testing/kunit/kunit.py"),
             "parse", "--json=" + tmp.name, os.path.abspath(console)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            with open(tmp.name) as f:
                data = json.load(f)
        except (OSError, ValueError):
            res.add("kunit", "parse", FAIL, "kunit.py parse failed:\n" + p.stdout[-2000:])
            return
    n = 0

    def walk(group, prefix):
        nonlocal n
        for sub in group.get("sub_groups", []):
            walk(sub, prefix + sub["name"] + ".")
            if not sub.get("test_cases") and not sub.get("sub_groups"):
                res.add("kunit", prefix + sub["name"], FAIL, "suite ran no test")
        for tc in group.get("test_cases", []):
            n += 1
            st = tc["status"]
            name = prefix + tc["name"]
            if st == "PASS":
                res.add("kunit", name, PASS)
            elif st == "SKIP":
                res.add("kunit", name, SKIP, "skipped by the test")
            else:
                res.add("kunit", name, FAIL, st)

    walk(data, "")
    if n == 0:
        res.add("kunit", "results", FAIL, "no KUnit results on the console (KTAP not found)")


def scan_console(lines, res, expect_done, tag=""):
    splats = []
    for i, line in enumerate(lines):
        if SPLAT_RE.search(line):
            splats.append(i)
    if splats:
        shown = []
        for i in splats[:5]:
            shown.extend(lines[max(0, i - 2):i + 25])
            shown.append("...")
        res.add("console", "no-kernel-splat" + tag, FAIL,
                "%d kernel report(s) on the console:\n%s" % (len(splats), "\n".join(shown)))
    else:
        res.add("console", "no-kernel-splat" + tag, PASS)
    if expect_done:
        if any("FTX-DONE" in l for l in lines):
            res.add("console", "guest-finished" + tag, PASS)
        else:
            res.add("console", "guest-finished" + tag, FAIL,
                    "no FTX-DONE: the guest died or timed out. Last lines:\n" + "\n".join(lines[-30:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--console", action="append", default=[],
                    help="console log of a guest (repeat for several guests)")
    ap.add_argument("--results", action="append", default=[],
                    help="results channel of the guest, in the same order")
    ap.add_argument("--tree", required=True)
    ap.add_argument("--xfail")
    ap.add_argument("--host", action="append", default=[], help="host FTX-RESULT file")
    ap.add_argument("--no-kunit", action="store_true")
    ap.add_argument("--kmemleak-symbols",
                    help="functions whose leaks fail the run (one per line)")
    ap.add_argument("--summary-json")
    args = ap.parse_args()

    res = Results()
    for h in args.host:
        parse_results_channel(read_lines(h), res, {}, {}, set())

    totals = {}
    if args.console:
        # KUnit runs at every boot: count it once, from the first guest.
        if not args.no_kunit:
            parse_kunit(args.tree, args.console[0], res)
        index = ftracetest_index(args.tree)
        xfail = read_xfail(args.xfail)
        seen = set()
        for i, con in enumerate(args.console):
            tag = ":" + os.path.basename(con).rsplit(".", 1)[0] if len(args.console) > 1 else ""
            results = args.results[i] if i < len(args.results) else None
            totals.update(parse_results_channel(read_lines(results), res, index, xfail, seen))
            scan_console(read_lines(con), res, True, tag)
            if args.kmemleak_symbols:
                syms = set(read_lines(args.kmemleak_symbols))
                km = parse_kmemleak(read_lines(results), res, syms, tag)
                if km:
                    res.notes.append("kmemleak%s: %d suspected leaks, %d in tracing/samples/series"
                                     % (tag, km[0], km[1]))
        # A listed base failure that passes now is good news, but the list
        # must then be updated: say so without failing.
        ran = {c[1] for c in res.cases}
        for tid in sorted(set(xfail) - seen):
            if tid in ran:
                print("note: %s is listed in %s but did not fail: update the list"
                      % (tid, os.path.basename(args.xfail)))

    # --- table
    suites = collections.OrderedDict()
    for suite, _, status, _ in res.cases:
        suites.setdefault(suite, collections.Counter())[status] += 1
    print()
    print("%-30s %7s %7s %7s %7s" % ("suite", "passed", "failed", "skipped", "time"))
    print("-" * 62)
    for suite, c in suites.items():
        t = res.times.get(suite)
        print("%-30s %7d %7d %7d %7s" % (suite, c[PASS], c[FAIL], c[SKIP],
                                          "%ds" % t if t is not None else ""))
    print("-" * 62)

    if totals:
        print("\nftracetest's own totals per category:")
        for cat, t in totals.items():
            print("  %-22s %s" % (cat, ", ".join("%s %d" % (k, v) for k, v in t.items() if v)))

    if res.notes:
        print()
        for n in res.notes:
            print(n)

    skipped = [c for c in res.cases if c[2] == SKIP]
    if skipped:
        print("\nskipped:")
        for suite, name, _, detail in skipped:
            print("  %s %s: %s" % (suite, name, detail))

    failed = [c for c in res.cases if c[2] == FAIL]
    if failed:
        print("\nFAILED:")
        for suite, name, _, detail in failed:
            print("  %s %s: %s" % (suite, name, detail))

    n_pass = sum(1 for c in res.cases if c[2] == PASS)
    n_fail = len(failed)
    n_skip = len(skipped)
    if args.summary_json:
        with open(args.summary_json, "w") as f:
            json.dump({"passed": n_pass, "failed": n_fail, "skipped": n_skip,
                       "cases": res.cases, "times": res.times}, f, indent=1)
    print()
    line = "%d passed, %d failed" % (n_pass, n_fail)
    if n_skip:
        line += ", %d skipped" % n_skip
    print(line)
    return 1 if n_fail or n_pass == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
