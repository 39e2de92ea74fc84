#!/bin/sh
# Every tracer of available_tracers switched on and off, one at a time,
# with the time each took and the ftrace-direct sample loaded and
# unloaded under it, as ftracetest's direct/ftrace-direct.tc does: which
# tracer holds a guest up (ftx.tracers=A,B,...: those, in that order;
# ftx.direct=0: without the sample; ftx.nofunc=1: the latency tracers
# without function tracing).
. /guest/lib.sh
T=$TRACEFS
only=
direct=1
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.tracers=*) only=$(echo "${arg#ftx.tracers=}" | tr , ' ') ;;
	ftx.direct=0) direct=0 ;;
	ftx.nofunc=1) echo 0 >$TRACEFS/options/function-trace ;;
	ftx.snapshot=1) echo 1 >$TRACEFS/snapshot ;;
	esac
done
ms() { awk '{printf "%d\n", $1 * 1000}' /proc/uptime; }
for t in ${only:-$(cat $T/available_tracers)}; do
	[ "$t" = nop ] && continue
	echo "FTX-TRACER $t start at $(ms) ms"
	t0=$(ms)
	echo $t >$T/current_tracer
	t1=$(ms)
	[ $direct = 0 ] || modprobe ftrace-direct
	t2=$(ms)
	[ $direct = 0 ] || rmmod ftrace-direct
	t3=$(ms)
	echo nop >$T/current_tracer
	t4=$(ms)
	echo "FTX-TRACER $t on=$((t1 - t0)) load=$((t2 - t1)) unload=$((t3 - t2)) off=$((t4 - t3)) ms"
done
