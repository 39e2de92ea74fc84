#!/bin/sh
# Stress: writers on both CPUs, snapshots taken over and over, and a
# streaming snapshot_pipe reader beside a trace_pipe reader, for a bounded
# time. Every event written must be read exactly once or be counted as
# lost ("[LOST n EVENTS]" in the readers' output) or as discarded (a
# snapshot_pipe write discards what the previous snapshot still held
# unread, and readers print the running total at each snapshot). The second phase runs
# without the trace_pipe reader, so that the live buffer overruns between
# snapshots and the snapshot reader has losses to count. The third reads
# each CPU with its own trace_pipe and snapshot_pipe readers while
# one-CPU swaps (per_cpu/cpuN/snapshot) and a snapshot trigger firing in
# hardirq context (hrtimer_expire_entry) swap under them.
. /guest/lib.sh

run_phase() {
S=stress-snapshot-$MODE
DUR=${STRESS_SECONDS:-8}
BURST=${STRESS_BURST:-300}
I=$TRACEFS/instances/snapstress
mkdir $I || { result $S setup FAIL "mkdir $I"; exit 0; }
# small buffers, so that writers overrun readers now and then
if [ "$MODE" = snapshot-only ]; then echo 8 >$I/buffer_size_kb; else echo 64 >$I/buffer_size_kb; fi
echo 1 >$I/snapshot_enabled

# A first burst, frozen in a snapshot before any reader runs: the
# snapshot_pipe reader has something to read however the readers and the
# writers are scheduled (on a slow debug kernel, trace_pipe can take all
# the rest before a snapshot does)
: >/tmp/ss-r0
: >/tmp/ss-r1
taskset -c 0 tracefs-pipe markers $I/trace_marker w0b0 $BURST >/tmp/ss-w0 2>>/tmp/ss-r0
tracefs-pipe errno $I/snapshot_pipe 1 >/tmp/ss-swaps

# Readers that copy whatever they read before they stop: a cat killed
# between a read() and its write() lost what the kernel had consumed for
# it (a debug run once missed 51 events, one read's worth, that way)
readers=
: >/tmp/ss-tp
: >/tmp/ss-sp
case $MODE in
both)
	tracefs-pipe follow $I/trace_pipe >/tmp/ss-tp &
	readers="$readers $!"
	tracefs-pipe follow $I/snapshot_pipe >/tmp/ss-sp &
	readers="$readers $!"
	;;
snapshot-only)
	tracefs-pipe follow $I/snapshot_pipe >/tmp/ss-sp &
	readers="$readers $!"
	;;
percpu)
	for c in 0 1; do
		tracefs-pipe follow $I/per_cpu/cpu$c/trace_pipe >/tmp/ss-tp$c &
		readers="$readers $!"
		tracefs-pipe follow $I/per_cpu/cpu$c/snapshot_pipe >/tmp/ss-sp$c &
		readers="$readers $!"
	done
	;;
esac
# the frozen burst is the snapshot readers' first: let them start on it,
# or the first snapshot below would discard it (and count it) before a
# slow kernel has scheduled them
first_read=yes
wait_for 60 sh -c "cat /tmp/ss-sp* | grep -q w0b0" || first_read=no
# swaps from hardirq context, a bounded number of them; armed only now,
# since a tick's swap would discard the first burst before the readers
# start (a CI run failed snapshot-pipe-read that way)
if [ "$MODE" = percpu ]; then
	echo 'snapshot:400' >$I/events/timer/hrtimer_expire_entry/trigger
fi

# writers, one per CPU, in bursts of numbered markers until the deadline
wt0=$(secs)
end=$((wt0 + DUR))
writer() { # cpu first-burst
	b=$2
	while [ "$(secs)" -lt $end ]; do
		taskset -c $1 tracefs-pipe markers $I/trace_marker w$1b$b $BURST >>/tmp/ss-w$1 2>>/tmp/ss-r$1
		b=$((b + 1))
	done
}
: >/tmp/ss-w1
writer 0 1 &
w0=$!
writer 1 0 &
w1=$!

# snapshots, until the writers are done: whole ones, and in the percpu
# phase one CPU's too
n=0
while kill -0 $w0 2>/dev/null || kill -0 $w1 2>/dev/null; do
	if [ "$MODE" = percpu ] && [ $((n % 3)) -ne 0 ]; then
		tracefs-pipe errno $I/per_cpu/cpu$((n % 2))/snapshot 1 >>/tmp/ss-swaps
	else
		tracefs-pipe errno $I/snapshot_pipe 1 >>/tmp/ss-swaps
	fi
	n=$((n + 1))
	sleep 0.05
done
wait $w0 $w1
wt1=$(secs)
if [ "$MODE" = percpu ]; then
	trig=$(grep -o 'snapshot:count=[0-9]*' $I/events/timer/hrtimer_expire_entry/trigger || echo none)
	echo '!snapshot' >$I/events/timer/hrtimer_expire_entry/trigger
fi

# let the readers drain both buffers, then stop them
last=-1
for i in $(seq 60); do
	now=$(cat /tmp/ss-tp* /tmp/ss-sp* | wc -l)
	[ "$now" = "$last" ] && break
	last=$now
	sleep 0.5
done
alive=0
for r in $readers; do
	kill -0 $r 2>/dev/null && alive=$((alive + 1))
done
kill $readers 2>/dev/null
wait $readers 2>/dev/null
if [ "$MODE" = percpu ]; then
	cat /tmp/ss-tp0 /tmp/ss-tp1 >>/tmp/ss-tp
	cat /tmp/ss-sp0 /tmp/ss-sp1 >>/tmp/ss-sp
	rm -f /tmp/ss-tp0 /tmp/ss-tp1 /tmp/ss-sp0 /tmp/ss-sp1
