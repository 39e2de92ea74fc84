#!/bin/sh
# snapshot_pipe from a C program: O_NONBLOCK, poll() and splice(), and the
# errno of each refused write (ftracetest's snapshot_pipe.tc covers what a
# shell can do).
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

echo 0 >$I/snapshot_enabled
rmdir $I || result $S cleanup FAIL "rmdir $I"
