#!/bin/sh
# The guest test plan of "make test". Each part prints its results with
# result() from lib.sh; ftracetest's own log goes to the results channel.
# ftx.only=PART[,PART...] on the kernel command line runs a subset
# (parts: kunit, samples, trace-cmd, ftracetest, ftracetest:CATEGORY).
# Every part runs under its own time limit (part_limit): one that hangs
# fails with its name and the others still run. The results channel ends
# with FTX-RUN-END; the host fails a log without it.
. /guest/lib.sh

only=
skip=
shard=
lane=test
stress=8
repeat=1
soak=0
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.only=*) only=${arg#ftx.only=} ;;
	ftx.skip=*) skip=${arg#ftx.skip=} ;;
	ftx.shard=*) shard=${arg#ftx.shard=} ;;
	ftx.lane=*) lane=${arg#ftx.lane=} ;;
	ftx.stress=*) stress=${arg#ftx.stress=} ;;
	ftx.repeat=*) repeat=${arg#ftx.repeat=} ;;
	ftx.soak=*) soak=${arg#ftx.soak=} ;;
	esac
done
# the pristine base (make test BASE=1) runs the test lane's ftracetest
# list, unless the series lists what its base can run
[ "$lane" = base ] && [ ! -f /guest/ftracetest-base.list ] && lane=test

# in_list PART LIST: PART, its parent (ftracetest for ftracetest:x) or one
# of its children (ftracetest:x for ftracetest) is in the comma list.
in_list() {
	case ",$2," in
	*,"$1",* | *,"${1%%:*}",* | *,"$1":*) return 0 ;;
	esac
	return 1
}

# want PART: is this part selected? (ftx.only selects, ftx.skip removes)
want() {
	if [ -n "$skip" ]; then
		case ",$skip," in
		*,"$1",* | *,"${1%%:*}",*) return 1 ;;
		esac
	fi
	[ -z "$only" ] && return 0
	in_list "$1" "$only"
}

# known_parts: every part this guest has (run-lane.sh checks ONLY and
# tests/lanes.list against the same names on the host). kunit ran at boot,
# or was kept from running by kunit.filter_glob (run-lane.sh).
known_parts() {
	echo kunit
	for _t in /guest/tests/*.sh; do
		basename "$_t" .sh
	done
	echo ftracetest
	for _d in /opt/ftracetest/test.d/*/; do
		echo "ftracetest:$(basename "$_d")"
	done
	echo ftracetest:trigger/inter-event
}

# part_limit PART: the seconds PART may take before it is killed, by the
# kernel's flavour (test; debug and kcsan run 5 to 20 times slower). About
# twice the slowest time measured (README: direct 287 s, 7.2's ftrace more
# than 400 s, 7.2's remotes more than 400 s: a write of write_event is a
# taskset process each; in the debug lane
# 00basic 691 s, the fuzzer 799 s, stress 718 s with four guests), and far
# above the hung-task timeout (120 s, 240 s in the debug lane) so that a
# hang reports before the kill.
part_limit() {
	case $flavour:$1 in
	test:ftracetest:direct | test:ftracetest:ftrace | test:ftracetest:remotes) echo 900 ;;
	test:stress) echo $((300 + 3 * stress)) ;;
	test:*) echo 400 ;;
	*:ftracetest:00basic | *:fuzz-tracefs) echo 1500 ;;
	*:stress) echo $((1200 + 10 * stress)) ;;
	*) echo 900 ;;
	esac
}

# timed_out_part PART SUITE LIMIT: fail a part that was killed, and put
# tracing back to rest so that the next parts run at their usual speed.
timed_out_part() {
	result "$2" timeout FAIL "part $1 killed after ${3}s, its time limit"
	echo nop >$TRACEFS/current_tracer 2>/dev/null
	echo >$TRACEFS/set_event 2>/dev/null
	echo >$TRACEFS/set_ftrace_filter 2>/dev/null
	echo 1 >$TRACEFS/tracing_on 2>/dev/null
}

flavour=$(cat /etc/ftrace-ext-flavour)

stty -F /dev/ttyS1 raw -echo 2>/dev/null
emit "FTX-RUN-BEGIN kernel=$(uname -r)"
: >/tmp/ftx-parts-ran

# A part named on the command line that does not exist would silently run
# nothing (a typo in ONLY or in tests/shard-a.list): fail it.
for p in $(echo "$only,$skip" | tr , ' '); do
	known_parts | grep -qxF -- "$p" ||
		result parts "$p" FAIL "unknown part in ftx.only/ftx.skip; known: $(known_parts | tr '\n' ' ')"
done

# kunit ran at boot; the host reads its results from the console
want kunit && echo kunit >>/tmp/ftx-parts-ran

