#!/bin/sh
# The guest test plan of "make test". Each part prints its results with
# result() from lib.sh; ftracetest's own log goes to the results channel.
# ftx.only=PART[,PART...] on the kernel command line runs a subset
# (parts: samples, trace-cmd, ftracetest, ftracetest:CATEGORY).
. /guest/lib.sh

only=
skip=
shard=
lane=test
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.only=*) only=${arg#ftx.only=} ;;
	ftx.skip=*) skip=${arg#ftx.skip=} ;;
	ftx.shard=*) shard=${arg#ftx.shard=} ;;
	ftx.lane=*) lane=${arg#ftx.lane=} ;;
	esac
done

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

stty -F /dev/ttyS1 raw -echo 2>/dev/null
emit "FTX-RUN-BEGIN kernel=$(uname -r)"

for t in /guest/tests/*.sh; do
	name=$(basename "$t" .sh)
	want "$name" || continue
	section "$name"
	t0=$(secs)
	sh "$t" || result "$name" script FAIL "exit status $?"
	emit "FTX-TIME $name $(($(secs) - t0))"
done

# Upstream ftracetest, one run per category so that each has its time.
# trigger/inter-event is its own category.
run_ftracetest() {
	cat=$1
	shift
	want "ftracetest:$cat" || return 0
	section "ftracetest $cat"
	logdir=/tmp/ftracetest-logs/$(echo "$cat" | tr / _)
	t0=$(secs)
	(cd /opt/ftracetest && ./ftracetest -v -l "$logdir" "$@")
	rc=$?
	secs_taken=$(($(secs) - t0))
	echo "ftracetest $cat: exit $rc, ${secs_taken}s"
	emit "FTX-FTRACETEST-BEGIN $cat rc=$rc secs=$secs_taken"
	cat "$logdir/ftracetest.log" >>"$RESULTS" 2>/dev/null
	emit "FTX-FTRACETEST-END $cat"
}

if want ftracetest && [ "$lane" = debug ]; then
	# The debug kernel is too slow for all of ftracetest: the categories
	# and files listed in /guest/ftracetest-debug.list (code the series
	# touches), each a category of its own.
	grep -v '^#' /guest/ftracetest-debug.list | while read -r item; do
		[ -n "$item" ] || continue
		case $item in
		*.tc) run_ftracetest "$(dirname "$item")" /opt/ftracetest/test.d/$item ;;
		*) run_ftracetest "$item" /opt/ftracetest/test.d/$item ;;
		esac
	done
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

# kmemleak (debug kernel): scan twice, as its documentation advises, and
# hand the report to the host, which fails the run for leaks in tracing
# code, the samples or the series.
if [ -w /sys/kernel/debug/kmemleak ]; then
	section "kmemleak"
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	emit "FTX-KMEMLEAK-BEGIN"
	cat /sys/kernel/debug/kmemleak >>"$RESULTS"
	emit "FTX-KMEMLEAK-END"
	echo "kmemleak: $(grep -c 'unreferenced object' /sys/kernel/debug/kmemleak) suspected leaks reported"
fi

# Warnings and oopses taint the kernel: a second, independent check to the
# host's scan of the console.
section "kernel state"
taint=$(cat /proc/sys/kernel/tainted)
# D=die(7) W=warn(9) L=softlockup(14) B=bad page(5) M=MCE(4)
bad=$((taint & ((1 << 7) | (1 << 9) | (1 << 14) | (1 << 5) | (1 << 4))))
if [ "$bad" -ne 0 ]; then
	result kernel "not-tainted${shard:+:$shard}" FAIL "tainted=$taint"
else
	result kernel "not-tainted${shard:+:$shard}" PASS
fi
emit "FTX-RUN-END"
