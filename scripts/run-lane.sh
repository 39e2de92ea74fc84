#!/bin/bash
# One runner for the test lanes: build, host checks, boot the lane's guests
# side by side (tests/lanes.list), parse and summarise. Ends with
# "N passed, N failed[, N skipped]".
#   scripts/run-lane.sh test    make test: the patched kernel, every part
#   scripts/run-lane.sh debug   make test-debug: static checks, then a
#                               lockdep/KASAN/KFENCE/kmemleak kernel running
#                               the series' tests and the ftracetest
#                               categories of guest/ftracetest-debug.list
#   scripts/run-lane.sh base    make test BASE=1: the pristine base with an
#                               empty series, ftracetest only; fails unless
#                               tests/ftracetest-base-failures.txt is exact
#   scripts/run-lane.sh mttcg   make test-mttcg: multi-threaded TCG, one host
#                               thread a vCPU, one guest at a time; the
#                               series' KUnit suites, the stress
#                               scenarios and the fuzzer (its .tc tests,
#                               guest/ftracetest-mttcg.list, only where
#                               tests/lanes.list gives this lane ftracetest)
# Variables:
#   ONLY=part[,part]  run a subset (test and base lanes), each part in the
#                     guest the table gives it; the summary says the run
#                     was narrowed (so do BZIMAGE=, a smaller FUZZ_OPS or
#                     STRESS than the lane's, SMP=1)
#   TIMEOUT=seconds   guest time limit (test 1500, debug 2700; times REPEAT)
#   STRESS=seconds    the stress driver's time in the debug and mttcg lanes
#   FLAVOUR=f         the kernel of the mttcg lane: test (default), debug
#                     (lockdep, KASAN, kmemleak) or kcsan (KCSAN)
#   SMP=n             the vCPUs of the mttcg lane's guests (2)
#   SOAK=seconds      the mttcg lane repeats its guests' test parts until
#                     this much time has passed in each (make soak)
#   FUZZ_SEED=N       replay the fuzzer's seeds of an earlier run (printed)
#   FUZZ_OPS=N        each of the two fuzzers' operations (2000; 300 on the
#                     debug kernel)
#   REPEAT=N          run each guest test part N times in its boot (with
#                     ONLY=stress: does the stress oracle hold every time?)
#   GUESTS_AT_ONCE=n  boot at most n of the lane's guests at a time, the
#                     next when one ends (debug lane: one a host core;
#                     other lanes: all)
set -euo pipefail
lane=${1:?lane: test, debug or base}
[ "$lane" = base ] && export FTX_BASE=1
. "$(dirname "$0")/lib.sh"

case $lane in
test) flavour=test tmo=${TIMEOUT:-1500} cmdline="" ;;
# the guest takes the base's list of ftracetest cases, if it has one
base) flavour=test tmo=${TIMEOUT:-1500} cmdline="ftx.lane=base" ;;
debug)
	[ -z "${ONLY:-}" ] || die "ONLY is for make test; the debug lane runs its whole plan"
	flavour=debug tmo=${TIMEOUT:-2700}
	# the debug kernel is slow: a workqueue pool may take 60 s, not 30,
	# before its lack of progress is reported (configs/debug.config)
	cmdline="ftx.lane=debug ftx.stress=${STRESS:-10} workqueue.watchdog_thresh=60"
	;;
mttcg)
	flavour=${FLAVOUR:-test}
	case $flavour in
	test) tmo=${TIMEOUT:-1500} cmdline="ftx.lane=mttcg ftx.stress=${STRESS:-30}" ;;
	debug | kcsan)
		tmo=${TIMEOUT:-2700}
		cmdline="ftx.lane=mttcg ftx.stress=${STRESS:-30} workqueue.watchdog_thresh=60"
		;;
	*) die "FLAVOUR=$flavour: the mttcg lane boots test, debug or kcsan" ;;
	esac
	if [ -n "${SOAK:-}" ]; then
		case $SOAK in
		'' | *[!0-9]*) die "SOAK=$SOAK: seconds" ;;
		esac
		cmdline="$cmdline ftx.soak=$SOAK"
		[ -n "${TIMEOUT:-}" ] || tmo=$((tmo + SOAK))
	fi
	;;
