#!/bin/sh
# samples/ftrace/sample-trace-array.ko: its thread turns sample_event on and
# arms a timer that turns it off 5 s later. Load it again and again, and
# count the loads whose event was already off when the thread's first
# trace_array_printk line (1 s after it started) came: the timer fired
# early. (6.1's sample calls add_timer() on a timer whose expiry is 0, long
# past, before mod_timer() sets it: a tick in between fires it at once.)
# ftx.loads=N loads (100). Prints "FTX-SAMPLE-TIMER loads=N early=M"; fails when M > 0.
. /guest/lib.sh

N=100
for arg in $(cat /proc/cmdline); do
	case $arg in
	ftx.loads=*) N=${arg#ftx.loads=} ;;
	esac
done
inst=$TRACEFS/instances/sample-instance
early=0
loads=0
for i in $(seq "$N"); do
	modprobe sample-trace-array || { echo "modprobe failed"; exit 1; }
	loads=$((loads + 1))
	wait_for 10 grep -q "trace_array_printk: count=0$" "$inst/trace"
	read v <"$inst/events/sample-subsystem/sample_event/enable"
	if [ "$v" != 1 ] && ! grep -q "sample_event: count value=0 " "$inst/trace"; then
		early=$((early + 1))
		echo "load $i: sample_event was off before the thread's first line"
	fi
	rmmod sample-trace-array || { echo "rmmod failed"; exit 1; }
done
echo "FTX-SAMPLE-TIMER loads=$loads early=$early"
[ "$early" -eq 0 ]
