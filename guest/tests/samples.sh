#!/bin/sh
# samples/ftrace/sample-trace-array.ko: its instance appears with its
# event and trace_array_printk lines, and is gone after rmmod.
. /guest/lib.sh

S=samples
inst=$TRACEFS/instances/sample-instance

if ! modprobe sample-trace-array; then
	result $S sample-trace-array:load FAIL "modprobe failed"
	exit 0
fi
result $S sample-trace-array:load PASS

check $S sample-trace-array:instance-created "no $inst" -- wait_for 10 test -d "$inst"
check $S sample-trace-array:event-enabled "sample_event not enabled" -- \
	wait_for 10 grep -qx 1 "$inst/events/sample-subsystem/sample_event/enable"
check $S sample-trace-array:printk-lines "no trace_array_printk lines in $inst/trace" -- \
	wait_for 20 grep -q "trace_array_printk: count=" "$inst/trace"
check $S sample-trace-array:event-lines "no sample_event lines in $inst/trace" -- \
	wait_for 20 grep -q "sample_event: count value=" "$inst/trace"
# The module writes only to its own instance, never to the top level.
check $S sample-trace-array:top-level-untouched "sample lines leaked into the top-level buffer" -- \
	sh -c "! grep -q 'sample_event\|trace_array_printk: count' $TRACEFS/trace"

if rmmod sample-trace-array; then
	result $S sample-trace-array:unload PASS
else
	result $S sample-trace-array:unload FAIL "rmmod failed"
fi
check $S sample-trace-array:instance-removed "$inst still exists after rmmod" -- test ! -d "$inst"

# The in-tree user of trace exports: the STM ftrace source, linked to a
# dummy STM device, registers a global export. Events of the top level
# must reach the device: a kprobe counts the calls of the STP protocol
# driver's basic_write() (the STM core and dummy_stm_packet() are
# notrace, so kprobe events cannot probe them). Unlinking (rmmod)
# unregisters the export.
STM=stm
if modprobe stm_p_basic && modprobe dummy_stm nr_dummies=1 && modprobe stm_ftrace; then
	result $S $STM:load PASS
	CFG=/sys/kernel/config
	grep -q " $CFG configfs" /proc/mounts || mount -t configfs none $CFG
	mkdir -p $CFG/stp-policy/dummy_stm.0.ftx/default
	if echo dummy_stm.0 >/sys/class/stm_source/ftrace/stm_source_link; then
		result $S $STM:link PASS
		echo 'p:ftx_stm stm_p_basic:basic_write' >>$TRACEFS/kprobe_events
		echo 1 >$TRACEFS/events/kprobes/ftx_stm/enable
		echo 1 >$TRACEFS/events/sched/sched_process_fork/enable
		for i in 1 2 3; do /bin/true; done
		echo 0 >$TRACEFS/events/sched/sched_process_fork/enable
		echo 0 >$TRACEFS/events/kprobes/ftx_stm/enable
		hits=$(awk '$1 == "ftx_stm" { print $2 }' $TRACEFS/kprobe_profile)
		echo "basic_write() calls: $hits"
		check $S $STM:events-reach-device "no entry reached the STM source ($hits)" -- \
			test "${hits:-0}" -gt 0
		echo '-:ftx_stm' >>$TRACEFS/kprobe_events
		echo >$TRACEFS/trace
	else
		result $S $STM:link FAIL "linking stm_ftrace to dummy_stm.0 failed"
	fi
	rmmod stm_ftrace
	rmdir $CFG/stp-policy/dummy_stm.0.ftx/default $CFG/stp-policy/dummy_stm.0.ftx
	if ! lsmod | grep -q '^stm_ftrace' && rmmod dummy_stm; then
		result $S $STM:unload PASS
	else
		result $S $STM:unload FAIL "rmmod failed"
	fi
else
	result $S $STM:load FAIL "modprobe stm_p_basic, dummy_stm or stm_ftrace failed"
fi
