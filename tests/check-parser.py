#!/usr/bin/env python3
"""Host-side tests of scripts/parse-results.py, as FTX-RESULT lines on
stdout (make test reads them with --host and counts them).

Each case runs the parser on hand-made logs under tests/parser-fixtures/
and checks its verdict: the exit status, and exactly which results fail
and why. A case that fails here means the gate could go green on a run
that is not, or red on one that is fine.

    tests/check-parser.py [--tree build/linux] [-v]
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import traceback

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(TOP, "tests", "parser-fixtures")
PARSER = os.path.join(TOP, "scripts", "parse-results.py")


class Case:
    def __init__(self, name, fails=(), skips=(), notes=(), nonotes=(), passes=(), guests=("",),
                 args=(), tree=None, before_last=None, fixture=None, tcs=None):
        self.name = name
        self.tree = tree            # "fake": FAKE_TREE's ftracetest files
        self.tcs = tcs or {}        # more files of the fake tree: path -> description
        # (suite, name regex, detail regex): each FAIL must match one, and
        # each must match a FAIL; none at all means the run must pass
        self.fails = list(fails)
        self.skips = list(skips)    # (suite, name regex, detail regex), the same way
        self.notes = list(notes)    # regexes that some note must match
        self.nonotes = list(nonotes)  # regexes that no note may match
        self.passes = list(passes)  # (suite, name regex, detail regex) that must pass
        self.guests = guests        # "" for console.log/results.log, "a" for console-a.log...
        self.args = list(args)
        self.before_last = before_last  # regex the line before the closing line must match
        self.fixture = fixture or name  # the directory under parser-fixtures/


CASES = [
    Case("clean"),
    Case("warning", fails=[("console", r"no-kernel-splat", r"WARNING: CPU: 1 PID: 231")]),
    Case("no-done", fails=[("console", r"guest-finished", r"no FTX-DONE")]),
    Case("empty-category", fails=[("ftracetest/00basic", r"ftracetest-run", r"no test case ran")]),
    Case("unsupported",
         fails=[("ftracetest/kprobe", r"kprobe/uprobe_syntax_errors\.tc",
                 r"UNSUPPORTED; a test that did not run fails unless expected-skips\.txt lists it")],
         skips=[("ftracetest/kprobe", r"kprobe/kprobe_args_string\.tc",
                 r"UNSUPPORTED, as expected-skips\.txt:3 expects")],
         notes=[r"expected-skips\.txt:4 lists kprobe/kprobe_args_syntax\.tc as UNSUPPORTED, "
                r"but it did not appear although kprobe ran"]),
    Case("xfail",
         passes=[("ftracetest/trigger/inter-event", r"trigger/inter-event/trigger-action-hist-xfail\.tc",
                  r"XFAIL as expected-skips\.txt:5 expects")],
         fails=[("ftracetest/trigger/inter-event", r"trigger/inter-event/trigger-onmax-action-hist\.tc",
                 r"XFAIL; a test that ended in XFAIL \(its expected failure\) fails unless expected-skips\.txt")]),
    Case("truncated-results",
         fails=[("console", r"results-complete", r"cut off: it ends with '\[2\] Basic test for t'"),
                ("ftracetest/00basic", r"ftracetest-run",
                 r"log is cut off.*printed no totals")]),
    Case("kunit-crash", guests=("a", "b"),
         fails=[("kunit", r"fixture_suite\.<case [23]: no result line>:console-b", r"crashed"),
                ("kunit", r"ktap-parses:console-b", r"missing expected subtest"),
                ("console", r"no-kernel-splat:console-b", r"BUG: kernel NULL pointer dereference"),
                ("console", r"guest-finished:console-b", r"no FTX-DONE"),
                ("console", r"results-complete:console-b", r"missing or empty")]),
    # part kunit: one guest runs KUnit; the other, booted with a filter
    # that matches no suite, prints an empty KTAP plan that is not read
    Case("kunit-one-guest", guests=("a", "b"),
         args=["--skip-kunit", "console-b.log", "--expect-parts", "parts.txt"],
         passes=[("kunit", r"fixture_suite\.fixture_snapshot:console-a", r""),
                 ("parts", r"all-ran", r"3 parts")]),
    # ... and when both were told to skip it, part kunit did not run
    Case("kunit-no-guest", guests=("a", "b"),
         args=["--skip-kunit", "console-a.log", "--skip-kunit", "console-b.log",
               "--expect-parts", "parts.txt"],
         fails=[("parts", r"kunit", r"did not run")]),
    # a guest told to skip KUnit that ran it anyway (the filter ignored)
    Case("kunit-filter-ignored", guests=("a", "b"),
         args=["--skip-kunit", "console-a.log", "--skip-kunit", "console-b.log"],
         fails=[("kunit", r"filter-ignored:console-a", r"KUnit suites ran")]),
    Case("exit-without-failure",
         fails=[("ftracetest/00basic", r"ftracetest-run", r"exited 1 with no failed case parsed")]),
    Case("totals-differ",
         fails=[("ftracetest/00basic", r"ftracetest-run",
                 r"differ from ftracetest's totals \(PASS: 2 parsed, ftracetest counted 3\)")]),
    Case("failed-case-log",
         fails=[("ftracetest/tracer", r"tracer/wakeup_rt\.tc",
                 r"^FAIL; its log ends:\n      \| \+ echo wakeup_rt\n(?:.*\n)*"
                 r"      \| \+ grep '\+ .*' trace$")]),
    Case("hang", fails=[("console", r"no-kernel-splat",
                         r"2 kernel report.*INFO: task sh:231 blocked for more than 120 seconds"
                         r".*BUG: workqueue lockup")]),
    Case("guest-skip-and-missing-part", args=["--expect-parts", "parts.txt"],
         fails=[("parts", r"trace-cdm", r"unknown part"),
                ("trace-cmd", r"extract-snapshot", r"SKIP: trace-cmd too old; a test that did not run"),
                ("parts", r"ftracetest:instances", r"did not run")]),
    Case("kmemleak-off", args=["--kmemleak-symbols", "symbols.txt"],
         fails=[("kmemleak", r"no-leak-in-tracing", r"switched itself off.*a scan was refused"),
                ("kmemleak", r"stayed-enabled", r"Kernel memory leak detector disabled")]),
    Case("kmemleak-clean", args=["--kmemleak-symbols", "symbols.txt"],
         nonotes=[r"trigger-action-hist-xfail"]),
    # the base lane (make test BASE=1): the list of known base failures is
    # exact, or the run fails
    Case("base-exact", args=["--xfail", "xfail.txt", "--xfail-exact"],
         skips=[("ftracetest/00basic", r"00basic/basic2\.tc", r"known base failure: a fixture reason")],
         passes=[("known-failures", r"exact", r"1 listed, each failed")]),
    # a KUnit case of the base's own suites that fails on the base too
    # is a known failure (skipped, with its reason); any other fails; a
    # listed case that passes asks for the list to be updated
    Case("kunit-xfail", args=["--xfail", "xfail.txt"],
         passes=[("kunit", r"base_suite\.base_passes", r"")],
         skips=[("kunit", r"base_suite\.base_known", r"known base failure: a fixture reason")],
         fails=[("kunit", r"base_suite\.base_new", r"FAIL")],
         notes=[r"kunit:base_suite\.base_fixed is listed in xfail\.txt but did not fail"]),
    # result lines that do not parse: an empty name (what a kselftest
    # wrapper prints when "not ok" comes before "#  RUN"), a lower-case
    # status, an unknown FTX line, stray text on the results channel
    Case("malformed",
         fails=[("harness", r"result-lines-parse:results\.log",
                 r"4 lines .*line 4: 'FTX-RESULT ring-buffer-map  FAIL see the log'.*"
                 r"line 5: 'FTX-RESULT samples instance-removed fail '.*"
                 r"line 6: 'FTX-RSULT samples typo PASS'.*line 7: 'not ok 3 map_test'")]),
    # the guest's script exited non-zero: FTX-DONE rc=1
    Case("done-rc", fails=[("console", r"guest-finished", r"ended with FTX-DONE rc=1")]),
    # leaks whose only module frame is a bare address (the module was
    # unloaded before the scan) or a named frame of a loaded module
    Case("kmemleak-module", args=["--kmemleak-symbols", "symbols.txt"],
         fails=[("kmemleak", r"no-leak-in-tracing", r"^2 leaks in tracing.*0xffffffffc0012345"
                 r".*sample_sink_write\+0x12/0x40 \[sample_trace_export\]")]),
    Case("kmemleak-no-symbols", args=["--kmemleak-symbols", "symbols.txt"],
         fails=[("kmemleak", r"no-leak-in-tracing", r"list of tracing symbols is empty")]),
    # the debug lane's guests end with lockdep's own verdict: a guest that
    # did not print it, and one where lockdep had switched itself off
    Case("lockdep-off", guests=("a", "b"), args=["--lane", "debug", "--expect-parts", "parts.txt"],
         fails=[("kernel", r"lockdep-on:a", r"debug_locks=0"),
                ("kernel", r"lockdep-on-checked:console-b", r"no 'kernel lockdep-on' result")]),
    # KCSAN (the kcsan flavour): a report with an access at a line the
    # series adds or changes fails, one in the base's code only is listed
    # (mm/filemap.c is in the diff too, but not its racing line)
    Case("kcsan-series", args=["--kcsan-series-diff", "series.diff"],
         fails=[("console", r"no-kernel-splat", r"1 kernel report.*rb_commit.*ring_buffer\.c:3210"),
                ("kcsan", r"series-code", r"^1 KCSAN reports with an access at a line the series "
                 r"adds or changes, 1 in the base's code$")],
         notes=[r"KCSAN, base code: data-race in filemap_read / folio_mark_accessed "
                r"\(include/linux/page-flags\.h:489 mm/filemap\.c:2760 mm/swap\.c:460\)"]),
    Case("kcsan-base", args=["--kcsan-series-diff", "series.diff"],
         passes=[("kcsan", r"series-code", r"^0 KCSAN reports with an access at a line the series "
                  r"adds or changes, 1 in the base's code$")],
         notes=[r"KCSAN, base code: data-race in filemap_read / folio_mark_accessed"]),
    # a WARNING printed among the lines of a base KCSAN report still fails
    Case("kcsan-interleaved", args=["--kcsan-series-diff", "series.diff"],
         fails=[("console", r"no-kernel-splat", r"1 kernel report.*WARNING: CPU: 1 PID: 231")]),
    # the list of each part's results (tests/expected-results.txt) against
    # what ran, in a small tree of ftracetest files (FAKE_TREE)
    Case("expected-results", tree="fake",
         args=["--expect-parts", "parts.txt", "--expected-results", "expected.txt"],
         fails=[("expected-results", r"samples", r"1 missing: samples:instance-removed; "
                 r"1 not in expected\.txt.*: samples:instance-renamed"),
                ("expected-results", r"quiet", r"printed no result"),
                ("expected-results", r"ftracetest:00basic",
                 r"1 missing: 00basic/basic3\.tc \(instance\)"),
                ("expected-results", r"00basic/vanished\.tc", r"the tree has no such test"),
                ("expected-results", r"00basic/unlisted\.tc", r"does not list it"),
                ("expected-results", r"kunit", r"1 missing: kunit:fixture_suite\.fixture_gone")]),
    Case("expected-results-exact", tree="fake",
         args=["--expect-parts", "parts.txt", "--expected-results", "expected.txt",
               "--lane-parts", "lane-parts.txt"],
         passes=[("expected-results", r"all-present", r"3 parts.*each part it lists is in "
                  r"the lane's plan")]),
    # the list against the lane's whole plan (run-lane.sh --lane-parts), in
    # a run narrowed to three parts (ONLY): a part whose script is gone and
    # one the lane leaves out fail; one the narrowed run left out, and one
    # of another lane, do not
    Case("expected-results-plan", tree="fake",
         args=["--expect-parts", "parts.txt", "--expected-results", "expected.txt",
               "--lane-parts", "lane-parts.txt"],
         fails=[("expected-results", r"trace-cmd", r"lists 1 results of part trace-cmd for lane "
                 r"test, but the lane's plan does not run it"),
                ("expected-results", r"vanished", r"lists 1 results of part vanished for lane "
                 r"test, but the lane's plan does not run it")]),
    # CPU mitigation notes and NMI timing notes at boot are no reports
    Case("boot-notes"),
    # a file block cut off by a killed part: the results after it count
    Case("file-cut",
         fails=[("mmap-record", r"timeout", r"killed after 400s"),
                ("harness", r"result-lines-parse:results\.log",
                 r"1 lines .*FTX-FILE block not closed before this line\) FTX-RESULT mmap-record timeout")]),
    # a host check's own messages are not results; a malformed FTX line is
    Case("host-text", args=["--host", "host.txt"],
         fails=[("harness", r"result-lines-parse:.*host\.txt", r"1 lines .*'FTX-RESULT static  FAIL empty name'")]),
    # the list of results is missing: that is no pass
    # make soak: each round prints each result, not only the rounds together
    Case("soak-rounds", tree="fake",
         args=["--expect-parts", "parts.txt", "--expected-results", "expected.txt"],
         fails=[("expected-results", r"samples", r"^round 2: 1 missing: samples:instance-removed$")]),
    Case("soak-rounds-exact", tree="fake",
         args=["--expect-parts", "parts.txt", "--expected-results", "expected.txt"],
         passes=[("expected-results", r"all-present", r"3 parts")]),
    Case("expected-results-missing", tree="fake",
         args=["--expect-parts", "parts.txt", "--expected-results", "no-such-list.txt"],
         fails=[("expected-results", r"list", r"no-such-list\.txt does not exist")]),
    # each guest booted the kernel just built (--expect-kernel, the image's
    # version string): b booted an older build of the same release, c
    # another kernel (BZIMAGE=)
    Case("kernel-other", guests=("a", "b", "c"), args=["--expect-kernel", "bzImage"],
         passes=[("kernel", r"booted-as-built:console-a", r"^6\.1\.0-ftx \(fixture@ftx\) #1 ")],
         fails=[("kernel", r"booted-as-built:console-b", r"did not boot the kernel just built.*"
                 r"the console's kernel is 6\.1\.0-ftx \(fixture@ftx\) #2 SMP PREEMPT_DYNAMIC "
                 r"Fri Nov 28"),
                ("kernel", r"booted-as-built:console-c", r"the console's kernel is 6\.1\.0-other.*"
                 r"the console's FTX-BOOT kernel=6\.1\.0-other; "
                 r"the results log's FTX-RUN-BEGIN kernel=6\.1\.0-other")]),
    # a run narrowed by ONLY or BZIMAGE (run-lane.sh --narrowed) says so
    # right before its closing line
    Case("narrowed", fixture="clean",
         args=["--narrowed", "ONLY=samples", "--narrowed", "BZIMAGE=/tmp/other/bzImage"],
         before_last=r"NARROWED: ONLY=samples; BZIMAGE=/tmp/other/bzImage -- not a full run"),
    # the multi-threaded lane's boot that stalled on the emulator's fault
    # (run-lane.sh boots the guest again): a report before its stall fails
    # the run; the stall's own reports and dumps (RCU stall, NMI
    # backtraces, soft lockup, dropped messages after it) do not
    Case("stale-code", guests=("a",), args=["--stale-console", "console-a.stale-code.log"],
         fails=[("console", r"no-kernel-splat:console-a\.stale-code",
                 r"^1 kernel report\(s\) on the console of a boot that stalled on the "
                 r"emulator's fault.*BUG: KASAN: slab-use-after-free in trace_array_put")]),
    Case("stale-code-stall", guests=("a",), args=["--stale-console", "console-a.stale-code.log"],
         passes=[("console", r"no-kernel-splat:console-a\.stale-code", r""),
                 ("console", r"no-message-dropped:console-a\.stale-code", r"")]),
    # a category run takes in its subdirectories (7.2's remotes/ holds
    # remotes/hypervisor/): their results are named by their files too;
    # files that share a description (7.2's fgraph-filter.tc and
    # fgraph-multi.tc) are named in the order ftracetest runs them
    Case("category-subdir", tree="fake",
         tcs={"remotes/buffer_size.tc": "fixture remote buffer size",
              "remotes/hypervisor/buffer_size.tc": "fixture hypervisor buffer size",
              "remotes/same-a.tc": "fixture same description",
              "remotes/same-b.tc": "fixture same description"},
         passes=[("ftracetest/remotes", r"^remotes/buffer_size\.tc$", r""),
                 ("ftracetest/remotes", r"^remotes/hypervisor/buffer_size\.tc$", r""),
                 ("ftracetest/remotes", r"^remotes/same-a\.tc$", r""),
                 ("ftracetest/remotes", r"^remotes/same-b\.tc$", r"")]),
    # the list's KUnit entries are the test lane's: a base run that boots
    # no KUnit suite cannot check them, and says so
    Case("base-exact-kunit", args=["--skip-kunit", "console.log", "--xfail", "xfail.txt",
                                   "--xfail-exact"],
         skips=[("ftracetest/00basic", r"00basic/basic2\.tc", r"known base failure: a fixture reason")],
         passes=[("known-failures", r"exact", r"1 listed, each failed")],
         notes=[r"1 KUnit entries of xfail\.txt not checked: no KUnit suite ran "
                r"\(kunit:base_suite\.base_known\)"]),
    Case("base-stale", args=["--xfail", "xfail.txt", "--xfail-exact"],
         fails=[("known-failures", r"00basic/basic2\.tc", r"listed in xfail\.txt but did not fail"),
                ("known-failures", r"exact", r"1 listed did not fail")]),
]


# ftracetest files of the fake tree: test.d path -> flags line
FAKE_TREE = {
    "00basic/basic1.tc": "",
    "00basic/basic3.tc": "instance",
    "00basic/unlisted.tc": "",
    # ftracetest prints descriptions through printf: "%%" comes out "%"
    "00basic/percent.tc": "",
}
FAKE_DESC = {"00basic/percent.tc": "fixture %%return percent"}


def fake_tree(top, real, tcs=None):
    """A tree with FAKE_TREE's ftracetest files (and @tcs, path ->
    description) and the real tree's kunit.py."""
    files = {rel: (FAKE_DESC.get(rel, "fixture " + os.path.basename(rel)), flags)
             for rel, flags in FAKE_TREE.items()}
    files.update({rel: (desc, "") for rel, desc in (tcs or {}).items()})
    for rel, (desc, flags) in files.items():
        path = os.path.join(top, "tools/testing/selftests/ftrace/test.d", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n# description: %s\n# flags: %s\ntrue\n" % (desc, flags))
    os.symlink(os.path.join(os.path.abspath(real), "tools/testing/kunit"),
               os.path.join(top, "tools/testing/kunit"))
    return top


def run_case(case, tree, verbose):
    if case.tree == "fake":
        with tempfile.TemporaryDirectory() as top:
            return run_case_in(case, fake_tree(top, tree, case.tcs), verbose)
    return run_case_in(case, tree, verbose)


def report_case(path, tree, verbose):
    """tests/parser-fixtures/reports/NAME.log: one kernel report as 6.1
    prints it, put into the clean fixture's console. Its first line,
    '# expect: REGEX' (and '# result: NAME', default no-kernel-splat),
    says what must fail: that result alone, with a detail REGEX matches."""
    with open(path) as f:
        lines = f.read().splitlines()
    head = [l for l in lines if l.startswith("# ")]
    body = [l for l in lines if not l.startswith("# ")]
    expect = [l[len("# expect: "):] for l in head if l.startswith("# expect: ")]
    result = ([l[len("# result: "):] for l in head if l.startswith("# result: ")]
              or ["no-kernel-splat"])[0]
    if len(expect) != 1:
        return "%s has no '# expect: REGEX' line" % path
    with open(os.path.join(FIX, "clean", "console.log")) as f:
        con = f.read().splitlines()
    at = next(i for i, l in enumerate(con) if "Run /init" in l)
    case = Case("reports", fails=[("console", result, expect[0])])
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "console.log"), "w") as f:
            f.write("\n".join(con[:at] + body + con[at:]) + "\n")
        shutil.copy(os.path.join(FIX, "clean", "results.log"), os.path.join(d, "results.log"))
        return run_case_in(case, tree, verbose, d)


