#!/bin/sh
# How long turning a tracer on and off takes: every function's call site is
# patched each way. Three rounds of function and function_graph, each on and
# off, then ftracetest's direct/ftrace-direct.tc on its own. Under -icount
# the guest's clock counts instructions: run it on the base's and the
# series' kernels of one flavour and compare.
. /guest/lib.sh
T=$TRACEFS
# milliseconds since boot (busybox date has no %N)
ms() { awk '{printf "%d\n", $1 * 1000}' /proc/uptime; }
for tracer in function function_graph; do
	for r in 1 2 3; do
		t0=$(ms)
		echo $tracer >$T/current_tracer
		t1=$(ms)
		echo nop >$T/current_tracer
		t2=$(ms)
		echo "FTX-SWITCH $tracer round $r on_ms=$((t1 - t0)) off_ms=$((t2 - t1))"
	done
done
# ftracetest's direct category alone: its time is mostly tracer switches
if [ -d /opt/ftracetest ]; then
	cd /opt/ftracetest || exit 1
	t0=$(ms)
	./ftracetest -l /tmp/tsw test.d/direct/ftrace-direct.tc >/dev/null 2>&1
	rc=$?
	echo "FTX-SWITCH ftrace-direct.tc rc=$rc ms=$(($(ms) - t0))"
fi