*) die "unknown lane '$lane' (test, debug, base or mttcg)" ;;
esac
cmdline="$cmdline $(fuzz_seed_arg) $(fuzz_ops_arg)${REPEAT:+ ftx.repeat=$REPEAT}"
# each part runs REPEAT times: so may the guest, unless TIMEOUT says
if [ -z "${TIMEOUT:-}" ] && [ "${REPEAT:-1}" -gt 1 ]; then
	tmo=$((tmo * REPEAT))
fi
xfail=$TESTDATA/ftracetest-base-failures.txt

: >"$LOGDIR/phases"
t0=$(now)
"$TOP/scripts/deps.sh"
"$TOP/scripts/prepare-tree.sh"
[ "$lane" = base ] && ensure_base_tree

# The plan, before the build: a typo in ONLY or in tests/lanes.list would
# run nothing and pass. The parser fails every planned part that did not run.
parts=$LOGDIR/parts-$lane.txt
plan=$LOGDIR/plan-$lane.txt
expand_parts "$lane" "$(known_parts | grep -v : | paste -sd,)" >"$parts"
[ -z "${ONLY:-}" ] || check_parts ONLY "$ONLY"
# the guest tests of features this series (or base) lacks: the table may
# name them for the series that have them
elsewhere=$LOGDIR/parts-elsewhere.txt
for t in "$TOP"/guest/tests/*.sh; do
	test_in_series "$t" || basename "$t" .sh
done >"$elsewhere"
"$TOP/scripts/plan-guests.py" --table "$TOP/tests/lanes.list" --lane "$lane" --series "$SERIES" \
	--elsewhere "$elsewhere" --parts "$parts" ${ONLY:+--only "$ONLY"} >"$plan" ||
	die "no plan for lane $lane"
[ -s "$plan" ] || die "lane $lane: no guest has a part to run"
cut -d' ' -f3 "$plan" | tr , '\n' >"$parts"
# the results the parts print depend on the kernel: the mttcg lane's are
# those of the lane of its flavour (tests/$SERIES/expected-results.txt)
rlane=$lane
if [ "$lane" = mttcg ]; then
	rlane=debug
	[ "$flavour" = test ] && rlane=test
fi
# that lane's whole plan, whatever ONLY says: each part the list of
# expected results names for it must be one of its parts, or its results
# would go unchecked (a script deleted or renamed, a part moved off the
# lane's guests). The base lane runs upstream's ftracetest only.
lane_parts=()
if [ "$rlane" != base ]; then
	expand_parts "$rlane" "$(known_parts | grep -v : | paste -sd,)" >"$LOGDIR/lane-parts-$rlane.in"
	"$TOP/scripts/plan-guests.py" --table "$TOP/tests/lanes.list" --lane "$rlane" --series "$SERIES" \
		--elsewhere "$elsewhere" --parts "$LOGDIR/lane-parts-$rlane.in" \
		>"$LOGDIR/lane-plan-$rlane.txt" || die "no plan for lane $rlane"
	cut -d' ' -f3 "$LOGDIR/lane-plan-$rlane.txt" | tr , '\n' >"$LOGDIR/lane-parts-$rlane.txt"
	lane_parts=(--lane-parts "$LOGDIR/lane-parts-$rlane.txt")
fi

info "lane $lane: series $SERIES, base $BASE_PKG $(base_pkg_version), kernel $(make -s -C "$KTREE" kernelversion), patches: $([ "$lane" = base ] && echo "none (pristine base)" || echo "$(series_patches | wc -l) in topics $(series_topics | paste -sd' ')")"
measured=$(sed -nE 's/^# Measured on Debian [^ ]+ ([^ ,]+).*/\1/p' "$xfail" | head -1)
if [ "$measured" != "$(base_pkg_version)" ]; then
	info "NOTE: the known base failures were measured on ${measured:-an unknown base}, this base is $(base_pkg_version): run make test BASE=1 and update ${xfail#"$TOP"/}"
fi

