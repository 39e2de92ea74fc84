#!/bin/sh
# snapshot_pipe from a C program: O_NONBLOCK, poll() and splice(), and the
# errno of each refused write (ftracetest's snapshot_pipe.tc covers what a
# shell can do).
# needs: snapshot-files
. /guest/lib.sh

S=snapshot-pipe
I=$TRACEFS/instances/snappipe
P=$I/snapshot_pipe
mkdir $I || { result $S setup FAIL "mkdir $I"; exit 0; }

check $S write-unallocated-ENOMEM "not ENOMEM without a spare buffer" -- \
	test "$(tracefs-pipe errno $P 1)" = ENOMEM
echo 1 > $I/snapshot_enabled
check $S write-0-EINVAL "0 not refused with EINVAL" -- test "$(tracefs-pipe errno $P 0)" = EINVAL
check $S write-junk-EINVAL "junk not refused with EINVAL" -- test "$(tracefs-pipe errno $P xyz)" = EINVAL
check $S enabled-2-EINVAL "snapshot_enabled=2 not refused" -- \
	test "$(tracefs-pipe errno $I/snapshot_enabled 2)" = EINVAL

check $S nonblock-empty-EAGAIN "O_NONBLOCK read of an empty snapshot did not give EAGAIN" -- \
	test "$(tracefs-pipe nonblock $P)" = EAGAIN
check $S poll-empty-timeout "poll() reported an empty snapshot readable" -- \
	test "$(tracefs-pipe poll $P 300)" = TIMEOUT

# poll() sleeps through live events and wakes on the snapshot
tracefs-pipe poll $P 20000 >/tmp/poll.out &
pid=$!
sleep 0.3
echo "live event" >$I/trace_marker
sleep 0.5
check $S poll-ignores-live "poll() woke on a live event" -- test ! -s /tmp/poll.out
echo 1 >$P
wait $pid
check $S poll-wakes-on-snapshot "poll() did not report the snapshot readable" -- \
	grep -qx READY /tmp/poll.out

out=$(tracefs-pipe nonblock $P)
check $S nonblock-data "O_NONBLOCK read with data: $out" -- sh -c "echo '$out' | grep -q '^DATA [1-9]'"

# splice
for i in 1 2 3 4 5; do echo "splice $i" >$I/trace_marker; done
echo 1 >$P
out=$(tracefs-pipe splice $P)
check $S splice "splice moved nothing: $out" -- sh -c "echo '$out' | grep -q '^SPLICED [1-9]'"
check $S splice-consumed "splice did not consume the snapshot" -- \
	test "$(tracefs-pipe nonblock $P)" = EAGAIN

# splice's content: each line once, in order, also when a snapshot
# (echo 1 > snapshot: it discards nothing) swaps under the splice; what
# the swap moved back to the live buffer is read there
taskset -c 0 tracefs-pipe markers $I/trace_marker sp 300 >/dev/null
echo 1 >$P
tracefs-pipe splicedump $P >/tmp/splice1.out &
pid=$!
taskset -c 0 tracefs-pipe markers $I/trace_marker sq 300 >/dev/null
echo 1 >$I/snapshot
wait $pid
tracefs-pipe splicedump $P >/tmp/splice2.out
tracefs-pipe dump $I/trace_pipe >/tmp/splice-live.out
cat /tmp/splice1.out /tmp/splice2.out /tmp/splice-live.out | grep -o 's[pq]:[0-9]*' >/tmp/splice.ids
distinct=$(sort -u /tmp/splice.ids | wc -l)
total=$(wc -l </tmp/splice.ids)
check $S splice-all-once "of 600 lines, $distinct distinct and $total in all came out" -- \
	test "$distinct" -eq 600 -a "$total" -eq 600
# within each output, each tag's numbers increase
in_order() { # file...
	for f in "$@"; do
		for t in sp sq; do
			grep -o "$t:[0-9]*" "$f" | cut -d: -f2 >/tmp/order.$t
			sort -n /tmp/order.$t | cmp -s - /tmp/order.$t || return 1
		done
	done
}
check $S splice-in-order "a splice output is out of order" -- \
	in_order /tmp/splice1.out /tmp/splice2.out

# A one-CPU swap (per_cpu/cpu0/snapshot) wakes the per-CPU snapshot_pipe
# poller: nothing writes to the spare buffer, so any data makes it readable
C0=$I/per_cpu/cpu0
tracefs-pipe poll $C0/snapshot_pipe 20000 >/tmp/poll-cpu.out &
pid=$!
sleep 0.3
taskset -c 0 sh -c "echo 'cpu0 event' >$I/trace_marker"
echo 1 >$C0/snapshot
wait $pid
check $S percpu-poll-wakes-on-cpu-swap "per-CPU poll() missed a one-CPU swap: $(cat /tmp/poll-cpu.out)" -- \
	grep -qx READY /tmp/poll-cpu.out

# A blocked per-CPU trace_pipe reader is woken when a one-CPU swap brings
# data back into the live buffer (the swap moves its CPU buffer away): the
# spare holds "cpu0 event" now, the live buffer of CPU 0 nothing
timeout 10 head -n 1 $C0/trace_pipe >/tmp/tp-cpu.out &
pid=$!
sleep 0.5
echo 1 >$C0/snapshot
wait $pid
check $S percpu-trace-pipe-wakes-on-cpu-swap "per-CPU trace_pipe reader not woken by a one-CPU swap" -- \
	grep -q "cpu0 event" /tmp/tp-cpu.out

# A memory-mapped buffer is never swapped: while a CPU buffer of the
# instance is mapped, snapshot_pipe does not swap (EBUSY) and changes
# nothing; the spare buffer may be reserved meanwhile, for the snapshots
# taken after the unmap
echo 0 >$I/snapshot_enabled
maphold() { # run the command "$@" while cpu0's trace_pipe_raw is mapped
	tracefs-pipe maphold $I/per_cpu/cpu0/trace_pipe_raw 60000 >/tmp/map.out &
	mpid=$!
	for i in $(seq 100); do [ -s /tmp/map.out ] && break; sleep 0.1; done
	"$@"
	kill $mpid; wait $mpid 2>/dev/null
}
mapped_checks() {
	check $S mapped-mmap-ok "the mapping failed: $(cat /tmp/map.out)" -- grep -qx MAPPED /tmp/map.out
	check $S mapped-enable-ok "snapshot_enabled=1 refused under a mapping" -- \
		test "$(tracefs-pipe errno $I/snapshot_enabled 1)" = OK
	check $S mapped-enable-allocated "snapshot_enabled=1 did not allocate under a mapping" -- \
		test "$(cat $I/snapshot_enabled)" = 1
	check $S mapped-swap-EBUSY "snapshot_pipe=1 not refused with EBUSY under a mapping" -- \
		test "$(tracefs-pipe errno $P 1)" = EBUSY
}
echo "mapped mark" >$I/trace_marker
maphold mapped_checks
check $S mapped-swap-unchanged "a refused snapshot swapped the live buffer" -- \
	grep -q "mapped mark" $I/trace
check $S mapped-swap-after-unmap "snapshot_pipe=1 refused after the unmap" -- \
	test "$(tracefs-pipe errno $P 1)" = OK
check $S mapped-swap-after-unmap-swapped "the snapshot after the unmap did not swap" -- \
	grep -q "mapped mark" $I/snapshot

echo 0 >$I/snapshot_enabled
rmdir $I || result $S cleanup FAIL "rmdir $I"