def run_case_in(case, tree, verbose, d=None):
    d = d or os.path.join(FIX, case.fixture)
    argv = [sys.executable, PARSER, "--tree", tree,
            "--expected-skips", os.path.join(FIX, "expected-skips.txt")]
    for g in case.guests:
        sfx = "-" + g if g else ""
        argv += ["--console", os.path.join(d, "console%s.log" % sfx),
                 "--results", os.path.join(d, "results%s.log" % sfx)]
    for a in case.args:
        argv.append(os.path.join(d, a) if os.path.exists(os.path.join(d, a)) else a)
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        p = subprocess.run(argv + ["--summary-json", tmp.name], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        try:
            with open(tmp.name) as f:
                summary = json.load(f)
        except (OSError, ValueError):
            return "the parser wrote no summary (exit %d): %s" % (p.returncode, p.stdout[-800:])
    if verbose:
        print(p.stdout, file=sys.stderr)
    problems = []
    out = p.stdout.rstrip().splitlines()
    last = out[-1] if out else ""
    if not re.fullmatch(r"\d+ passed, \d+ failed(, \d+ skipped)?", last):
        problems.append("closing line %r" % last)
    if case.before_last and not (len(out) > 1 and re.fullmatch(case.before_last, out[-2])):
        problems.append("the line before the closing line is %r, want %r"
                        % (out[-2] if len(out) > 1 else "", case.before_last))
    want_rc = 1 if case.fails else 0
    if p.returncode != want_rc:
        problems.append("exit %d, want %d" % (p.returncode, want_rc))

    def match(status, wanted, what):
        got = [(s, n, d) for s, n, st, d in summary["cases"] if st == status]
        for s, n, d in got:
            if not any(s == ws and re.fullmatch(wn, n) and re.search(wd, d, re.S)
                       for ws, wn, wd in wanted):
                problems.append("unexpected %s %s %s: %s" % (what, s, n, d[:200]))
        for ws, wn, wd in wanted:
            if not any(s == ws and re.fullmatch(wn, n) and re.search(wd, d, re.S)
                       for s, n, d in got):
                problems.append("no %s %s %s matching %r" % (what, ws, wn, wd))

    match("FAIL", case.fails, "failure")
    match("SKIP", case.skips, "skip")
    for wn in case.notes:
        if not any(re.search(wn, n) for n in summary.get("notes", [])):
            problems.append("no note matching %r" % wn)
    for wn in case.nonotes:
        for n in summary.get("notes", []):
            if re.search(wn, n):
                problems.append("unexpected note %r" % n)
    for ws, wn, wd in case.passes:
        if not any(s == ws and st == "PASS" and re.fullmatch(wn, n) and re.search(wd, d, re.S)
                   for s, n, st, d in summary["cases"]):
            problems.append("no pass %s %s matching %r" % (ws, wn, wd))
    if summary["passed"] == 0:
        problems.append("nothing passed: the fixture did not parse")
    return "; ".join(problems)


def symbolized_case(tree, vmlinux, verbose):
    """A kernel report's frames come out as file:line: a WARNING whose
    call trace has a real frame of @vmlinux (vfs_write, at an offset
    inside it) must be printed with fs/read_write.c:<line>."""
    p = subprocess.run(["nm", "-S", vmlinux], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, timeout=120)
    size = None
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == "vfs_write" and f[2] in "tT":
            size = int(f[1], 16)
    if not size:
        return "no vfs_write in %s" % vmlinux
    with open(os.path.join(FIX, "warning", "console.log")) as f:
        text = f.read().replace("vfs_write+0xc4/0x3b0", "vfs_write+0x%x/0x%x" % (size // 2, size))
    with tempfile.TemporaryDirectory() as d:
        con = os.path.join(d, "console.log")
        with open(con, "w") as f:
            f.write(text)
        argv = [sys.executable, PARSER, "--tree", tree, "--vmlinux", vmlinux, "--no-kunit",
                "--console", con, "--results", os.path.join(FIX, "warning", "results.log"),
                "--summary-json", os.path.join(d, "s.json")]
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=600)
        if verbose:
            print(p.stdout, file=sys.stderr)
        with open(os.path.join(d, "s.json")) as f:
            summary = json.load(f)
    details = [d for s_, n, st, d in summary["cases"] if n == "no-kernel-splat" and st == "FAIL"]
    if not details:
        return "the WARNING was not reported"
    if not re.search(r"vfs_write \(fs/read_write\.c:\d+", details[0]):
        notes = " ".join(n for n in summary.get("notes", []) if "symbolized" in n)
        return "the frame has no file:line: %s %s" % (details[0][-300:], notes)
    return ""


def bench_goals_case():
    """scripts/bench-goals.py on the bench-goals fixture: a missed goal
    without a reason, a goal whose row is missing and a missing "row"
    fail, and so do a value beyond the bound its reason excuses and a
    reason line with no bound or one on the wrong side; a missed goal
    within its excused bound and the met ones pass."""
    d = os.path.join(FIX, "bench-goals")
    p = subprocess.run([sys.executable, os.path.join(TOP, "scripts", "bench-goals.py"),
                        os.path.join(d, "goals.txt"), os.path.join(d, "base.log"),
                        os.path.join(d, "patched.log")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    got = {}
    for line in p.stdout.splitlines():
        m = re.match(r"FTX-RESULT bench-goals (\S+) (PASS|FAIL)", line)
        if m:
            got[m.group(1)] = m.group(2)
    want = {"hot-a": "PASS", "hot-b": "FAIL", "hot-c": "PASS", "swap": "PASS", "rate": "PASS",
            "gone": "FAIL", "row:patched:d": "FAIL", "hot-e": "FAIL", "dbench": "FAIL",
            "tbench": "PASS", "rate-3": "PASS", "goals:19": "FAIL", "goals:20": "FAIL"}
    problems = ["%s: %s, want %s" % (k, got.get(k, "no result"), v)
                for k, v in want.items() if got.get(k) != v]
    problems += ["unexpected result %s" % k for k in got if k not in want]
    if p.returncode != 1:
        problems.append("exit %d, want 1" % p.returncode)
    return "; ".join(problems)


def kmemleak_symbols_case():
    """scripts/kmemleak-symbols.sh (run-lane.sh's list of the functions
    whose leaks fail the debug lane) on the kmemleak-symbols fixture: a
    git tree whose series changes or adds files outside kernel/trace, and
    a build of one-function objects. Each function of kernel/trace, of a
    file the series touches and of a module must be listed; one of a file
    the series leaves alone must not."""
    rows = []
    with open(os.path.join(FIX, "kmemleak-symbols", "files.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rows.append(line.split())
    git = ["git", "-c", "user.name=fixture", "-c", "user.email=fixture@localhost",
           "-c", "init.defaultBranch=main"]
    with tempfile.TemporaryDirectory() as d:
        tree, obj = os.path.join(d, "tree"), os.path.join(d, "obj")

        def write(path, text):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)

        for path, func, what in rows:
            if what != "added" and path.endswith(".c"):
                write(os.path.join(tree, path), "int %s(void) { return 0; }\n" % func)
        subprocess.run(git + ["init", "-q", tree], check=True)
        subprocess.run(git + ["-C", tree, "add", "."], check=True)
        subprocess.run(git + ["-C", tree, "commit", "-qm", "base"], check=True)
        subprocess.run(git + ["-C", tree, "tag", "base"], check=True)
        for path, func, what in rows:
            if what in ("changed", "added") and path.endswith(".c"):
                write(os.path.join(tree, path), "int %s(void) { return 1; }\n" % func)
        subprocess.run(git + ["-C", tree, "add", "."], check=True)
        subprocess.run(git + ["-C", tree, "commit", "-qm", "the series"], check=True)
        for path, func, _ in rows:
            out = os.path.join(obj, path[:-2] + ".o" if path.endswith(".c") else path)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            p = subprocess.run(["gcc", "-c", "-x", "c", "-o", out, "-"], input="int %s(void) "
                               "{ return 0; }\n" % func, text=True, stderr=subprocess.PIPE)
            if p.returncode:
                return "gcc: %s" % p.stderr.strip()
        p = subprocess.run([os.path.join(TOP, "scripts", "kmemleak-symbols.sh"), tree, obj],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    got = set(p.stdout.split())
    problems = ["exit %d: %s" % (p.returncode, p.stdout[-300:])] if p.returncode else []
    for path, func, what in rows:
        want = not (what == "untouched" and not path.startswith("kernel/trace/"))
        if want and func not in got:
            problems.append("%s (%s, %s) not listed" % (func, path, what))
        elif not want and func in got:
            problems.append("%s (%s, not the series') listed" % (func, path))
    return "; ".join(problems)


def demo_steps_case():
    """make run's steps (guest/demo-step.sh's run, guest/demo.sh): under
    the guest's /bin/sh (dash: scripts/mkinitramfs.sh), a step fails when
    any command in it fails, the first of a pipeline or one before a ";",
    and a step that succeeds does not. No step pipes into a reader that
    stops early (head, grep -m, grep -q), whose writer would then die of
    SIGPIPE, a failure that depends on timing."""
    steps = [("false | cat", True), ("false; true", True), ("true | false | cat", True),
             ("echo ok | cat", False), ("grep -q x /dev/null || true", False),
             ("seq 3 | while read i; do echo $i; done >/dev/null", False)]
    script = ". %s\n%s\necho \"failed=$failed\"\n" % (
        os.path.join(TOP, "guest", "demo-step.sh"),
        "\n".join("run %s" % shlex.quote(cmd) for cmd, _ in steps))
    sh = shutil.which("dash") or "sh"
    p = subprocess.run([sh, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=60)
    problems = []
    for cmd, fails in steps:
        said = "!!! demo step failed (exit 1): %s" % cmd in p.stdout.splitlines()
        if said != fails:
            problems.append("step %r %s" % (cmd, "passed, want failed" if fails else "failed"))
    want = "failed=%d" % sum(f for _, f in steps)
    if want not in p.stdout.splitlines():
        problems.append("want %s: %s" % (want, p.stdout.strip().splitlines()[-1:]))
    with open(os.path.join(TOP, "guest", "demo.sh")) as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'\s*run "(.*)"\s*$', line)
            if not m:
                continue
            lex = shlex.shlex(m.group(1).replace('\\"', '"').replace("\\$", "$"),
                              posix=True, punctuation_chars=True)
            toks = list(lex)
            for i, t in enumerate(toks[:-1]):
                if t != "|":
                    continue
                words = toks[i + 1:]
                words = words[:next((j for j, w in enumerate(words) if w in ("|", "||", "&&", ";", "&")),
                                    len(words))]
                if words[0] == "head" or (words[0] == "grep" and any(
                        re.match(r"-[a-zA-Z]*[mq]|--(max-count|quiet|silent)", w) for w in words[1:])):
                    problems.append("guest/demo.sh:%d pipes into %r, which stops reading early"
                                    % (n, " ".join(words)))
    return "; ".join(problems)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", default=os.path.join(TOP, "build", "linux"),
                    help="kernel tree (kunit.py, ftracetest's test.d)")
    ap.add_argument("--vmlinux", help="a build's vmlinux: check that reports are symbolized")
    ap.add_argument("-v", action="store_true", help="show the parser's output on stderr")
    args = ap.parse_args()
    if args.vmlinux:
        try:
            why = symbolized_case(args.tree, args.vmlinux, args.v)
        except Exception:
            why = traceback.format_exc().strip().replace("\n", "|")
        print("FTX-RESULT parser symbolized %s %s" % ("FAIL" if why else "PASS",
              why.replace("\n", "|") if why else "frames read file:line"))
    reports = sorted(f for f in os.listdir(os.path.join(FIX, "reports")) if f.endswith(".log"))
    if not reports:
        print("FTX-RESULT parser reports FAIL no report fixtures in %s" % os.path.join(FIX, "reports"))
    for fn in reports:
        try:
            why = report_case(os.path.join(FIX, "reports", fn), args.tree, args.v)
        except Exception:
            why = traceback.format_exc().strip()
        print("FTX-RESULT parser report-%s %s %s" % (fn[:-4], "FAIL" if why else "PASS",
              why.replace("\n", "|") if why else "the report fails the run"))
    try:
        why = bench_goals_case()
    except Exception:
        why = traceback.format_exc().strip()
    print("FTX-RESULT parser bench-goals %s %s" % ("FAIL" if why else "PASS",
          why.replace("\n", "|") if why else "missed goals beyond their excused bounds and "
          "missing rows fail make bench"))
    try:
        why = demo_steps_case()
    except Exception:
        why = traceback.format_exc().strip()
    print("FTX-RESULT parser demo-steps %s %s" % ("FAIL" if why else "PASS",
          why.replace("\n", "|") if why else "a failing command fails its make run step"))
    try:
        why = kmemleak_symbols_case()
    except Exception:
        why = traceback.format_exc().strip()
    print("FTX-RESULT parser kmemleak-symbols %s %s" % ("FAIL" if why else "PASS",
          why.replace("\n", "|") if why else "the series' files, kernel/trace and modules listed"))
    for case in CASES:
        try:
            why = run_case(case, args.tree, args.v)
        except Exception:  # a crash of the parser or of this script fails the case
            why = traceback.format_exc().strip().replace("\n", "|")
        if why:
            print("FTX-RESULT parser %s FAIL %s" % (case.name, why.replace("\n", "|")))
        else:
            print("FTX-RESULT parser %s PASS %s" % (case.name, "fails as it should" if case.fails
                                                     else "passes as it should"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
