#!/bin/sh
# The ring buffer's readers and writers on two vCPUs at once, with only
# what the base kernel has too: a trace_pipe reader of CPU 0 running on
# CPU 1 while a writer on CPU 0 fills an 8 KiB buffer with 1000-byte
# markers (the pattern of stress/alone/reader-wait.sh, where KCSAN
# reported races in ring_buffer.c), a snapshot trigger on the tick
# swapping the buffers in hardirq context, and a top-level trace_pipe
# reader with writers pinned to each CPU; 60 s. Booted on the series' and
# the base's KCSAN kernels by scripts/kcsan-compare.sh, it shows which
# data-race reports the base has on its own (issue 29).
. /guest/lib.sh
T=$TRACEFS
I=$T/instances/rbrace
DUR=${1:-60}
mkdir $I || exit 1
echo 8 >$I/buffer_size_kb
echo 'snapshot:1000000' >$I/events/timer/hrtimer_expire_entry/trigger
taskset -c 1 cat $I/per_cpu/cpu0/trace_pipe >/dev/null &
pids=$!
tracefs-pipe follow $T/trace_pipe >/dev/null &
pids="$pids $!"
end=$(($(secs) + DUR))
(while [ "$(secs)" -lt $end ]; do
	taskset -c 0 dd if=/dev/zero of=$I/trace_marker bs=1000 count=2000 2>/dev/null
done) &
w0=$!
(while [ "$(secs)" -lt $end ]; do
	taskset -c 1 tracefs-pipe markers $T/trace_marker top1 500 >/dev/null
	taskset -c 0 tracefs-pipe markers $T/trace_marker top0 500 >/dev/null
done) &
w1=$!
wait $w0 $w1
echo '!snapshot' >$I/events/timer/hrtimer_expire_entry/trigger
kill $pids 2>/dev/null
wait
rmdir $I
