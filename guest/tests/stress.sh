#!/bin/sh
# The stress driver: every scenario in guest/stress/ at once, for a bounded
# time (ftx.stress=SECONDS on the kernel command line, 8 by default; the
# debug lane runs longer). Each scenario checks its own invariants and
# reports with result(); together they also race with each other. Then
# those of guest/stress/alone/, one after the other.
# needs: kernel-instances snapshot-files exports function-tracers controls mapped-buffers
. /guest/lib.sh

STRESS_SECONDS=8
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.stress=*) STRESS_SECONDS=${arg#ftx.stress=} ;;
	esac
done
export STRESS_SECONDS

# function tracers' trampolines, the multiplexing's sets' among them. A
# static ftrace_ops (function_graph's, at the top level) keeps its
# trampoline for its next use, as in 6.1: make it before counting.
if grep -qw function_graph $TRACEFS/available_tracers; then
	echo vfs_read >$TRACEFS/set_ftrace_filter
	echo function_graph >$TRACEFS/current_tracer
	echo nop >$TRACEFS/current_tracer
	echo >$TRACEFS/set_ftrace_filter
fi
trampolines() {
	grep -c ' ftrace_trampoline	' /proc/kallsyms
}
tramps_before=$(trampolines)
grep ' ftrace_trampoline	' /proc/kallsyms

pids=
t0=$(secs)
for s in /guest/stress/*.sh; do
	name=$(basename "$s" .sh)
	echo "stress scenario $name, ${STRESS_SECONDS}s"
	# how long each takes with its teardown, for balancing the lanes
	(sh "$s"; rc=$?; echo "stress scenario $name ended after $(($(secs) - t0)) s"; exit $rc) &
	pids="$pids $name:$!"
done
for np in $pids; do
	wait "${np#*:}" || result stress "${np%%:*}" FAIL "scenario exited with $?"
done

# Scenarios that need the machine to themselves: a race that needs a fast
# writer, which the others would slow down too much to come up
alone=0
for s in /guest/stress/alone/*.sh; do
	name=$(basename "$s" .sh)
	t1=$(secs)
	echo "stress scenario $name, alone"
	sh "$s" || result stress "$name" FAIL "scenario exited with $?"
	echo "stress scenario $name ended after $(($(secs) - t1)) s"
	alone=$((alone + $(secs) - t1))
done

# Every scenario removed its tracers: their trampolines, and the sets the
# multiplexing made for them, leave kallsyms. Dead sets are freed by a
# work item after an RCU-tasks grace period: give it 30 s.
n=0
while [ "$(trampolines)" != "$tramps_before" ] && [ $n -lt 60 ]; do
	sleep 0.5
	n=$((n + 1))
done
tramps_after=$(trampolines)
if [ "$tramps_after" != "$tramps_before" ]; then
	grep ' ftrace_trampoline	' /proc/kallsyms
	cat $TRACEFS/enabled_functions
	cat $TRACEFS/function_tracers
fi
check stress trampolines-none-left "$tramps_before function tracer trampolines before, $tramps_after after" -- \
	test "$tramps_after" = "$tramps_before"
# seconds: each scenario's time; alone: what those of alone/ took
emit "FTX-STRESS seconds=$STRESS_SECONDS alone=$alone"
