#!/bin/sh
# buffer_percent=100 on CPU 0 of the top level and of an instance: a
# reader of trace_pipe_raw blocks until the CPU buffer is full; fill it
# with trace_marker writes on CPU 0 and say when the reader woke, with
# CPU 0's stats before and after (ftx.percent=N: another percentage).
. /guest/lib.sh
T=$TRACEFS
pct=100
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.percent=*) pct=${arg#ftx.percent=} ;;
	esac
done
mkdir -p $T/instances/bp
for d in $T $T/instances/bp; do
	echo "== $d: buffer_size_kb $(cat $d/buffer_size_kb) subbuf $(cat $d/buffer_subbuf_size_kb 2>/dev/null)"
	echo > $d/trace
	echo $pct > $d/buffer_percent
	rm -f /tmp/bp.out
	taskset -c 1 sh -c "cat $d/per_cpu/cpu0/trace_pipe_raw > /tmp/bp.out" &
	pid=$!
	sleep 1
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 40000 ]; do
		taskset -c 0 tracefs-pipe markers $d/trace_marker bp 500 >/dev/null
		n=$((n + 500))
	done
	if kill -0 $pid 2>/dev/null; then
		echo "FTX-BP $d pct=$pct NOT woken after $n markers"
		kill $pid
	else
		echo "FTX-BP $d pct=$pct woken after $n markers"
	fi
	wait $pid 2>/dev/null
	grep -E "entries|overrun|commit|bytes|read" $d/per_cpu/cpu0/stats | tr '\n' ' '
	echo
	echo 50 > $d/buffer_percent
done
rmdir $T/instances/bp
