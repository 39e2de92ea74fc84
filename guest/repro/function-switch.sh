#!/bin/sh
# The stall of multi-threaded TCG (issue 29), the short way: what
# ftrace-direct.tc's tracers do to the kernel's text, alone. The function
# tracer switched on and off 10 times (every function's call site patched
# with text_poke_bp() each time) while the other vCPU runs system calls.
. /guest/lib.sh
(while :; do cat /proc/self/stat /proc/uptime >/dev/null; done) &
load=$!
taskset -p 2 $load >/dev/null 2>&1
for i in $(seq 10); do
	echo function >$TRACEFS/current_tracer || { kill $load; exit 1; }
	echo nop >$TRACEFS/current_tracer || { kill $load; exit 1; }
done
kill $load