# ftx.repeat=N (make test REPEAT=N): each guest test part N times in
# this boot, to see whether a result holds or passes by luck
case $repeat in
'' | *[!0-9]* | 0) result parts repeat FAIL "ftx.repeat=$repeat is not a count"; repeat=1 ;;
esac
# ftx.soak=SECONDS (make soak): the guest test parts again and again, in
# rounds, until this much time has passed; each round's fuzzer picks new
# seeds and prints them
case $soak in
'' | *[!0-9]*) result parts soak FAIL "ftx.soak=$soak is not a count of seconds"; soak=0 ;;
esac
soak_t0=$(secs)
round=0
while :; do
	round=$((round + 1))
	[ "$soak" -gt 0 ] && emit "FTX-SOAK-ROUND $round at $(($(secs) - soak_t0)) s"
	for t in $(for _r in $(seq "$repeat"); do echo /guest/tests/*.sh; done); do
		name=$(basename "$t" .sh)
		want "$name" || continue
		section "$name"
		echo "$name" >>/tmp/ftx-parts-ran
		emit "FTX-PART-BEGIN $name"
		t0=$(secs)
		limit=$(part_limit "$name")
		run_limited "$limit" sh "$t"
		rc=$?
		if [ "$timed_out" = 1 ]; then
			timed_out_part "$name" "$name" "$limit"
		elif [ $rc -ne 0 ]; then
			result "$name" script FAIL "exit status $rc"
		fi
		emit "FTX-TIME $name $(($(secs) - t0))"
	done
	[ "$soak" -gt 0 ] && [ $(($(secs) - soak_t0)) -lt "$soak" ] || break
done
[ "$soak" -gt 0 ] && emit "FTX-SOAK-END rounds=$round secs=$(($(secs) - soak_t0))"

# Upstream ftracetest, one run per category so that each has its time.
# trigger/inter-event is its own category.
run_ftracetest() {
	cat=$1
	shift
	want "ftracetest:$cat" || return 0
	section "ftracetest $cat"
	echo "ftracetest:$cat" >>/tmp/ftx-parts-ran
	logdir=/tmp/ftracetest-logs/$(echo "$cat" | tr / _)
	t0=$(secs)
	limit=$(part_limit "ftracetest:$cat")
	cd /opt/ftracetest || return 0
	start=$(date +%s)
	# -k keeps each case's log: its last write is the case's end
	run_limited "$limit" ./ftracetest -v -k -l "$logdir" "$@"
	rc=$?
	cd / || return 0
	secs_taken=$(($(secs) - t0))
	echo "ftracetest $cat: exit $rc, ${secs_taken}s"
	# the slowest cases, to balance the guests by (tests/lanes.list)
	echo "ftracetest $cat: slowest cases (seconds):$(for _l in $(ls "$logdir" | grep -E '^[0-9]+-' | sort -n); do
		_m=$(stat -c %Y "$logdir/$_l")
		echo "$((_m - start)) ${_l%-log.*}"
		start=$_m
	done | sort -rn | head -5 | while read -r _s _c; do printf ' %s %s' "$_s" "$_c"; done)"
	rm -f "$logdir"/[0-9]*-log.*
	# the host checks the category's log against ftracetest's own totals
	# and exit status: a killed run has no totals and fails there too
	[ "$timed_out" = 1 ] && timed_out_part "ftracetest:$cat" "ftracetest/$cat" "$limit"
	emit "FTX-FTRACETEST-BEGIN $cat rc=$rc secs=$secs_taken${only_tc:+ only=$only_tc}"
	cat "$logdir/ftracetest.log" >>"$RESULTS" 2>/dev/null
	emit "FTX-FTRACETEST-END $cat"
}

# run_listed CATEGORY FILES: one ftracetest run for the files listed of
# a category, or for all of it when FILES is empty. One run, not one a
# file: ftracetest resets every event's trigger and filter before each
# case and once more at its end, some 20 s on the debug kernel.
run_listed() {
	[ -n "$1" ] || return 0
	# a whole category but the files the list leaves out ("-PATH")
	if [ -z "$2" ] && [ -n "$left_out" ]; then
		_kept= _out=0
		for _f in /opt/ftracetest/test.d/"$1"/*.tc; do
			_f=${_f#/opt/ftracetest/test.d/}
			if echo "$left_out" | grep -qxF -- "$_f"; then
				_out=1
			else
				_kept="$_kept $_f"
			fi
		done
		if [ "$_out" = 1 ]; then
			run_listed "$1" "$_kept"
			return
		fi
	fi
	if [ -z "$2" ]; then
		# trigger/inter-event is a category of its own, as below
		if [ "$1" = trigger ]; then
			run_ftracetest trigger /opt/ftracetest/test.d/trigger/*.tc
		else
			run_ftracetest "$1" "/opt/ftracetest/test.d/$1"
		fi
		return
	fi
	# some files of the category: the host then knows that its other
	# cases were not meant to run
	only_tc=$(echo $2 | tr ' ' ,)
	# shellcheck disable=SC2046
	run_ftracetest "$1" $(for _f in $2; do echo "/opt/ftracetest/test.d/$_f"; done)
	only_tc=
}

if want ftracetest && [ -f "/guest/ftracetest-$lane.list" ]; then
	# A lane with a list runs only the categories and files listed in
	# /guest/ftracetest-LANE.list: the debug kernel is too slow for all
	# of ftracetest, and the multi-threaded lane runs the series' own.
	# A listed file's directory is its category; "-PATH" leaves a file
	# out of a category listed whole.
	left_out=$(sed -n 's/^-//p' "/guest/ftracetest-$lane.list")
	grep -v '^#' "/guest/ftracetest-$lane.list" | {
		cur= files=
		while read -r item; do
			case $item in
			'' | -*) continue ;;
			esac
			case $item in
			*.tc) c=$(dirname "$item") ;;
			*) c=$item ;;
			esac
			if [ "$c" != "$cur" ]; then
				run_listed "$cur" "$files"
				cur=$c files=
			fi
			case $item in
			*.tc) files="$files $item" ;;
			esac
		done
		run_listed "$cur" "$files"
	}
elif want ftracetest; then
	for dir in /opt/ftracetest/test.d/*/; do
		cat=$(basename "$dir")
		if [ "$cat" = trigger ]; then
			run_ftracetest trigger /opt/ftracetest/test.d/trigger/*.tc
			run_ftracetest trigger/inter-event /opt/ftracetest/test.d/trigger/inter-event
		else
			run_ftracetest "$cat" "$dir"
		fi
	done
fi

# No part at all ran: a subset that selects nothing is no green run.
[ -s /tmp/ftx-parts-ran ] || result parts selected FAIL "no part ran (ftx.only=$only ftx.skip=$skip)"

# kmemleak (debug kernel): scan twice, as its documentation advises, and
# hand the report to the host, which fails the run for leaks in tracing
# code, the samples or the series. kmemleak switches itself off for good
# when its object pool runs out ("Kernel memory leak detector disabled"),
# and then refuses every write but "clear" with EPERM: its report then
# proves nothing, and the host fails the check with the reason given here.
KMEMLEAK=/sys/kernel/debug/kmemleak
if [ -e $KMEMLEAK ]; then
	section "kmemleak"
	off=
	echo scan 2>/dev/null >$KMEMLEAK || off="a scan was refused"
	sleep 5
	echo scan 2>/dev/null >$KMEMLEAK || off="a scan was refused"
	# stack=on is the default: writing it changes nothing, but fails
	# once kmemleak is off
	echo stack=on 2>/dev/null >$KMEMLEAK || off="${off:-writes are refused}"
	msg=$(dmesg | grep -E 'kmemleak|Kernel memory leak detector' | grep -iE 'disabled|pool empty|cannot allocate' | head -3 | tr '\n' ' ')
	[ -n "$msg" ] && off="${off:-kmemleak reports it is off}; dmesg: $msg"
	emit "FTX-KMEMLEAK-BEGIN"
	cat $KMEMLEAK >>"$RESULTS"
	[ -n "$off" ] && emit "FTX-KMEMLEAK-DISABLED $off"
	emit "FTX-KMEMLEAK-END"
	echo "kmemleak: $(grep -c 'unreferenced object' $KMEMLEAK) suspected leaks reported${off:+; disabled: $off}"
fi

# Warnings and oopses taint the kernel: a second, independent check to the
# host's scan of the console. Lockdep reports taint nothing, but lockdep
# switches itself off (debug_locks 0) after its first one, or when it runs
# out of room: then it proved nothing for the rest of the run.
section "kernel state"
taint=$(cat /proc/sys/kernel/tainted)
# every flag but K (a live patch: the livepatch sample), N (KUnit ran a
# test suite) and O/E (modules built outside the tree or unsigned: none
# here, but no kernel fault)
bad=$((taint & ~((1 << 15) | (1 << 12) | (1 << 13) | (1 << 18))))
if [ "$bad" -ne 0 ]; then
	result kernel "not-tainted${shard:+:$shard}" FAIL "tainted=$taint (flags $bad are not expected)"
else
	result kernel "not-tainted${shard:+:$shard}" PASS "tainted=$taint"
fi
if [ -r /proc/lockdep_stats ]; then
	dl=$(sed -n 's/^ *debug_locks: *\([0-9]*\).*/\1/p' /proc/lockdep_stats)
	if [ "$dl" = 1 ]; then
		result kernel "lockdep-on${shard:+:$shard}" PASS "debug_locks=1 at the end of the run"
	else
		why=$(dmesg | grep -m 2 -e 'too low' -e 'turning off the locking correctness validator' | tr '\n' ' ')
		result kernel "lockdep-on${shard:+:$shard}" FAIL "debug_locks=${dl:-unreadable}: lockdep switched itself off (a report, or it ran out of room: ${why:-see the console})"
	fi
fi
emit "FTX-RUN-END"
