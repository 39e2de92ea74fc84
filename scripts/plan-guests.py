#!/usr/bin/env python3
"""Split a lane's parts between its guests, as tests/lanes.list says.

  plan-guests.py --table tests/lanes.list --lane LANE --series SERIES
                 --parts FILE [--only LIST]

FILE lists the parts the lane runs, one a line, ftracetest already split
into its categories (scripts/lib.sh expand_parts). Prints one line per
guest that has something to run: "<guest> <qemu> <part,part,...>".
Guest "-" takes the parts the lane leaves out: they run in no guest.
A name that is no part of the lane, in the table or in LIST, is an error:
a typo would otherwise run nothing and pass. The table serves every
series: names of parts that only other series have (--elsewhere, and
ftracetest categories the tree lacks) are left out of this one's plan.
Rows of lane "LANE@SERIES" are that series' own split: where the table
has any, they replace the rows of "LANE" for it. Lane "base" boots the
guests of lane "test", unless the table has rows of "base" (or
"base@SERIES") of its own.
"""
import argparse
import sys


def expand(name, parts):
    """The lane's parts that NAME stands for: itself, or its categories."""
    return [p for p in parts if p == name or p.startswith(name + ":")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", required=True)
    ap.add_argument("--lane", required=True)
    ap.add_argument("--parts", required=True)
    ap.add_argument("--series", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--elsewhere", default="",
                    help="a file of parts other series have (guest tests whose "
                         "features this series lacks): the table may name them")
    args = ap.parse_args()
    elsewhere = set()
    if args.elsewhere:
        elsewhere = {l.strip() for l in open(args.elsewhere) if l.strip()}

    parts = [l.strip() for l in open(args.parts) if l.strip()]
    rows = {}
    for n, line in enumerate(open(args.table), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        if len(line) != 4:
            sys.exit("%s:%d: want <lane>[@<series>] <guest> <qemu> <parts>" % (args.table, n))
        lane, guest, qemu, names = line
        rows.setdefault(lane, []).append((guest, qemu, names.split(","), n))
    lanes = [args.lane]
    if args.lane == "base":
        lanes.append("test")
    guests = None
    for lane in lanes:
        guests = rows.get(lane + "@" + args.series) or rows.get(lane)
        if guests:
            break
    if not guests:
        sys.exit("%s: no guest for lane %s" % (args.table, args.lane))

    # A part named exactly goes to its guest; a name that stands for
    # several (ftracetest) takes those of its parts no guest names exactly.
    taken = {}
    rest = None
    wide = []
    for guest, qemu, names, n in guests:
        if names == ["rest"]:
            if rest:
                sys.exit("%s:%d: a second \"rest\" guest" % (args.table, n))
            rest = guest
            continue
        for name in names:
            got = expand(name, parts)
            if not got:
                # the base lane has no series tests, a series without a
                # topic none of its tests, a tree without an ftracetest
                # category none of it (what no guest names runs in "rest")
                if args.lane == "base" or name in elsewhere or name.startswith("ftracetest:"):
                    continue
                sys.exit("%s:%d: '%s' is no part of lane %s" % (args.table, n, name, args.lane))
            if got != [name]:
                wide.append((guest, got, n))
                continue
            if name in taken:
                sys.exit("%s:%d: %s is given to guests %s and %s"
                         % (args.table, n, name, taken[name], guest))
            taken[name] = guest
    exact = dict(taken)
    for guest, got, n in wide:
        for p in got:
            if p in exact:
                continue
            if p in taken:
                sys.exit("%s:%d: %s is given to guests %s and %s"
                         % (args.table, n, p, taken[p], guest))
            taken[p] = guest

    selected = parts
    if args.only:
        selected = []
        for name in args.only.split(","):
            got = expand(name, parts)
            if not got:
                sys.exit("ONLY: '%s' is no part of lane %s" % (name, args.lane))
            selected += [p for p in got if p not in selected]

    for guest, qemu, names, n in guests:
        mine = [p for p in selected if taken.get(p, rest) == guest]
        if mine and guest != "-":
            print(guest, qemu, ",".join(mine))


if __name__ == "__main__":
    main()