host=()
case $lane in
test)
	"$TOP/scripts/build-kernel.sh" test
	s=$(now)
	"$TOP/tests/check-series.sh" >"$LOGDIR/host-series.txt"
	phase_done check-series "$s"
	# the parser's own tests: each fixture log gets the verdict it should
	s=$(now)
	"$TOP/tests/check-parser.py" --tree "$TREE" --vmlinux "$(obj_dir test)/vmlinux" \
		>"$LOGDIR/host-parser.txt"
	phase_done check-parser "$s"
	# the stall probe's verdict on recorded samples (design/mttcg-stall.md)
	"$TOP/scripts/mttcg-probe.py" --self-test >"$LOGDIR/host-mttcg-probe.txt" ||
		echo "FTX-RESULT mttcg-probe self-test FAIL exit status $?" >>"$LOGDIR/host-mttcg-probe.txt"
	host=(--host "$LOGDIR/host-series.txt" --host "$LOGDIR/host-parser.txt"
		--host "$LOGDIR/host-mttcg-probe.txt")
	;;
debug)
	# the static checks compare against the test kernel's config
	"$TOP/scripts/build-kernel.sh" test
	s=$(now)
	"$TOP/scripts/check-static.sh" >"$LOGDIR/host-static.txt"
	phase_done static "$s"
	host=(--host "$LOGDIR/host-static.txt")
	"$TOP/scripts/build-kernel.sh" debug
	;;
base) "$TOP/scripts/build-kernel.sh" test ;;
mttcg) "$TOP/scripts/build-kernel.sh" "$flavour" ;;
esac
"$TOP/scripts/mkinitramfs.sh" "$flavour"
OBJ=$(obj_dir "$flavour")

extra=()
if [ "$flavour" = debug ]; then
	# symbols of the code whose leaks fail the run: kernel/trace, every
	# file the series adds or changes (kernel/livepatch, kernel/kprobes.c,
	# fs/pstore, ...) and every module
	"$TOP/scripts/kmemleak-symbols.sh" "$TREE" "$OBJ" >"$LOGDIR/kmemleak-symbols.txt"
	extra+=(--kmemleak-symbols "$LOGDIR/kmemleak-symbols.txt")
fi
[ "$lane" = base ] && extra+=(--xfail-exact)
# each guest must have booted the kernel just built (BZIMAGE= boots
# another image; an image left from an earlier build is no proof either)
extra+=(--expect-kernel "$OBJ/arch/x86/boot/bzImage")
# what makes this run less than a full one: the summary says so before
# its closing line
[ -z "${ONLY:-}" ] || extra+=(--narrowed "ONLY=$ONLY")
[ -z "${BZIMAGE:-}" ] || extra+=(--narrowed "BZIMAGE=$BZIMAGE booted, not the kernel just built")
if [ -n "${FUZZ_OPS:-}" ]; then
	d=2000
	[ "$flavour" = debug ] && d=300
	[ "$FUZZ_OPS" -ge "$d" ] || extra+=(--narrowed "FUZZ_OPS=$FUZZ_OPS fuzzer operations, not $d")
fi
case $lane in
debug) [ "${STRESS:-10}" -ge 10 ] || extra+=(--narrowed "STRESS=$STRESS s of stress, not 10") ;;
mttcg) [ "${STRESS:-30}" -ge 30 ] || extra+=(--narrowed "STRESS=$STRESS s of stress, not 30") ;;
esac
[ "${SMP:-2}" -ge 2 ] || extra+=(--narrowed "SMP=$SMP: guests with one vCPU")
# KCSAN's reports: those with a racing access at a line the series adds
# or changes fail the run, the others are listed (parse-results.py)
if [ "$flavour" = kcsan ]; then
	git -C "$TREE" diff -U0 base HEAD >"$LOGDIR/series.diff"
	extra+=(--kcsan-series-diff "$LOGDIR/series.diff" --kcsan-out "$LOGDIR/kcsan-reports-$lane.txt")
fi

# CI's deadline (.ci/run): the guests end in time for the parse below to
# give a verdict on whatever they printed
if [ -n "${FTX_DEADLINE:-}" ]; then
	left=$((FTX_DEADLINE - $(now) - 90))
	if [ "$left" -lt "$tmo" ]; then
		info "CI deadline: guest time limit ${left}s instead of ${tmo}s"
		tmo=$left
	fi
	[ "$tmo" -ge 60 ] || tmo=60
