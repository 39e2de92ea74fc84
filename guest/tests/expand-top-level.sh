#!/bin/sh
# The top level's buffer starts at its minimum and is expanded on first
# use. While a reader holds "trace" open, the resize cannot happen: every
# use that would expand it fails with EBUSY and leaves it unexpanded, not
# only the first (Documentation/trace/ftrace.rst, buffer_size_kb); once
# "trace" is closed, the next use expands it. This needs a top level that
# nothing used yet: the part runs first in a guest that runs no KUnit
# (tests/lanes.list), and fails if the top level was expanded before.
# needs: fixes
. /guest/lib.sh

S=expand-top-level
T=$TRACEFS

size=$(cat $T/buffer_size_kb)
case $size in
*"(expanded:"*) ;;
*)
	result $S unexpanded-at-start FAIL "buffer_size_kb reads '$size': the top level was used before this part, which must run first in a guest that runs no KUnit"
	exit 0
	;;
esac
result $S unexpanded-at-start PASS "$size"
full=$(echo "$size" | sed -n 's/.*(expanded: \([0-9]*\)).*/\1/p')

# The 6.1 series also expands it when trace_pipe_raw is opened (a mapped
# buffer cannot be resized later; its ftrace.rst lists it), mainline's
# trace_pipe_raw does not
raw_expands=
[ "$(cat /etc/ftrace-ext-series)" != 6.1 ] || raw_expands=yes

exec 3<$T/trace
# each of these would expand the top level: each fails the same way
for round in 1 2; do
	[ -z "$raw_expands" ] ||
		check $S trace_pipe_raw-EBUSY-$round "opening trace_pipe_raw while trace is open: not EBUSY" -- \
			test "$(tracefs-pipe nonblock $T/per_cpu/cpu0/trace_pipe_raw)" = OPEN-EBUSY
	check $S event-EBUSY-$round "enabling an event while trace is open: not EBUSY" -- \
		test "$(tracefs-pipe errno $T/events/sched/sched_switch/enable 1)" = EBUSY
	check $S tracer-EBUSY-$round "setting a tracer while trace is open: not EBUSY" -- \
		test "$(tracefs-pipe errno $T/current_tracer nop)" = EBUSY
	check $S snapshot-EBUSY-$round "taking a snapshot while trace is open: not EBUSY" -- \
		test "$(tracefs-pipe errno $T/snapshot 1)" = EBUSY
done
check $S still-unexpanded "buffer_size_kb changed while trace was open: $(cat $T/buffer_size_kb)" -- \
	test "$(cat $T/buffer_size_kb)" = "$size"
check $S event-still-off "the event was enabled although the write failed" -- \
	test "$(cat $T/events/sched/sched_switch/enable)" = 0
exec 3<&-

# closed: the next use expands it, and works
check $S event-after-close "enabling the event failed once trace was closed" -- \
	test "$(tracefs-pipe errno $T/events/sched/sched_switch/enable 1)" = OK
# the size a new instance gets (the full size, in whole pages)
mkdir $T/instances/expand-top-level
inst=$(cat $T/instances/expand-top-level/buffer_size_kb)
rmdir $T/instances/expand-top-level
check $S expanded-after-close "buffer_size_kb reads '$(cat $T/buffer_size_kb)', an instance's '$inst' (expanded: $full)" -- \
	test "$(cat $T/buffer_size_kb)" = "$inst"
echo 0 >$T/events/sched/sched_switch/enable
