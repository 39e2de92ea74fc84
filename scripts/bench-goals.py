#!/usr/bin/env python3
"""Check make bench's figures against tests/bench-goals.txt.

Reads the results logs of the bench boots (the base's and the patched
kernel's): "FTX-BENCH-STATS KEY MIN MEDIAN MAX" from bench_row, and the
"mmap-a|b|c ..." rows of guest/bench/50-mmap.sh. Prints one line a goal
with its value, and FTX-RESULT lines; exits 1 when a goal is missed
without a measured reason in the table, when a value is beyond the bound
its reason excuses ("-- excused OP BOUND: reason"), or when a row that
the table names (goals and "row" lines) is missing on its kernel.

    scripts/bench-goals.py GOALS BASE_RESULTS PATCHED_RESULTS
"""

import operator
import re
import sys

OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}
# a missed goal's reason names the bound it excuses, on the same side as
# the goal's limit and beyond it: "-- excused <= 1.02: 71 instructions ..."
EXCUSE = re.compile(r"excused (<=|>=|<|>) ([0-9.]+(?:[eE][+-]?[0-9]+)?): (\S.*)$")
REF = re.compile(r"\{(base|patched):([^{}]+)\}")


def values(path):
    """KEY -> MIN (the figure each table shows), plus KEY:median/max."""
    vals = {}
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError:
        return None
    for line in lines:
        f = line.split()
        if len(f) == 5 and f[0] == "FTX-BENCH-STATS":
            vals[f[1]] = float(f[2])
            vals[f[1] + ":median"] = float(f[3])
            vals[f[1] + ":max"] = float(f[4])
        elif len(f) == 5 and f[0] in ("mmap-a", "mmap-b"):
            vals["%s:%s:%s:eps" % tuple(f[:3])] = float(f[3])
            vals["%s:%s:%s:cpm" % tuple(f[:3])] = float(f[4])
        elif len(f) == 4 and f[0] == "mmap-c":
            vals["%s:%s:%s:slowdown" % tuple(f[:3])] = float(f[3])
    return vals


def main():
    goals_path, base_path, patched_path = sys.argv[1:4]
    kernels = {"base": values(base_path), "patched": values(patched_path)}
    failed = 0

    def result(name, ok, detail):
        nonlocal failed
        failed += not ok
        print("FTX-RESULT bench-goals %s %s %s" % (name, "PASS" if ok else "FAIL", detail))

    for k, v in kernels.items():
        if v is None:
            result("results-" + k, False, "no results log of the %s boot" % k)
            kernels[k] = {}
    print("%-26s %10s %-4s %7s  %s" % ("goal", "value", "", "goal", "verdict"))
    for n, line in enumerate(open(goals_path).read().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        reason = excuse = None
        if " -- " in line:
            line, reason = [x.strip() for x in line.split(" -- ", 1)]
            m = EXCUSE.match(reason)
            if not m:
                # a reason without its bound would excuse any regression
                result("goals:%d" % n, False, "malformed reason %r: want '-- excused OP BOUND: "
                       "reason', the bound the measured reason excuses" % reason[:80])
                continue
            excuse, reason = (m.group(1), float(m.group(2))), m.group(3)
        f = line.split()
        if f[0] == "row" and len(f) == 3:
            # a row a kernel must print, whatever its value
            for k in f[1].split(","):
                ok = f[2] in kernels.get(k, {})
                if not ok:
                    result("row:%s:%s" % (k, f[2]), False, "the %s kernel printed no row %s" % (k, f[2]))
            continue
        if len(f) != 4 or f[1] not in OPS:
            result("goals:%d" % n, False, "malformed line %r: want 'NAME OP LIMIT EXPR "
                   "[-- excused OP BOUND: reason]' or 'row KERNELS KEY'" % line)
            continue
        name, op, limit, expr = f[0], f[1], float(f[2]), f[3]
        if excuse and (excuse[0][0] != op[0] or not OPS[op](limit, excuse[1])
                       or limit == excuse[1]):
            result("goals:%d" % n, False, "the excused bound %s %g is not beyond the goal "
                   "%s %g on its side" % (excuse[0], excuse[1], op, limit))
            continue
        missing = [m.group(0) for m in REF.finditer(expr) if m.group(2) not in kernels[m.group(1)]]
        if missing:
            result(name, False, "no figure for %s" % ", ".join(missing))
            continue
        arith = REF.sub(lambda m: repr(kernels[m.group(1)][m.group(2)]), expr)
        if not re.fullmatch(r"[0-9.eE+\-*/() ]+", arith):
            result("goals:%d" % n, False, "expression %r is not arithmetic" % expr)
            continue
        try:
            value = eval(arith, {"__builtins__": {}})  # digits and operators only
        except ZeroDivisionError:
            result(name, False, "%s divides by zero" % expr)
            continue
        met = OPS[op](value, limit)
        excused = not met and excuse is not None and OPS[excuse[0]](value, excuse[1])
        if met:
            verdict, detail = "met", ""
        elif excused:
            verdict = "missed, excused up to %s %g: %s" % (excuse[0], excuse[1], reason)
            detail = " missed, within the excused %s %g: %s" % (excuse[0], excuse[1], reason)
        elif excuse:
            verdict = "MISSED, beyond the excused %s %g" % excuse
            detail = (" missed, and beyond the bound its reason excuses (%s %g): %s"
                      % (excuse[0], excuse[1], reason))
        else:
            verdict, detail = "MISSED", " missed, and the table gives no reason"
        print("%-26s %10.3f %-4s %7g  %s" % (name, value, op, limit, verdict))
        result(name, met or excused, "%.3f %s %g%s" % (value, op, limit, detail))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