fi

# --- the guests, side by side; each line of the plan is one. Their logs
# are console-test-<guest>.log (test lane), console-test-<lane>-<guest>.log
tagpfx=
[ "$lane" = test ] || tagpfx=$lane-
# A guest on multi-threaded TCG whose vCPU QEMU left running code the guest
# had rewritten (qemu-run.sh's exit status 75, with the probe's evidence:
# design/mttcg-stall.md) proves nothing either way about the kernel: it
# boots once more, and only that boot's results count. The stalled boot's
# console stays beside the others (*.stale-code.log) and the run's summary
# says so (reruns-$name.txt); the parser scans that console for kernel
# reports (--stale-console): one there fails the run, unless it is the
# stall's own. A second stale-code stall fails.
# run_alone GUEST PARTS KUNIT ENV...
run_alone() {
	local guest=$1 gparts=$2 gkunit=$3 t rc=0 try
	shift 3
	for try in 1 2; do
		t=$tmo
		if [ -n "${FTX_DEADLINE:-}" ]; then
			t=$((FTX_DEADLINE - $(now) - 90))
			[ "$t" -lt "$tmo" ] || t=$tmo
			[ "$t" -ge 60 ] || t=60
		fi
		rc=0
		env "$@" "$TOP/scripts/qemu-run.sh" "$flavour" test "$t" \
			"$cmdline $gkunit ftx.shard=$guest ftx.only=$gparts" 2>&1 |
			sed -u "s/^/[$guest] /" || rc=${PIPESTATUS[0]}
		[ "$rc" -eq 75 ] && [ "$try" = 1 ] || return "$rc"
		local con=$LOGDIR/console-test-$tagpfx$guest
		mv "$con.log" "$con.stale-code.log"
		mv "$LOGDIR/results-test-$tagpfx$guest.log" "$LOGDIR/results-test-$tagpfx$guest.stale-code.log"
		stale+=(--stale-console "$con.stale-code.log")
		echo "guest $guest: QEMU ran code the guest had rewritten, booted once more: $(grep '^PROBE' "$LOGDIR/probe-test-$tagpfx$guest.txt" | sed 's/^PROBE //') (console ${con#"$TOP"/}.stale-code.log)" |
			tee -a "$LOGDIR/reruns-$name.txt"
	done
}
[ "$lane" = mttcg ] && tagpfx=$lane-$flavour-
name=test${tagpfx:+-${tagpfx%-}}
rm -f "$LOGDIR/console-test-$tagpfx"?.log "$LOGDIR/results-test-$tagpfx"?.log "$LOGDIR/reruns-$name.txt" \
	"$LOGDIR/console-test-$tagpfx"?.stale-code.log "$LOGDIR/results-test-$tagpfx"?.stale-code.log
stale=()
# one KVM probe (if any) before the guests start
TAG=probe "$TOP/scripts/qemu-run.sh" "$flavour" probe 60 >/dev/null
s=$(now)
pids=()
parse_args=()
qrc=0
# GUESTS_AT_ONCE=n: boot at most n guests at a time. The debug lane's
# default is one a host core: four debug guests side by side on two cores
# get half a core each, and their in-guest limits (part limits, watchdogs)
# count wall time (6.1's run of stop 49: guest a still in KUnit at 790 s).
at_once=${GUESTS_AT_ONCE:-}
if [ -z "$at_once" ]; then
	at_once=1000
	[ "$lane" = debug ] && at_once=$(nproc)
