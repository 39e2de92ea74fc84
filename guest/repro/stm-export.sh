#!/bin/sh
# The STM ftrace source (the in-tree trace export user) linked to a dummy
# STM device, as guest/tests/samples.sh links it, with what each layer
# saw: the policy node's channels, and kprobe hits on the STM source
# write, the STM core's write and the basic protocol's write, for events,
# trace_marker writes and function entries (each export kind the source
# asks for). Prints "FTX-STM <kind> source=N core=N protocol=N" lines.
. /guest/lib.sh

T=$TRACEFS
CFG=/sys/kernel/config
modprobe stm_p_basic && modprobe dummy_stm nr_dummies=1 && modprobe stm_ftrace ||
	{ echo "modprobe failed"; exit 1; }
grep -q " $CFG configfs" /proc/mounts || mount -t configfs none $CFG
mkdir -p $CFG/stp-policy/dummy_stm.0.ftx/default
echo "policy:"; for f in $CFG/stp-policy/dummy_stm.0.ftx/default/*; do echo " $f: $(cat $f)"; done
echo dummy_stm.0 >/sys/class/stm_source/ftrace/stm_source_link || { echo "link failed"; exit 1; }
echo "source: $(ls /sys/class/stm_source/ftrace/) link=$(cat /sys/class/stm_source/ftrace/stm_source_link)"
probe() { # name target
	echo "p:$1 $2" >>$T/kprobe_events 2>/dev/null && echo 1 >$T/events/kprobes/$1/enable ||
		echo "cannot probe $2"
}
probe ftx_src stm_source_write
probe ftx_core stm_write
probe ftx_basic stm_p_basic:basic_write
hits() { awk -v n=$1 '$1 == n { print $2 }' $T/kprobe_profile; }
report() { # kind
	echo "FTX-STM $1 source=$(hits ftx_src) core=$(hits ftx_core) protocol=$(hits ftx_basic)"
}
report before
echo 1 >$T/events/sched/sched_process_fork/enable
for i in 1 2 3; do /bin/true; done
echo 0 >$T/events/sched/sched_process_fork/enable
report events
echo hello >$T/trace_marker
report marker
echo schedule >$T/set_ftrace_filter
echo function >$T/current_tracer
sleep 1
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
report function
grep -c . $T/trace
for p in ftx_src ftx_core ftx_basic; do
	echo 0 >$T/events/kprobes/$p/enable 2>/dev/null
	echo "-:$p" >>$T/kprobe_events 2>/dev/null
done
rmmod stm_ftrace
# (for remotes/hotplug.tc: can cpu0 go offline here?)
echo "cpu0 online file: $(ls /sys/devices/system/cpu/cpu0/online 2>&1)"
exit 0
