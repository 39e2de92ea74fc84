#!/usr/bin/env python3
"""Turn one guest run into a per-suite table and a closing line.

Reads the console log (kernel messages, KTAP from KUnit, test output), the
results channel (FTX-RESULT lines and ftracetest's own logs, written by the
guest to ttyS1) and optional host-side result files. Prints a table, the
failures with their details, and ends with "N passed, N failed" (plus
", N skipped" when there are skips). Exits 1 on any failure.

A test that did not run is a failure unless a list says why it may not:
SKIP, UNSUPPORTED, UNTESTED and XFAIL results must each match an entry of
--expected-skips (the entry is named in the report); a results log must
end with FTX-RUN-END; every ftracetest category must have run cases that
agree with ftracetest's own totals and exit status; every part of
--expect-parts must have run (kunit: KUnit results on a console); KUnit
is read from every console but those of --skip-kunit (guests told to run
no suite).
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"

# Kernel reports that fail a run wherever they appear on the console, one
# entry per report type the test and debug configs can print (each has a
# fixture in tests/parser-fixtures/reports/). A printk can land in the
# middle of a line of test output, so search anywhere after a timestamp.
# Lockdep and RCU reports taint nothing: this scan and the guest's
# debug_locks check are what catch them.
REPORTS = [
    ("warn", r"WARNING: CPU: \d+ PID: \d+"),
    ("warn-at", r"WARNING: .* at "),
    ("cut-here", r"-+\[ cut here \]-+"),
    ("end-trace", r"---\[ end trace [0-9a-f]+ \]---"),
    # every lockdep and RCU-lockdep report starts with "WARNING: "
    # (kernel/locking/lockdep.c): recursive and circular locking,
    # inconsistent lock state, irq lock inversion, X-safe -> X-unsafe,
    # bad unlock balance, held lock freed, still has locks held, lock held
    # when returning to user space, nested lock not taken, suspicious RCU
    # usage, chain_key collision, bad contention
    # (the "WARNING: " line alone is matched by WARNING_LINE_RE below)
    ("lockdep-nonstatic-key", r"INFO: trying to register non-static key"),
    ("bug", r"BUG: "),
    ("kernel-bug", r"kernel BUG at"),
    ("oops", r"Oops: "),
    ("gpf", r"general protection fault"),
    ("panic", r"Kernel panic - not syncing"),
    # RCU CPU stalls (normal, self-detected, expedited) and RCU-tasks stalls
    ("rcu-stall", r"INFO: rcu_\w+ (?:self-)?detected (?:expedited )?stalls?"),
    ("rcu-stall-ended", r"INFO: Stall ended before state dump start"),
    ("rcu-starved", r"rcu: rcu_\w+ kthread starved for"),
    ("hung-task", r"INFO: task .* blocked for more than"),
    ("hard-lockup", r"Watchdog detected hard LOCKUP"),
    # soft lockup and workqueue lockup print "BUG: "; KASAN and KFENCE
    # reports start with "BUG: KASAN: " and "BUG: KFENCE: "
    ("kasan", r"KASAN: "),
    ("kfence", r"KFENCE: "),
    ("ubsan", r"UBSAN: "),
    ("kmemleak-object", r"unreferenced object 0x"),
    ("list-corruption", r"list_(?:add|del) corruption"),
    ("odebug", r"ODEBUG: "),
    ("ftrace-bug", r"-+\[ ftrace bug \]-+"),
    # an OOM kill taints nothing, and a killed helper can leave a test green
    ("oom", r"invoked oom-killer|Out of memory: Killed process"),
    # messages that come with a stack dump but no WARNING line: a sysfs
    # name registered twice, an allocation that failed without
    # __GFP_NOWARN (warn_alloc())
    ("sysfs-duplicate", r"cannot create duplicate filename"),
    ("alloc-failure", r"page allocation failure: order:\d+|vmalloc error: size \d+"),
    # a user-space program (a harness tool, a test's helper) killed by a
    # fault: show_signal_msg() and do_trap()'s notes; a tool that crashes
    # can leave its test green
    ("user-segfault", r"\[\d+\]: segfault at [0-9a-f]+ ip "),
    ("user-trap", r"traps: .*\[\d+\] trap "),
    # tracefs and debugfs entries the kernel failed to create: the file is
    # missing and nothing else says so (kernel/trace's pr_warn()s; the
    # samples' debugfs directories)
    ("tracefs-create", r"Could not create (?:tracefs|directory for event|early event)"
     r"|Could not initialize trace (?:point )?events/|Failed to create system directory"
     r"|No memory to create event subsystem|Failed to create (?:tracer options|tracefs dir)"),
    ("debugfs-create", r"debugfs: (?:File|Directory) '[^']*' (?:in directory|with parent) "
     r"'[^']*' already present"),
    # any other stack dump: dump_stack() and show_stack() print it with no
    # line of their own that says why (an unchecked MSR access, "irq N:
    # nobody cared", a driver's or a test's dump_stack()). Every call trace
    # fails the run; the allow-list is short on purpose:
    #  - the trace of a report matched above, within CALL_TRACE_SPAN lines
    #    after its report line, is counted with that report, not again;
    #  - on the console of a boot that stalled on the emulator's fault
    #    (--stale-console), the stall's own CPU and task dumps.
    # KCSAN's reports print their stacks without "Call Trace:", so the
    # base's data races (listed, not failed) need no entry.
    ("call-trace", r"Call Trace:"),
]
# a report line of its own, and a call trace, which is a report only when
# no report line comes shortly before it
SPLAT_RE = re.compile(r"\[\s*\d+\.\d+\]\s.*?("
                      + "|".join(r for k, r in REPORTS if k != "call-trace") + ")")
CALL_TRACE_RE = re.compile(r"\[\s*\d+\.\d+\]\s.*?Call Trace:")
CALL_TRACE_SPAN = 100
# a message that starts with "WARNING: ", right after its timestamp: every
# lockdep and RCU-lockdep header (recursive and circular locking,
# inconsistent lock state, irq lock inversion, X-safe -> X-unsafe, bad
# unlock balance, held lock freed, still has locks held, lock held when
# returning to user space, nested lock not taken, suspicious RCU usage,
# chain_key collision, bad contention). Not "RETBleed: WARNING: ..." and
# such: CPU mitigation notes at boot, no report.
WARNING_LINE_RE = re.compile(r"\[\s*\d+\.\d+\]\s+WARNING: ")
# the reports a stalled vCPU makes the kernel print: RCU stalls, soft and
# hard lockups, hung tasks, workqueue lockups. On the console of a boot
# that stalled on the emulator's fault (--stale-console) the stall and
# what follows its first report (the stall's CPU and task dumps) are the
# fault's evidence; any other report there fails the run.
STALL_RE = re.compile(r"\[\s*\d+\.\d+\]\s.*?(?:" + "|".join(
    [r for k, r in REPORTS if k in ("rcu-stall", "rcu-stall-ended", "rcu-starved",
                                   "hung-task", "hard-lockup")]
    + [r"BUG: soft lockup", r"BUG: workqueue lockup"]) + ")")
# the console's own note that it lost messages (no timestamp): a report
# may be among them
DONE_RE = re.compile(r"FTX-DONE rc=(\S*)")
DROPPED_RE = re.compile(r"\*\* (\d+) printk messages dropped \*\*")
MODULE_FRAME_RE = re.compile(r"\[<[0-9a-f]+>\] (?:0x[0-9a-f]+\s*$|\S+\+0x[0-9a-f]+/0x[0-9a-f]+ \[\w+\])")
KMEMLEAK_OFF_RE = re.compile(r"\[\s*\d+\.\d+\]\s.*Kernel memory leak detector disabled")

# ftracetest's result names and the words of its "# of ...:" totals
FT_STATUSES = ["PASS", "FAIL", "UNRESOLVED", "UNTESTED", "UNSUPPORTED", "XFAIL", "UNDEFINED"]
FT_TOTALS = {"passed": "PASS", "failed": "FAIL", "unresolved": "UNRESOLVED",
             "untested": "UNTESTED", "unsupported": "UNSUPPORTED", "xfailed": "XFAIL",
             "undefined(test bug)": "UNDEFINED"}
FT_LINE = re.compile(
    r"^\[(\d+)\](.*?)\s*\[(" + "|".join(FT_STATUSES) + r")\]\s*$")
# statuses that make ftracetest exit non-zero (UNRESOLVED and UNSUPPORTED
# only with --fail-unresolved/--fail-unsupported, which the guest does not use)
FT_FAILING = ("FAIL", "UNDEFINED")
# results that say a test did not run (or ran only part of itself)
NOT_RUN = ("SKIP", "UNSUPPORTED", "UNTESTED", "XFAIL")


class Results:
    def __init__(self):
        self.cases = []  # (suite, name, status, detail)
        self.times = {}  # suite -> seconds
        self.notes = []
        self.part_results = {}  # part -> the result ids it printed
        # make soak: part -> {round: the result ids it printed that round}
        self.round_results = {}
        self.soak_round = 0   # the round running (0: none, or it ended)
        self.soak_rounds = 0  # the rounds begun

    def add(self, suite, name, status, detail=""):
        self.cases.append((suite, name, status, detail))


def read_lines(path):
    if not path or not os.path.exists(path):
        return []
    with open(path, errors="replace") as f:
        return [l.rstrip("\r\n").replace("\r", "") for l in f]


def ftracetest_index(tree):
    """(category, description) -> the test files relative to test.d that
    have it, in the order ftracetest runs them (sorted paths): a few
    upstream files share a description (7.2's fgraph-filter.tc,
    fgraph-multi.tc and fgraph-multi-filter.tc)."""
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
                        # ftracetest prints it through printf: %% is %
                        key = (cat, m.group(1).strip().replace("%%", "%"))
                        index.setdefault(key, []).append(rel)
                        break
    for rels in index.values():
        rels.sort()
    return index


def ftracetest_lookup(index, cat, desc, nth=0, only=None):
    """The test file of a result line of category run @cat: a file of the
    category's own directory or of one below it (ftracetest runs a
    directory with its subdirectories: remotes/ holds
    remotes/hypervisor/), else of the top category of a subdirectory
    run. Of the files with the same description, the @nth in the order
    ftracetest ran them (of those in @only, the files a narrowed run
    named). None if there is no such file."""
    files = list(index.get((cat, desc), []))
    files += [r for (c, d), rels in index.items() if d == desc and c.startswith(cat + "/")
              for r in rels]
    if not files:
        files = list(index.get((cat.split("/")[0], desc), []))
    if only:
        files = [r for r in files if r in only]
    files.sort()
    return files[nth] if nth < len(files) else None


# The subdirectories of test.d that the guest runs as categories of their
# own (guest/run-tests.sh: known_parts); any other runs with its parent.
SUBDIR_CATEGORIES = ("trigger/inter-event",)


def tc_category(tc):
    """The category run that runs test file @tc (relative to test.d): its
    top directory (remotes/hypervisor/x.tc runs in remotes), or one of
    SUBDIR_CATEGORIES."""
    d = os.path.dirname(tc)
    for sub in SUBDIR_CATEGORIES:
        if d == sub or d.startswith(sub + "/"):
            return sub
    return d.split("/")[0]


def ftracetest_files(tree):
    """test file relative to test.d -> does it also run in an instance
    (its "# flags:" line names "instance")."""
    files = {}
    top = os.path.join(tree, "tools/testing/selftests/ftrace/test.d")
    for root, _, names in os.walk(top):
        for fn in names:
            if fn.endswith(".tc"):
                path = os.path.join(root, fn)
                with open(path, errors="replace") as f:
                    flags = re.search(r"^#\s*flags:(.*)$", f.read(), re.M)
                files[os.path.relpath(path, top)] = bool(flags and "instance" in flags.group(1).split())
    return files


def read_expected_results(path, lane, res):
    """tests/expected-results.txt: the results each part must print, one a
    line: '<lanes> <part> <result>', lanes a comma list or '*'. Returns
    (part -> set of result ids, the .tc files listed)."""
    want, tcs = {}, set()
    for n, line in enumerate(read_lines(path), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = line.split(None, 2)
        if len(f) != 3:
            res.add("harness", "expected-results:%d" % n, FAIL,
                    "malformed line %r: want '<lanes> <part> <result>'" % line)
            continue
        lanes, part, result = f[0], f[1], f[2].strip()
        if part == "ftracetest":
            tcs.add(result)
            continue
        if lanes == "*" or lane in lanes.split(","):
            want.setdefault(part, set()).add(result)
    return want, tcs


def check_expected_results(path, lane, tree, parts_path, res, runs, lane_parts_path=None):
    """Every part that ran printed exactly the results the list names for
    this lane: a result that vanished (a test dropped by a rebase, a case
    that stopped reporting) or a part with no result fails, and so does a
    result the list does not know (the list must stay exact). ftracetest:
    the list of .tc files equals the tree's, and each category run has a
    result for each of its files (and instance runs), or for each file
    that the run names (only=). lane_parts_path: the parts the lane's
    whole plan runs (not narrowed by ONLY): each part the list names for
    this lane must be one of them, or its results would go unchecked (a
    script deleted or renamed, a part moved off the lane's guests)."""
    if not os.path.exists(path):
        res.add("expected-results", "list", FAIL, "%s does not exist" % path)
        return
    want, tcs = read_expected_results(path, lane, res)
    name = os.path.basename(path)
    planned = [l.strip() for l in read_lines(parts_path) if l.strip() and not l.startswith("#")]
    bad = 0
    if lane_parts_path:
        lane_parts = {l.strip() for l in read_lines(lane_parts_path)
                      if l.strip() and not l.startswith("#")}
        if not lane_parts:
            bad += 1
            res.add("expected-results", "lane-plan", FAIL, "the lane's plan (%s) is missing or "
                    "empty: the list cannot be checked against it" % lane_parts_path)
        else:
            for part in sorted(set(want) - lane_parts):
                bad += 1
                res.add("expected-results", part, FAIL,
                        "%s lists %d results of part %s for lane %s, but the lane's plan does not "
                        "run it (no guest script of that name, or tests/lanes.list leaves it out "
                        "of the lane): they would go unchecked; fix the plan or the list"
                        % (name, len(want[part]), part, lane))
    tree_tcs = ftracetest_files(tree)
    # the base lane runs the pristine tree: its .tc files are upstream's
    if tcs and lane != "base":
        for tc in sorted(tcs - set(tree_tcs)):
            res.add("expected-results", tc, FAIL, "%s lists it, but the tree has no such test: "
                    "it vanished (or the list is stale)" % name)
        for tc in sorted(set(tree_tcs) - tcs):
            res.add("expected-results", tc, FAIL, "the tree has it, but %s does not list it" % name)
    for part in planned:
        got = collections.Counter(res.part_results.get(part, []))
        if part.startswith("ftracetest:"):
            cat = part.split(":", 1)[1]
            run = [r for r in runs if r.cat == cat]
            only = set(run[0].only.split(",")) if run and run[0].only else None
            exp = set()
            for tc, inst in tree_tcs.items():
                if tc_category(tc) != cat or (only is not None and tc not in only):
                    continue
                exp.add(tc)
                if inst:
                    exp.add(tc + " (instance)")
        else:
            exp = want.get(part, set())
        problems = []
        if not got:
            problems.append("printed no result")
        elif not exp:
            problems.append("%s lists no result of this part in lane %s" % (name, lane))
        missing = sorted(exp - set(got))
        extra = sorted(set(got) - exp) if exp else []
        if missing:
            problems.append("%d missing: %s" % (len(missing), ", ".join(missing[:12])))
        # make soak: each round prints them all, not just the rounds together
        rounds = res.round_results.get(part, {})
        for r in range(1, res.soak_rounds + 1 if rounds else 0):
            if r not in rounds:
                problems.append("round %d: did not run" % r)
                continue
            lost = sorted(exp - set(rounds[r]))
            if lost and not missing:
                problems.append("round %d: %d missing: %s" % (r, len(lost), ", ".join(lost[:12])))
        if extra:
            problems.append("%d not in %s (add them, with the lanes that print them): %s"
                            % (len(extra), name, ", ".join(extra[:12])))
        if problems:
            bad += 1
            res.add("expected-results", part, FAIL, "; ".join(problems))
    if not bad:
        res.add("expected-results", "all-present", PASS, "%d parts, each printed the results "
                "%s lists for lane %s%s" % (len(planned), name, lane,
                                            "; each part it lists is in the lane's plan"
                                            if lane_parts_path else ""))


def read_xfail(path):
    """Known failures on the pristine base: 'file.tc[ (instance)]  reason',
    or a KUnit case of the base's own suites: 'kunit:suite.case  reason'."""
    xfail = {}
    for line in read_lines(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"(\S+\.tc(?: \(instance\))?|kunit:\S+)\s+(.*)", line)
        if not m:
            m = re.match(r"(\S+\.tc|kunit:\S+)(.*)", line)
        if not m:
            continue
        xfail[m.group(1)] = m.group(2).strip()
    return xfail


class ExpectedSkips:
    """tests/expected-skips.txt: the results that say a test did not run
    (SKIP, UNSUPPORTED, UNTESTED) or ran only to its expected failure
    (XFAIL) and may do so, each with its reason. One per line:
        <test>  <STATUS>  <reason>
    <test> is an ftracetest case as its path under test.d[ (instance)], a
    KUnit case as kunit:suite.case, any other result as SUITE:NAME."""

    LINE = re.compile(r"^(\S+(?: \(instance\))?)\s+(" + "|".join(NOT_RUN) + r")\s+(\S.*)$")

    def __init__(self, path, res):
        self.path = path
        self.name = os.path.basename(path) if path else "expected-skips"
        self.entries = {}  # test -> (status, reason, line number)
        self.seen = set()
        if not path:
            return
        if not os.path.exists(path):
            res.add("harness", self.name, FAIL, "%s does not exist" % path)
            return
        for n, line in enumerate(read_lines(path), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = self.LINE.match(line.strip())
            if not m:
                # a typo must not quietly unlist (or list) a test
                res.add("harness", "%s:%d" % (self.name, n), FAIL,
                        "malformed entry %r: want '<test>  <%s>  <reason>'"
                        % (line, "|".join(NOT_RUN)))
                continue
            self.entries[m.group(1)] = (m.group(2), m.group(3).strip(), n)

    def verdict(self, res, suite, name, test, status, detail=""):
        """Record a result that says the test did not run (fully)."""
        got = status + (": " + detail if detail else "")
        e = self.entries.get(test)
        if e is None:
            why = ("a test that ended in XFAIL (its expected failure) fails unless"
                   if status == "XFAIL" else "a test that did not run fails unless")
            res.add(suite, name, FAIL, "%s; %s %s lists it (as '%s  %s  <reason>')"
                    % (got, why, self.name, test, status))
            return
        want, reason, n = e
        where = "%s:%d" % (self.name, n)
        if want != status:
            res.add(suite, name, FAIL, "%s, but %s expects %s (%s)" % (got, where, want, reason))
            return
        self.seen.add(test)
        if status == "XFAIL":
            # the test ran and ended in the outcome it is written to expect
            res.add(suite, name, PASS, "XFAIL as %s expects: %s" % (where, reason))
        else:
            res.add(suite, name, SKIP, "%s, as %s expects: %s" % (got, where, reason))

    @staticmethod
    def group(test):
        """The category or suite a test belongs to."""
        if test.startswith("kunit:"):
            return "kunit:" + test[len("kunit:"):].split(".")[0]
        if ".tc" in test:
            return os.path.dirname(test.split(" ")[0])
        return test.split(":")[0]

    def report_unseen(self, res, ran, partial=()):
        """A listed result that did not occur: say so (the list must stay
        exact), but only where its test's category or suite ran at all.
        ran: test -> the statuses it ran with; partial: categories of which
        only some files were meant to run."""
        ran_groups = {self.group(t) for t in ran} - set(partial)
        unchecked = 0
        for test, (status, _, n) in sorted(self.entries.items(), key=lambda kv: kv[1][2]):
            if test in self.seen:
                continue
            if test in ran:
                res.notes.append("note: %s:%d lists %s as %s, but it ran with %s: update the list"
                                 % (self.name, n, test, status, "/".join(sorted(ran[test]))))
            elif self.group(test) in ran_groups:
                res.notes.append("note: %s:%d lists %s as %s, but it did not appear although %s ran: "
                                 "update the list" % (self.name, n, test, status, self.group(test)))
            else:
                unchecked += 1
        if unchecked:
            res.notes.append("note: %d entries of %s not checked: their category or suite did not run"
                             % (unchecked, self.name))


def parse_kmemleak(lines, res, symbols, tag):
    """kmemleak's report between FTX-KMEMLEAK-BEGIN/END: fail on leaks whose
    backtrace runs through tracing code, the samples or the series, and
    when kmemleak had switched itself off (its report then proves nothing)."""
    name = "no-leak-in-tracing" + tag
    inside, ended, reports, cur, off = False, False, [], None, None
    begun = False
    for line in lines:
        if line.startswith("FTX-KMEMLEAK-BEGIN"):
            inside = begun = True
            continue
        if line.startswith("FTX-KMEMLEAK-END"):
            inside, ended = False, True
            continue
        if not inside:
            continue
        if line.startswith("FTX-KMEMLEAK-DISABLED"):
            off = line[len("FTX-KMEMLEAK-DISABLED"):].strip()
        elif line.startswith("unreferenced object"):
            cur = [line]
            reports.append(cur)
        elif cur is not None:
            cur.append(line)
    if not begun:
        res.add("kmemleak", name, FAIL, "no kmemleak report in this guest's results "
                "(no kmemleak in the kernel, or the guest did not get that far)")
        return None
    if not ended:
        res.add("kmemleak", name, FAIL, "kmemleak's report is cut off (no FTX-KMEMLEAK-END)")
        return None
    if off is not None:
        res.add("kmemleak", name, FAIL, "kmemleak switched itself off during the run, so its "
                "scan proves nothing (%s); raise CONFIG_DEBUG_KMEMLEAK_MEM_POOL_SIZE" % off)
        return None
    if not symbols:
        res.add("kmemleak", name, FAIL, "the list of tracing symbols is empty: no leak could "
                "be attributed (the symbol extraction failed)")
        return None
    ours = []
    for rep in reports:
        frames = [m.group(1) for m in (re.search(r"\] ([A-Za-z0-9_.]+)\+0x", l) for l in rep) if m]
        # every module this guest loads is the series' or an upstream
        # tracing test's: a module frame counts as ours, named with its
        # module ("foo+0x1/0x2 [mod]") or, the module unloaded before the
        # scan, a bare address (kallsyms names every frame of the kernel)
        mod = any(MODULE_FRAME_RE.search(l) for l in rep)
        if mod or any(f in symbols for f in frames):
            ours.append(rep)
    if ours:
        res.add("kmemleak", name, FAIL,
                "%d leaks in tracing code, samples or the series:\n%s"
                % (len(ours), "\n".join("\n".join(r[:14]) for r in ours[:3])))
    else:
        res.add("kmemleak", name, PASS,
                "%d suspected leaks elsewhere" % len(reports) if reports else "")
    return len(reports), len(ours)


class FtraceRun:
    """One FTX-FTRACETEST-BEGIN .. END block: one category's run."""

    def __init__(self, cat, rc, secs, only=None):
        self.cat, self.rc, self.secs = cat, rc, secs
        self.only = only  # one file of the category (debug lane)
        self.seen = collections.Counter()  # (description, instance) -> lines so far
        self.counts = collections.Counter()
        self.totals = {}
        self.ended = False

    def check(self, res):
        """The category ran cases, and they are the ones ftracetest counted."""
        suite = "ftracetest/" + self.cat
        n = sum(self.counts.values())
        problems = []
        if not self.ended:
            problems.append("its log is cut off (no FTX-FTRACETEST-END)")
        if n == 0:
            problems.append("no test case ran")
        if not self.totals:
            problems.append("ftracetest printed no totals (it died or was killed)")
        else:
            diff = ["%s: %d parsed, ftracetest counted %d" % (st, self.counts[st], self.totals.get(st, 0))
                    for st in FT_STATUSES if self.counts[st] != self.totals.get(st, 0)]
            if diff:
                problems.append("the parsed results differ from ftracetest's totals (%s)" % "; ".join(diff))
        failing = sum(self.counts[st] for st in FT_FAILING)
        if self.rc != 0 and failing == 0:
            problems.append("ftracetest exited %d with no failed case parsed" % self.rc)
        if self.rc == 0 and failing:
            problems.append("ftracetest exited 0 although %d cases failed" % failing)
        if problems:
            res.add(suite, "ftracetest-run", FAIL, "; ".join(problems))
        else:
            res.add(suite, "ftracetest-run", PASS, "%d cases, ftracetest's totals and exit %d agree"
                    % (n, self.rc))


# CI shows only the end of the output: a failed ftracetest case carries the
# last lines of its own log (ftracetest -v prints it after the case's result)
FAIL_LOG_LINES = 6


def attach_log_tail(res, idx, tail):
    if not tail:
        return
    suite, name, status, detail = res.cases[idx]
    log = "\n      | ".join(l[:160] for l in tail)
    res.cases[idx] = (suite, name, status, "%s; its log ends:\n      | %s" % (detail, log))


# the lines a results channel may hold outside an ftracetest, kmemleak or
# file block; anything else there is a result line that does not parse
KNOWN_FTX = re.compile(r"FTX-(RUN-BEGIN|RUN-END|BENCH-BEGIN|BENCH-END|BENCH-ROW|BENCH-STATS|FUZZ|STRESS|STRESS-COUNT|SOAK-ROUND|SOAK-END)( |$)")
RESULT_RE = re.compile(r"FTX-RESULT (\S+) (\S+) (PASS|FAIL|SKIP)(?: (.*))?$")


def parse_results_channel(lines, res, index, xfail, seen_xfail, skips, runs, ran, where="results",
                          strict=True):
    """FTX lines of one results log (or a host file). runs: FtraceRun list
    (appended to); ran: test -> set of statuses, for the expected lists.
    Each result is also filed under the part that printed it (between
    FTX-PART-BEGIN and FTX-TIME, or an ftracetest category's block) in
    res.part_results, for the expected-results check."""
    run = None
    failed = None  # index in res.cases of the ftracetest case that failed last
    tail = []      # the lines ftracetest -v printed after it: the case's log
    part = None    # the guest part whose results these are
    block = None   # "kmemleak" or "file": lines read elsewhere
    bench = False
    malformed = []

    def filed(test):
        key = ("ftracetest:" + run.cat) if run is not None else (part or "-")
        res.part_results.setdefault(key, []).append(test)
        if res.soak_round:
            res.round_results.setdefault(key, {}).setdefault(res.soak_round, []).append(test)

    for n, line in enumerate(lines, 1):
        if failed is not None and (line.startswith("FTX-") or FT_LINE.match(line)
                                   or line.startswith("# of ")):
            attach_log_tail(res, failed, tail)
            failed = None
        elif failed is not None:
            if line.strip():
                tail = (tail + [line.strip()])[-FAIL_LOG_LINES:]
            continue
        if block == "file" and not line.startswith("FTX-FILE ") and not line.startswith("FTX-FILE-END"):
            # a file cut off (its writer killed): what follows is results
            malformed.append((n, "(FTX-FILE block not closed before this line) " + line))
            block = None
        if block is not None:
            if line.startswith("FTX-%s-END" % block.upper()):
                block = None
            continue
        if line.startswith("FTX-KMEMLEAK-BEGIN"):
            block = "kmemleak"
            continue
        if line.startswith("FTX-FILE-BEGIN"):
            block = "file"
            continue
        # a benchmark's table (free text) between its BEGIN and END
        if line.startswith("FTX-BENCH-BEGIN"):
            bench = True
        elif line.startswith("FTX-BENCH-END"):
            bench = False
        elif bench and not line.startswith("FTX-"):
            continue
        m = re.match(r"FTX-(FUZZ|STRESS|STRESS-COUNT|SOAK-ROUND|SOAK-END) (.*)", line)
        if m:
            r = re.match(r"FTX-SOAK-ROUND (\d+) ", line)
            if r:
                res.soak_round = int(r.group(1))
                res.soak_rounds = max(res.soak_rounds, res.soak_round)
            elif line.startswith("FTX-SOAK-END"):
                res.soak_round = 0
            res.notes.append("%s: %s" % (m.group(1).lower(), m.group(2)))
            continue
        if line.startswith("FTX-RESULT"):
            m = RESULT_RE.match(line)
            if not m:
                malformed.append((n, line))
                continue
            suite, name, status, detail = m.groups()
            detail = (detail or "").strip()
            test = "%s:%s" % (suite, name)
            ran.setdefault(test, set()).add(status)
            filed(test)
            if status == SKIP:
                skips.verdict(res, suite, name, test, SKIP, detail)
            else:
                res.add(suite, name, status, detail)
            continue
        m = re.match(r"FTX-PART-BEGIN (\S+)$", line)
        if m:
            part = m.group(1)
            res.part_results.setdefault(part, [])
            if res.soak_round:
                res.round_results.setdefault(part, {}).setdefault(res.soak_round, [])
            continue
        m = re.match(r"FTX-TIME (\S+) (\d+)$", line)
        if m:
            res.times[m.group(1)] = res.times.get(m.group(1), 0) + int(m.group(2))
            res.part_results.setdefault(m.group(1), [])
            part = None
            continue
        m = re.match(r"FTX-FTRACETEST-BEGIN (\S+) rc=(\d+) secs=(\d+)(?: only=(\S+))?$", line)
        if m:
            if run is not None:
                runs.append(run)
            run = FtraceRun(m.group(1), int(m.group(2)), int(m.group(3)), m.group(4))
            res.times["ftracetest/" + run.cat] = run.secs
            res.part_results.setdefault("ftracetest:" + run.cat, [])
            continue
        if line.startswith("FTX-FTRACETEST-END"):
            if run is not None:
                run.ended = True
                runs.append(run)
            run = None
            continue
        if run is None:
            # a host file may hold the check's own messages; a guest's
            # results channel holds nothing but FTX lines and blocks
            if line.strip() and not KNOWN_FTX.match(line) and (strict or line.startswith("FTX-")):
                malformed.append((n, line))
            continue
        cat = run.cat
        m = re.match(r"# of ([a-z()\s]+):\s+(\d+)", line)
        if m and m.group(1).strip() in FT_TOTALS:
            run.totals[FT_TOTALS[m.group(1).strip()]] = int(m.group(2))
            continue
        m = FT_LINE.match(line)
        if not m:
            continue
        num, desc, status = m.groups()
        run.counts[status] += 1
        instance = "(instance)" in desc
        desc = desc.replace("(instance)", "").strip()
        only = run.only.split(",") if run.only else None
        rel = ftracetest_lookup(index, cat, desc, run.seen[(desc, instance)], only)
        run.seen[(desc, instance)] += 1
        tid = (rel or "%s/[%s] %s" % (cat, num, desc)) + (" (instance)" if instance else "")
        ran.setdefault(tid, set()).add(status)
        filed(tid)
        suite = "ftracetest/" + cat
        if status == "PASS":
            res.add(suite, tid, PASS)
        elif status in NOT_RUN:
            skips.verdict(res, suite, tid, tid, status)
        elif tid in xfail:
            seen_xfail.add(tid)
            res.add(suite, tid, SKIP, "known base failure: " + xfail[tid])
        else:
            res.add(suite, tid, FAIL, status)
            failed, tail = len(res.cases) - 1, []
    if failed is not None:
        attach_log_tail(res, failed, tail)
    if run is not None:
        runs.append(run)  # cut off: no END
    if malformed:
        # a result that does not parse is a result lost: fail, and show it
        res.add("harness", "result-lines-parse:" + os.path.basename(where), FAIL,
                "%d lines of %s do not parse as results: %s" % (
                    len(malformed), where,
                    "; ".join("line %d: %r" % (n, l[:120]) for n, l in malformed[:5])))


def check_results_log(path, lines, res, tag):
    """A results log that does not end with FTX-RUN-END lost results."""
    name = "results-complete" + tag
    body = [l for l in lines if l.strip()]
    if not body:
        res.add("console", name, FAIL, "results log %s is missing or empty" % (path or "(none given)"))
    elif not any(l.startswith("FTX-RUN-BEGIN") for l in body):
        res.add("console", name, FAIL, "results log %s has no FTX-RUN-BEGIN" % path)
    elif not body[-1].startswith("FTX-RUN-END"):
        res.add("console", name, FAIL, "results log %s is cut off: it ends with %r, not FTX-RUN-END"
                % (path, body[-1][:200]))
    else:
        res.add("console", name, PASS)


# which kernel a guest booted: the kernel's banner on its console (UTS_RELEASE,
# who built it, the compiler, UTS_VERSION: "#N SMP ... <build time>"), the
# guest's FTX-BOOT line and its results log's FTX-RUN-BEGIN (uname -r)
BANNER_RE = re.compile(r"(?:^|\]\s+)Linux version (\S+) \((\S*)\) (?:\(.*\) )?(#\d+.*?)\s*$")
IMAGE_VERSION_RE = re.compile(r"(\S+) \((\S*)\) (#\d+.*?)\s*$")
BOOT_KERNEL_RE = re.compile(r"^FTX-(?:BOOT|RUN-BEGIN) kernel=(\S*)")


def image_version(path):
    """The version string of an x86 bzImage, as its setup header points to
    it (arch/x86/boot/version.c: "RELEASE (USER@HOST) #N ... TIME"), and
    why not when it cannot be read."""
    try:
        with open(path, "rb") as f:
            head = f.read(0x10000)
    except OSError as e:
        return None, "cannot read %s: %s" % (path, e.strerror)
    # the boot protocol's header: "HdrS" at 0x202, kernel_version at 0x20e
    # (an offset less 0x200)
    if len(head) < 0x210 or head[0x202:0x206] != b"HdrS":
        return None, "%s is no x86 bzImage (no HdrS header)" % path
    off = int.from_bytes(head[0x20e:0x210], "little")
    if not off:
        return None, "%s has no kernel_version string" % path
    text = head[off + 0x200:].split(b"\0", 1)[0].decode(errors="replace")
    if not IMAGE_VERSION_RE.match(text):
        return None, "%s: version string %r does not parse" % (path, text)
    return text, None


def check_kernel(image, clines, rlines, res, tag):
    """The guest booted the kernel just built: its console's banner names
    the release, builder and build (#N and time) of the image's version
    string, and the FTX-BOOT and FTX-RUN-BEGIN lines name its release."""
    name = "booted-as-built" + tag
    want, why = image_version(image)
    if not want:
        res.add("kernel", name, FAIL, "which kernel should have booted is unknown: %s" % why)
        return
    w = IMAGE_VERSION_RE.match(want).groups()
    banners = [m for m in (BANNER_RE.search(l) for l in clines) if m]
    problems = []
    if not banners:
        problems.append("the console has no 'Linux version' line")
    for m in banners[:1]:
        if m.groups() != w:
            problems.append("the console's kernel is %s (%s) %s" % m.groups())
    for where, lines in (("console", clines), ("results log", rlines)):
        for l in lines:
            m = BOOT_KERNEL_RE.match(l)
            if m and m.group(1) != w[0]:
                problems.append("the %s's %s" % (where, l.split()[0] + " kernel=" + m.group(1)))
    if problems:
        res.add("kernel", name, FAIL, "the guest did not boot the kernel just built, %s: %s"
                % (want, "; ".join(problems)))
    else:
        res.add("kernel", name, PASS, want)


KUNIT_SUITE_RE = re.compile(r"^(\[[ \d.]+\] )?\s*# Subtest: ")


def parse_kunit(tree, console, res, skips, ran, tag, xfail=None, seen_xfail=None):
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        p = subprocess.run(
            [sys.executable, os.path.join(tree, "tools/testing/kunit/kunit.py"),
             "parse", "--json=" + tmp.name, os.path.abspath(console)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            with open(tmp.name) as f:
                data = json.load(f)
        except (OSError, ValueError):
            res.add("kunit", "parse" + tag, FAIL, "kunit.py parse failed:\n" + p.stdout[-2000:])
            return 0
    n = 0

    def walk(group, prefix):
        nonlocal n
        for sub in group.get("sub_groups", []):
            walk(sub, prefix + sub["name"] + ".")
            if not sub.get("test_cases") and not sub.get("sub_groups"):
                res.add("kunit", prefix + sub["name"] + tag, FAIL, "suite ran no test")
        for i, tc in enumerate(group.get("test_cases", []), 1):
            n += 1
            st = tc["status"]
            # kunit.py names a case that never reported "" (crashed); at the
            # top level, that is a whole suite that never started
            if tc["name"]:
                base = prefix + tc["name"]
            elif prefix:
                base = prefix + "<case %d: no result line>" % i
            else:
                base = "<suite %d: no result line>" % (len(group.get("sub_groups", [])) + i)
            test = "kunit:" + base
            ran.setdefault(test, set()).add(st)
            res.part_results.setdefault("kunit", []).append(test)
            if st == "PASS":
                res.add("kunit", base + tag, PASS)
            elif st == "SKIP":
                skips.verdict(res, "kunit", base + tag, test, SKIP, "skipped by the test")
            elif st == "ERROR":
                res.add("kunit", base + tag, FAIL,
                        "crashed: no result line (the kernel died or the suite stopped here)")
            elif xfail and test in xfail:
                # a case of the base's own suites that fails there too
                seen_xfail.add(test)
                res.add("kunit", base + tag, SKIP, "known base failure: " + xfail[test])
            else:
                res.add("kunit", base + tag, FAIL, st)

    walk(data, "")
    # a KTAP line that kunit.py could not place (a wrong case number, a
    # missing plan or subtest, a garbled "ok"): the results around it
    # cannot be trusted
    errors = [l.split("] ", 1)[-1] for l in p.stdout.splitlines() if "[ERROR]" in l]
    if errors:
        res.add("kunit", "ktap-parses" + tag, FAIL, "kunit.py could not parse the KTAP: %s"
                % "; ".join(errors[:5]))
    if n == 0:
        res.add("kunit", "results" + tag, FAIL, "no KUnit results on the console (KTAP not found)")
    return n


def symbolize(text, tree, vmlinux):
    """Run a kernel report through the tree's decode_stacktrace.sh so that
    frames read file:line. Returns (text, why not) and never fails."""
    if not vmlinux:
        return text, "no vmlinux given"
    if not os.path.exists(vmlinux):
        return text, "%s does not exist" % vmlinux
    script = os.path.join(tree, "scripts/decode_stacktrace.sh")
    if not os.path.exists(script):
        return text, "%s does not exist" % script
    for tool in ("readelf", "addr2line", "nm"):
        if not shutil.which(tool):
            return text, "%s is not installed (binutils)" % tool
    try:
        p = subprocess.run(["readelf", "-S", "--wide", vmlinux], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=60)
        if ".debug_line" not in p.stdout:
            return text, "%s has no line information (CONFIG_DEBUG_INFO is off)" % vmlinux
        p = subprocess.run(["bash", script, vmlinux, os.path.realpath(tree),
                            os.path.dirname(os.path.abspath(vmlinux))],
                           input=text + "\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return text, "decode_stacktrace.sh: %s" % e
    if p.returncode != 0 or not p.stdout.strip():
        return text, "decode_stacktrace.sh exited %d: %s" % (p.returncode, p.stderr.strip()[-300:])
    # out-of-tree builds record sources as <objdir>/../<tree>/file: keep
    # the path in the tree, as the kernel's own reports print it
    objdir = os.path.dirname(os.path.abspath(vmlinux))
    prefix = os.path.join(objdir, os.path.relpath(os.path.realpath(tree), objdir)) + "/"
    out = p.stdout.replace(prefix, "").replace(os.path.realpath(tree) + "/", "")
    return out.rstrip("\n"), None


KCSAN_HEAD_RE = re.compile(r"\[\s*\d+\.\d+\]\s+BUG: KCSAN: ([\w-]+) in (.*)")
KCSAN_ACCESS_RE = re.compile(r"(?:read|write)[^:]* to 0x[0-9a-f]+ of \d+ bytes by .* on cpu \d+:")
KCSAN_END_RE = re.compile(r"\[\s*\d+\.\d+\]\s+={20,}")
SRC_RE = re.compile(r"\(?([\w./-]+\.[ch]):(\d+)")
HUNK_RE = re.compile(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@")


def series_lines(diff_path):
    """{file: set of line numbers} the series adds or changes, from
    'git diff -U0 base HEAD'."""
    lines = collections.defaultdict(set)
    cur = None
    for l in read_lines(diff_path):
        if l.startswith("+++ "):
            cur = l[6:] if l.startswith("+++ b/") else None
            continue
        m = HUNK_RE.match(l)
        if m and cur:
            start, count = int(m.group(1)), int(m.group(2) or "1")
            lines[cur].update(range(start, start + count))
    return lines


class Kcsan:
    """KCSAN's reports, sorted by the code of the racing accesses: a report
    with an access at a line the series adds or changes fails the run, the
    others are the base's and are listed (configs/kcsan.config)."""

    def __init__(self, series_diff, out):
        self.series = series_lines(series_diff)
        self.out = out
        self.reports = []  # (where, key, places, text)

    def access_places(self, text):
        """The file:line places of each racing access's first frame (with
        its inline chain), or None for an access whose frame is not
        symbolized."""
        lines = text.split("\n")
        got = []
        for i, l in enumerate(lines):
            if not KCSAN_ACCESS_RE.search(l):
                continue
            places = None
            for f in lines[i + 1:i + 6]:
                body = re.sub(r"^\[\s*\d+\.\d+\]", "", f).strip()
                if not body:
                    continue
                places = [(x, int(n)) for x, n in SRC_RE.findall(body)] or None
                break
            got.append(places)
        return got

    def classify(self, text, head):
        key = " / ".join(re.sub(r"\+0x[0-9a-f]+/0x[0-9a-f]+", "", x).strip()
                         for x in head.group(2).split(" / "))
        key = "%s in %s" % (head.group(1), key)
        accesses = self.access_places(text)
        # an access the symbolizer could not place counts as the series'
        series = not accesses or any(
            p is None or any(n in self.series.get(f, ()) for f, n in p) for p in accesses)
        places = sorted({"%s:%d" % x for p in accesses if p for x in p})
        self.reports.append(("series" if series else "base", key, places, text))
        return series

    def report(self, res, tag):
        mine = [r for r in self.reports if r[0] == "series"]
        base = [r for r in self.reports if r[0] == "base"]
        res.add("kcsan", "series-code" + tag, FAIL if mine else PASS,
                "%d KCSAN reports with an access at a line the series adds or changes, "
                "%d in the base's code" % (len(mine), len(base)))
        for _, key, places, _ in base:
            res.notes.append("KCSAN%s, base code: %s (%s)" % (tag, key, " ".join(places)))
        if self.out:
            with open(self.out, "a") as f:
                for where, key, places, _ in self.reports:
                    f.write("%s\t%s\t%s\t%s\n" % (where, tag.lstrip(":"), key, " ".join(places)))
        self.reports = []


def scan_console(lines, res, expect_done, tag="", tree=None, vmlinux=None, kcsan=None,
                 stale=False):
    """Fail on kernel reports and dropped messages on a console. stale: the
    console of a boot that stalled on the emulator's fault (its results do
    not count): from its first stall report on, the stall's own reports
    and dumps are the fault's evidence, and only other reports count."""
    splats = []
    bare = set()  # the splats that are call traces of no report line
    dropped = []
    stalled = False
    last_report = None  # the last report line's index
    for i, line in enumerate(lines):
        if stale and not stalled and STALL_RE.search(line):
            stalled = True
        own = SPLAT_RE.search(line) or WARNING_LINE_RE.search(line)
        trace = not own and CALL_TRACE_RE.search(line)
        if stalled and (STALL_RE.search(line) or DROPPED_RE.search(line) or trace):
            continue
        # a KCSAN report's header alone decides it; the lines of its body
        # are scanned as every other line (another CPU's report can land
        # among them)
        head = KCSAN_HEAD_RE.search(line) if kcsan else None
        if head:
            end = next((j for j in range(i + 1, min(len(lines), i + 200))
                        if KCSAN_END_RE.search(lines[j])), min(len(lines), i + 60))
            text = "\n".join(lines[i:end])
            sym = symbolize(text, tree, vmlinux)[0] if tree else text
            if kcsan.classify(sym, head):
                splats.append(i)
                last_report = i
            continue
        if trace:
            # a report's own stack dump counts with the report
            if last_report is None or i - last_report > CALL_TRACE_SPAN:
                splats.append(i)
                bare.add(i)
            continue
        if own:
            splats.append(i)
            last_report = i
        m = DROPPED_RE.search(line)
        if m:
            dropped.append(int(m.group(1)))
    if dropped:
        res.add("console", "no-message-dropped" + tag, FAIL,
                "the console dropped %d kernel messages (%d times): a report may be "
                "among them" % (sum(dropped), len(dropped)))
    else:
        res.add("console", "no-message-dropped" + tag, PASS)
    if splats:
        # 2 lines before each of the first 5 reports and 25 after, once
        # each where they overlap; 6 before a bare call trace, whose
        # reason comes before its CPU and hardware lines
        spans = []
        for i in splats[:5]:
            lo, hi = max(0, i - (6 if i in bare else 2)), min(len(lines), i + 25)
            if spans and lo <= spans[-1][1]:
                spans[-1][1] = max(spans[-1][1], hi)
            else:
                spans.append([lo, hi])
        text = "\n...\n".join("\n".join(lines[lo:hi]) for lo, hi in spans)
        if tree:
            text, why = symbolize(text, tree, vmlinux)
            if why:
                res.notes.append("note: kernel reports%s are not symbolized: %s" % (tag, why))
        res.add("console", "no-kernel-splat" + tag, FAIL,
                "%d kernel report(s) on the console%s:\n%s" % (
                    len(splats), " of a boot that stalled on the emulator's fault (its "
                    "results do not count, its kernel reports do)" if stale else "", text))
    else:
        res.add("console", "no-kernel-splat" + tag, PASS)
    if expect_done:
        done = [m for m in (DONE_RE.search(l) for l in lines) if m]
        if done and all(m.group(1) == "0" for m in done) and len(done) == 1:
            res.add("console", "guest-finished" + tag, PASS)
        elif done:
            res.add("console", "guest-finished" + tag, FAIL,
                    "the guest's run ended with %s: its script failed"
                    % ", ".join(m.group(0) for m in done))
        else:
            res.add("console", "guest-finished" + tag, FAIL,
                    "no FTX-DONE: the guest died or timed out. Last lines:\n" + "\n".join(lines[-30:]))


def check_parts(path, res, runs, kunit_ran):
    """Every part the run was asked for ran: a guest test script reports
    FTX-TIME, an ftracetest category an FTX-FTRACETEST-BEGIN, kunit a
    KUnit result on a console."""
    want = [l.strip() for l in read_lines(path) if l.strip() and not l.startswith("#")]
    if not want:
        res.add("parts", "all-ran", FAIL, "the list of parts to run (%s) is missing or empty" % path)
        return
    cats = {r.cat for r in runs}
    missing = []
    for p in want:
        if p == "kunit":
            if not kunit_ran:
                missing.append(p)
        elif p.startswith("ftracetest:"):
            if p.split(":", 1)[1] not in cats:
                missing.append(p)
        elif p not in res.times:
            missing.append(p)
    for p in missing:
        res.add("parts", p, FAIL, "did not run (no result from this part in any results log)")
    if not missing:
        res.add("parts", "all-ran", PASS, "%d parts" % len(want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--console", action="append", default=[],
                    help="console log of a guest (repeat for several guests)")
    ap.add_argument("--results", action="append", default=[],
                    help="results channel of the guest, in the same order")
    ap.add_argument("--tree", required=True)
    ap.add_argument("--xfail", help="known base failures (tests/ftracetest-base-failures.txt)")
    ap.add_argument("--xfail-exact", action="store_true",
                    help="the base lane: fail unless the known failures are exactly what failed")
    ap.add_argument("--expected-skips",
                    help="results that may say a test did not run (tests/expected-skips.txt)")
    ap.add_argument("--expect-parts", help="parts that must have run, one a line")
    ap.add_argument("--expected-results",
                    help="the results each part must print (tests/expected-results.txt)")
    ap.add_argument("--lane", default="test", help="the lane, for --expected-results")
    ap.add_argument("--lane-parts",
                    help="the parts the lane's whole plan runs (not narrowed by ONLY), one a "
                    "line: each part --expected-results names for the lane must be one")
    ap.add_argument("--flavour", help="the guests' kernel (test, debug, kcsan); "
                    "default: debug in lane debug, test otherwise")
    ap.add_argument("--host", action="append", default=[], help="host FTX-RESULT file")
    ap.add_argument("--no-kunit", action="store_true")
    # the console of a guest booted with a kunit.filter_glob that matches
    # no suite: only the guest given part kunit runs it (run-lane.sh)
    ap.add_argument("--skip-kunit", action="append", default=[])
    # the multi-threaded lane boots a guest again when QEMU ran code the
    # guest had rewritten (run-lane.sh): the stalled boot's console
    ap.add_argument("--stale-console", action="append", default=[],
                    help="console of a boot that stalled on the emulator's fault: its "
                    "results do not count, but a kernel report on it (not the stall's "
                    "own) fails the run")
    ap.add_argument("--kmemleak-symbols",
                    help="functions whose leaks fail the run (one per line)")
    ap.add_argument("--vmlinux", help="the guests' vmlinux, to symbolize kernel reports")
    ap.add_argument("--kcsan-series-diff",
                    help="the series' 'git diff -U0 base HEAD': a KCSAN report with an "
                    "access at a line it adds or changes fails the run, the others are listed")
    ap.add_argument("--kcsan-out", help="write each KCSAN report's verdict, key and files here")
    ap.add_argument("--demo", action="store_true",
                    help="make run: scan the consoles for kernel reports and the demo's "
                    "exit status only (the demo prints no results)")
    ap.add_argument("--expect-kernel", metavar="BZIMAGE",
                    help="the kernel image just built: each console must show that kernel "
                    "booting (its version string, build number and time)")
    ap.add_argument("--narrowed", action="append", default=[],
                    help="what made this run less than a full one (ONLY=..., BZIMAGE=...): "
                    "said plainly before the closing line")
    ap.add_argument("--summary-json")
    args = ap.parse_args()
    if not args.flavour:
        args.flavour = "debug" if args.lane == "debug" else "test"

    res = Results()
    skips = ExpectedSkips(args.expected_skips, res)
    ran = {}    # test -> statuses it ran with
    runs = []   # FtraceRun
    kunit_ran = False
    for h in args.host:
        lines = read_lines(h)
        if not any(l.startswith("FTX-RESULT ") for l in lines):
            res.add("host", os.path.basename(h), FAIL, "%s holds no result: the check did not run" % h)
        parse_results_channel(lines, res, {}, {}, set(), skips, runs, ran, h, strict=False)

    if args.console:
        index = ftracetest_index(args.tree)
        xfail = read_xfail(args.xfail)
        seen = set()
        syms = set(read_lines(args.kmemleak_symbols)) if args.kmemleak_symbols else None
        kcsan = None
        if args.kcsan_series_diff:
            if args.kcsan_out:
                open(args.kcsan_out, "w").close()
            kcsan = Kcsan(args.kcsan_series_diff, args.kcsan_out)
        for i, con in enumerate(args.console):
            tag = ":" + os.path.basename(con).rsplit(".", 1)[0] if len(args.console) > 1 else ""
            results = args.results[i] if i < len(args.results) else None
            clines = read_lines(con)
            if args.expect_kernel:
                check_kernel(args.expect_kernel, clines,
                             [] if args.demo else read_lines(results), res, tag)
            if args.demo:
                scan_console(clines, res, True, tag, args.tree, args.vmlinux, kcsan)
                if kcsan:
                    kcsan.report(res, tag)
                continue
            rlines = read_lines(results)
            # KUnit runs at the boot of the guest given part kunit (every
            # guest when run by hand): a crash in its run counts
            if not args.no_kunit and con not in args.skip_kunit:
                kunit_ran |= parse_kunit(args.tree, con, res, skips, ran, tag, xfail, seen) > 0
            elif con in args.skip_kunit and any(KUNIT_SUITE_RE.search(l) for l in clines):
                # the filter was not honoured: the suites' time is spent twice
                res.add("kunit", "filter-ignored" + tag, FAIL,
                        "booted with a kunit.filter_glob that matches no suite, "
                        "but KUnit suites ran on this console")
            parse_results_channel(rlines, res, index, xfail, seen, skips, runs, ran, results or "results")
            check_results_log(results, rlines, res, tag)
            # the end-of-run checks of the kernel's state are results too:
            # a guest that skipped them proved less than it says
            want_end = []
            if args.expect_parts:
                want_end = ["not-tainted"] + (["lockdep-on"] if args.flavour == "debug" else [])
            for w in want_end:
                if rlines and not any(re.match(r"FTX-RESULT kernel %s(:\S+)? " % w, l) for l in rlines):
                    res.add("kernel", w + "-checked" + tag, FAIL,
                            "the guest printed no 'kernel %s' result" % w)
            scan_console(clines, res, True, tag, args.tree, args.vmlinux, kcsan)
            if kcsan:
                kcsan.report(res, tag)
            if syms is not None:
                km = parse_kmemleak(rlines, res, syms, tag)
                if any(KMEMLEAK_OFF_RE.search(l) for l in clines):
                    res.add("kmemleak", "stayed-enabled" + tag, FAIL,
                            "the console says 'Kernel memory leak detector disabled': "
                            "kmemleak's scan proves nothing")
                if km:
                    res.notes.append("kmemleak%s: %d suspected leaks, %d in tracing/samples/series"
                                     % (tag, km[0], km[1]))
        for con in args.stale_console:
            tag = ":" + os.path.basename(con).rsplit(".", 1)[0]
            scan_console(read_lines(con), res, False, tag, args.tree, args.vmlinux, kcsan,
                         stale=True)
            if kcsan:
                kcsan.report(res, tag)
        # A listed base failure that passes now is good news, but the list
        # must then be updated: say so without failing (the base lane,
        # --xfail-exact, fails it: there the list is what is measured).
        # a .tc file by its case name, a KUnit case by its kunit:suite.case
        ran_ids = {c[1] for c in res.cases} | set(ran)
        stale = [tid for tid in sorted(set(xfail) - seen) if tid in ran_ids]
        for tid in stale:
            if args.xfail_exact:
                res.add("known-failures", tid, FAIL, "listed in %s but did not fail"
                        % os.path.basename(args.xfail))
            else:
                res.notes.append("note: %s is listed in %s but did not fail: update the list"
                                 % (tid, os.path.basename(args.xfail)))
        if args.xfail_exact:
            unseen = sorted(set(xfail) - seen - set(stale))
            nok = []
            # a KUnit case listed for the test lane (the list serves both)
            # cannot run in a base run that boots no KUnit suite
            if not kunit_ran:
                nok = [tid for tid in unseen if tid.startswith("kunit:")]
                unseen = [tid for tid in unseen if not tid.startswith("kunit:")]
                if nok:
                    res.notes.append("note: %d KUnit entries of %s not checked: no KUnit "
                                     "suite ran (%s)" % (len(nok), os.path.basename(args.xfail),
                                                        ", ".join(nok)))
            for tid in unseen:
                res.add("known-failures", tid, FAIL, "listed in %s but did not run"
                        % os.path.basename(args.xfail))
            other = [c for c in res.cases if c[2] == FAIL and c[0].startswith("ftracetest/")]
            if not stale and not unseen and not other:
                res.add("known-failures", "exact", PASS, "%d listed, each failed, no other "
                        "ftracetest failure" % (len(xfail) - len(nok)))
            else:
                res.add("known-failures", "exact", FAIL, "%d listed did not fail, %d did not run, "
                        "%d other ftracetest failures" % (len(stale), len(unseen), len(other)))
    for run in runs:
        run.check(res)
    if args.expect_parts:
        check_parts(args.expect_parts, res, runs, kunit_ran)
        if args.expected_results:
            check_expected_results(args.expected_results, args.lane, args.tree,
                                   args.expect_parts, res, runs, args.lane_parts)
    skips.report_unseen(res, ran, {r.cat for r in runs if r.only})

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

    if runs:
        print("\nftracetest's own totals per category:")
        for r in runs:
            words = {st: w for w, st in FT_TOTALS.items()}
            if not r.totals:
                t = "no totals"
            else:
                t = ", ".join("%s %d" % (words[k], v) for k, v in r.totals.items() if v) or "0 cases"
            print("  %-22s %s" % (r.cat, t))

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
                       "cases": res.cases, "times": res.times, "notes": res.notes,
                       "part_results": res.part_results,
                       "lane_parts": sorted(l.strip() for l in read_lines(args.lane_parts)
                                            if l.strip() and not l.startswith("#"))
                       if args.lane_parts else None,
                       "narrowed": args.narrowed}, f, indent=1)
    print()
    if args.narrowed:
        # a green narrowed run proves less than a full one: say so where
        # the verdict is read
        print("NARROWED: %s -- not a full run" % "; ".join(args.narrowed))
    line = "%d passed, %d failed" % (n_pass, n_fail)
    if n_skip:
        line += ", %d skipped" % n_skip
    print(line)
    return 1 if n_fail or n_pass == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