fi
case $at_once in
'' | *[!0-9]* | 0) die "GUESTS_AT_ONCE=$at_once: a number of guests, at least 1" ;;
esac
while read -r guest qemu guest_parts; do
	env=(TAG="$tagpfx$guest") alone=0
	for o in ${qemu//,/ }; do
		case $o in
		-) ;;
		mem=*) env+=(MEM="${o#mem=}") ;;
		smp=*) env+=(SMP="${o#smp=}") ;;
		icount) env+=(ICOUNT=1 SMP=1) ;;
		# a persistent (boot-mapped) instance "bootmapped" in 8 MB that
		# reserve_mem takes at boot (7.2: Documentation/trace/debugging.rst),
		# and "lastboot", left off (^traceoff): the kernel counts what
		# it holds as the previous boot's until it is emptied or an
		# event is first enabled there
		bootmap) env+=(BOOT_ARGS="reserve_mem=8M:4096:ftxboot reserve_mem=2M:4096:ftxlast trace_instance=bootmapped@ftxboot trace_instance=lastboot^traceoff@ftxlast") ;;
		# one host thread a vCPU: the guest needs the host's cores to
		# itself, so it runs alone (after the guests before it, and
		# the next starts after it)
		mttcg) env+=(TCG_THREAD=multi KVM=0) alone=1 ;;
		*) die "tests/lanes.list: unknown qemu option '$o' for guest $guest" ;;
		esac
	done
	# the built-in KUnit suites run at every boot: a glob that matches no
	# suite keeps all guests but the one of part kunit from running them
	kunit="kunit.filter_glob=ftx_kunit_runs_in_another_guest"
	case ,$guest_parts, in
	*,kunit,*) kunit= ;;
	esac
	[ -z "$kunit" ] || parse_args+=(--skip-kunit "$LOGDIR/console-test-$tagpfx$guest.log")
	# a guest that runs alone starts when the others have ended
	if [ "$alone" = 1 ]; then
		for p in "${pids[@]}"; do
			wait "$p" || qrc=1
		done
		pids=()
	fi
	if [ "$alone" = 1 ]; then
		run_alone "$guest" "$guest_parts" "$kunit" "${env[@]}" || qrc=1
	else
		# at most $at_once guests at a time: the next starts when one ends
		while [ "${#pids[@]}" -ge "$at_once" ]; do
			ended=
			wait -n -p ended "${pids[@]}" || qrc=1
			left=()
			for p in "${pids[@]}"; do
				[ "$p" = "$ended" ] || left+=("$p")
			done
			pids=("${left[@]}")
		done
		(env "${env[@]}" "$TOP/scripts/qemu-run.sh" "$flavour" test "$tmo" \
			"$cmdline $kunit ftx.shard=$guest ftx.only=$guest_parts" 2>&1 | sed -u "s/^/[$guest] /") &
		pids+=($!)
	fi
	parse_args+=(--console "$LOGDIR/console-test-$tagpfx$guest.log"
		--results "$LOGDIR/results-test-$tagpfx$guest.log")
done <"$plan"
for p in "${pids[@]}"; do
	wait "$p" || qrc=1
done
phase_done guests "$s"

# the recorder's trace.dat, read on the host by trace-cmd and KernelShark
if [ "$lane" = test ] && grep -qs "^FTX-RESULT mmap-record " "$LOGDIR"/results-test-?.log; then
	s=$(now)
	"$TOP/scripts/kernelshark-check.sh" "$LOGDIR"/results-test-?.log >"$LOGDIR/host-kernelshark.txt"
	host+=(--host "$LOGDIR/host-kernelshark.txt")
	phase_done kernelshark "$s"
fi

s=$(now)
prc=0
"$TOP/scripts/parse-results.py" --tree "$KTREE" "${parse_args[@]}" "${stale[@]}" \
	--xfail "$xfail" \
	--expected-skips "$TESTDATA/expected-skips.txt" \
	--expect-parts "$parts" \
	--expected-results "$TESTDATA/expected-results.txt" --lane "$rlane" --flavour "$flavour" \
	"${lane_parts[@]}" \
	--vmlinux "$OBJ/vmlinux" \
	"${host[@]}" "${extra[@]}" \
	--summary-json "$LOGDIR/summary-$name.json" >"$LOGDIR/summary-$name.txt" || prc=$?
phase_done parse "$s"
phase_done total "$t0"

echo
echo "phase times:"
sed 's/^/  /' "$LOGDIR/phases"
cat "$LOGDIR/summary-$name.txt"
if [ -s "$LOGDIR/reruns-$name.txt" ]; then
	echo
	echo "guests booted again after an emulator fault (their first boot's results not counted, its console scanned for kernel reports):"
	sed 's/^/  /' "$LOGDIR/reruns-$name.txt"
fi
[ $qrc -eq 0 ] && [ $prc -eq 0 ]
