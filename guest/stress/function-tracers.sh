#!/bin/sh
# Stress: samples/ftrace/sample-ftrace-mux.ko's counting tracers (two on
# its target function, one elsewhere) stay registered while instances
# running the function tracer on the same target come and go, change
# their filters, and the multiplexing is switched off and on; callers of
# the target run on every CPU. Each counting tracer of the target must
# have seen every call exactly once, the other none.
. /guest/lib.sh

S=stress
DUR=${STRESS_SECONDS:-8}
MOD=sample_ftrace_mux
D=/sys/kernel/debug/sample-ftrace-mux
I=$TRACEFS/instances
SYSCTL=/proc/sys/kernel/ftrace_multiplex
TARGET=sample_ftrace_mux_target

if ! modprobe $MOD on_target=2 elsewhere=1; then
	result $S mux-load FAIL "modprobe $MOD failed"
	exit 0
fi

end=$(($(secs) + DUR))

callers() {
	while [ "$(secs)" -lt $end ]; do
		echo 2000 >$D/call
	done
}

# instances tracing the target among other functions, filters changing
churn() { # NAME
	while [ "$(secs)" -lt $end ]; do
		mkdir $I/$1 2>/dev/null || continue
		echo $TARGET >$I/$1/set_ftrace_filter
		echo function >$I/$1/current_tracer
		echo 'sample_ftrace_mux_other' >>$I/$1/set_ftrace_filter
		echo '!'$TARGET >>$I/$1/set_ftrace_filter
		echo $TARGET >$I/$1/set_ftrace_filter
		echo nop >$I/$1/current_tracer
		rmdir $I/$1
	done
}

switch() {
	while [ "$(secs)" -lt $end ]; do
		echo 0 >$SYSCTL
		sleep 0.3
		echo 1 >$SYSCTL
		sleep 0.3
	done
}

pids=
for cpu in $(grep ^processor /proc/cpuinfo | cut -d: -f2); do
	callers &
	pids="$pids $!"
done
churn mux-stress-a &
pids="$pids $!"
churn mux-stress-b &
pids="$pids $!"
switch &
pids="$pids $!"
wait $pids
echo 1 >$SYSCTL

cat $D/stats
calls=$(sed -n 's/^calls //p' $D/stats)
bad=$(awk -v c="$calls" '$1 == "tracer" &&
	(($3 == "target" && $5 != c) || ($3 == "other" && $5 != 0)) { print }' $D/stats)
check $S mux-calls-made "no call made" -- test "${calls:-0}" -gt 0
check $S mux-every-call-once "counts differ from $calls calls: $bad" -- test -z "$bad"

# The churn gave IDs up, and new tracers get them again: a tracer must
# get none of the functions an earlier holder of its ID traced (a stale
# slot). An instance on sample_ftrace_mux_other, never called, records
# nothing while the target is called; one on the target records each
# call once, and so do the module's tracers still.
echo 1 >$D/reset
mkdir $I/mux-stale-other $I/mux-stale-target
echo sample_ftrace_mux_other >$I/mux-stale-other/set_ftrace_filter
echo $TARGET >$I/mux-stale-target/set_ftrace_filter
echo function >$I/mux-stale-other/current_tracer
echo function >$I/mux-stale-target/current_tracer
echo 100 >$D/call
# before the tracers go: a change of tracer clears the buffer
other=$(grep -vc '^#' $I/mux-stale-other/trace)
target=$(grep -c " $TARGET" $I/mux-stale-target/trace)
echo nop >$I/mux-stale-other/current_tracer
echo nop >$I/mux-stale-target/current_tracer
check $S mux-reused-id-no-stale "an instance on another function recorded $other entries" -- \
	test "$other" = 0
check $S mux-reused-id-every-call "an instance on the target recorded $target of 100 calls" -- \
	test "$target" = 100
bad=$(awk '$1 == "tracer" && (($3 == "target" && $5 != 100) || ($3 == "other" && $5 != 0)) { print }' $D/stats)
check $S mux-tracers-after-reuse "counts differ from 100 calls: $bad" -- test -z "$bad"
rmdir $I/mux-stale-other $I/mux-stale-target
rmmod $MOD || result $S mux-unload FAIL "rmmod $MOD failed"
for n in mux-stress-a mux-stress-b mux-stale-other mux-stale-target; do
	rmdir $I/$n 2>/dev/null || :
done
check $S mux-nothing-left "instances left" -- \
	test ! -d $I/mux-stress-a -a ! -d $I/mux-stress-b -a ! -d $I/mux-stale-target