fi
# a last snapshot, of a last line at least, so that its boundary line
# shows every discard; then whatever is still in the buffers counts as
# read (without a trace_pipe reader, the live buffer keeps what the last
# snapshot did not take)
echo end >$I/trace_marker
tracefs-pipe errno $I/snapshot_pipe 1 >>/tmp/ss-swaps
tracefs-pipe dump $I/snapshot_pipe >>/tmp/ss-sp
tracefs-pipe dump $I/trace_pipe >>/tmp/ss-tp
echo "readers still running at the end: $alive"
written=$(cat /tmp/ss-w0 /tmp/ss-w1 | awk '{s+=$1} END {print s+0}')
bursts=$(cat /tmp/ss-w0 /tmp/ss-w1 | wc -l)
# every write the kernel refused, with its errno ("refused TAG:I ERRNO")
cat /tmp/ss-r0 /tmp/ss-r1 >/tmp/ss-refused
refused=$(grep -c '^refused ' /tmp/ss-refused || true)
cat /tmp/ss-tp /tmp/ss-sp | grep -o 'w[01]b[0-9]*:[0-9]*' >/tmp/ss-read
read_total=$(wc -l </tmp/ss-read)
read_unique=$(sort -u /tmp/ss-read | wc -l)
lost=$(cat /tmp/ss-tp /tmp/ss-sp | sed -n 's/.*\[LOST \([0-9]*\) EVENTS\].*/\1/p' | awk '{s+=$1} END {print s+0}')
unknown=$(cat /tmp/ss-tp /tmp/ss-sp | grep -c '\[LOST EVENTS\]' || true)
discarded=$(sed -n 's/^##### SNAPSHOT [0-9]* \[\([0-9]*\) EVENTS DISCARDED\] #####$/\1/p' /tmp/ss-sp | sort -n | tail -1)
discarded=${discarded:-0}
swaps=$(grep -c OK /tmp/ss-swaps || true)
echo "attempted $((bursts * BURST)), written $written, refused $refused, read $read_unique (+$((read_total - read_unique)) twice), lost $lost (+$unknown uncounted), discarded $discarded, snapshots $swaps"
[ "$refused" -eq 0 ] || {
	echo "refused writes by errno: $(awk '{print $3}' /tmp/ss-refused | sort | uniq -c | tr '\n' ' ')"
	head -20 /tmp/ss-refused
}
echo "snapshot write results: $(sort /tmp/ss-swaps | uniq -c | tr '\n' ' ')"
# the throughput, for make bench's table of single- against multi-threaded
# TCG (scripts/make-bench.sh)
emit "FTX-STRESS-COUNT $S secs=$((wt1 - wt0)) written=$written read=$read_unique lost=$lost swaps=$swaps"
echo "read by trace_pipe $(grep -c 'w[01]b' /tmp/ss-tp), by snapshot_pipe $(grep -c 'w[01]b' /tmp/ss-sp)"
[ "$MODE" = percpu ] && echo "trigger left: $trig (snapshot:count=400 at the start)"

# Each write attempted was written or refused with an errno, exactly, and
# none is refused: a snapshot, whole or of one CPU, never turns recording
# off under a writer (a one-CPU swap that comes between a marker write's
# choice of CPU buffer and its reservation once failed it with EBADF).
check $S all-accounted "attempted $((bursts * BURST)) != written $written + refused $refused" -- \
	test $((written + refused)) -eq $((bursts * BURST))
check $S none-refused "$refused writes refused: $(head -3 /tmp/ss-refused | tr '\n' ' ')" -- \
	test "$refused" -eq 0
check $S snapshots-taken "no snapshot was taken" -- test "$swaps" -gt 0
check $S first-burst-read "the snapshot readers read nothing of a frozen snapshot in 60 s" -- \
	test "$first_read" = yes
check $S snapshot-pipe-read "snapshot_pipe read nothing" -- grep -q 'w[01]b' /tmp/ss-sp
check $S no-event-read-twice "$((read_total - read_unique)) events read twice" -- \
	test "$read_total" -eq "$read_unique"
check $S no-uncounted-loss "$unknown [LOST EVENTS] lines without a count" -- test "$unknown" -eq 0
check $S read-plus-lost-is-written "read $read_unique + lost $lost + discarded $discarded != written $written" -- \
	test $((read_unique + lost + discarded)) -eq "$written"
check $S snapshot-boundaries "snapshot_pipe printed no boundary line" -- \
	grep -q '^##### SNAPSHOT [0-9]* \[[0-9]* EVENTS DISCARDED\] #####$' /tmp/ss-sp
check $S only-documented-errors "snapshot writes failed: $(grep -v OK /tmp/ss-swaps | sort -u | tr '\n' ' ')" -- \
	sh -c "! grep -v -e OK -e EBUSY /tmp/ss-swaps"
if [ "$MODE" = percpu ]; then
	check $S one-cpu-swaps "no one-CPU snapshot was taken" -- \
		test "$(grep -c OK /tmp/ss-swaps)" -gt 1
	check $S trigger-swaps "the snapshot trigger never fired: $trig" -- \
		sh -c "! echo '$trig' | grep -q -e 'count=400' -e none"
fi

echo 0 >$I/snapshot_enabled
rmdir $I || result $S cleanup FAIL "rmdir $I"
}

MODE=both
run_phase
MODE=snapshot-only
run_phase
MODE=percpu
run_phase
