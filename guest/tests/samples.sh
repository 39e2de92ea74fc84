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
