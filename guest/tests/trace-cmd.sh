#!/bin/sh
# Debian's trace-cmd, the real client, against the patched kernel.
# needs: kernel-instances snapshot-files
. /guest/lib.sh

S=trace-cmd
cd /tmp || exit 1

# record + report of a short event recording
rm -f /tmp/tc.dat
if trace-cmd record -q -e sched:sched_switch -e sched:sched_process_exec -o /tmp/tc.dat \
	sh -c 'for i in 1 2 3; do /bin/true; sleep 0.1; done' >/tmp/tc-record.log 2>&1; then
	result $S record PASS
else
	cat /tmp/tc-record.log
	result $S record FAIL "trace-cmd record failed"
fi
trace-cmd report -i /tmp/tc.dat >/tmp/tc-report.txt 2>/tmp/tc-report.err
if ! grep -q "sched_switch:" /tmp/tc-report.txt; then
	echo "--- record log, report head, state of the top-level buffer"
	cat /tmp/tc-record.log
	head -20 /tmp/tc-report.txt /tmp/tc-report.err
	echo "tracing_on=$(cat $TRACEFS/tracing_on) buffer_size_kb=$(cat $TRACEFS/buffer_size_kb)" \
		"snapshot_enabled=$(cat $TRACEFS/snapshot_enabled 2>/dev/null)"
fi
check $S report:sched_switch "no sched_switch in the report" -- grep -q "sched_switch:" /tmp/tc-report.txt
check $S report:exec "no sched_process_exec of /bin/true in the report" -- \
	grep -q "sched_process_exec:.*filename=/bin/true" /tmp/tc-report.txt

# show -B on an instance made by a kernel module
inst=sample-instance
if modprobe sample-trace-array; then
	wait_for 20 grep -q "trace_array_printk: count=" $TRACEFS/instances/$inst/trace
	check $S show-B:instance "trace-cmd show -B $inst lacks the module's lines" -- \
		sh -c "trace-cmd show -B $inst | grep -q 'trace_array_printk: count='"
	# extract -B consumes the instance's per-cpu buffers into a trace.dat
	rm -f /tmp/tc-inst.dat
	trace-cmd extract -B $inst -o /tmp/tc-inst.dat >/tmp/tc-extract.log 2>&1
	check $S extract-B:instance "trace-cmd extract -B $inst + report lacks the module's lines" -- \
		sh -c "trace-cmd report -i /tmp/tc-inst.dat 2>/dev/null | grep -q 'trace_array_printk: count='"
	rmmod sample-trace-array || result $S show-B:unload FAIL "rmmod failed"
else
	result $S show-B:instance FAIL "modprobe sample-trace-array failed"
fi

# show -s -B: the snapshot of an instance that a kernel module owns. (trace-cmd
# 3.1.6's "extract -s -B" reads the instance's live buffer, not its
# snapshot, so the captured window is read with "show -s".)
P=/sys/module/sample_trace_capture/parameters
if modprobe sample-trace-capture; then
	echo 1 > $P/drop
	wait_for 10 grep -qx 1 $P/captures
	trace-cmd show -s -B sample-capture >/tmp/tc-snap.txt 2>&1
	check $S show-s-B:capture-window "trace-cmd show -s -B sample-capture lacks the window" -- \
		sh -c "grep -q 'reconnect_step:.*step=handshake' /tmp/tc-snap.txt && grep -q 'reconnected' /tmp/tc-snap.txt"
	check $S show-s-B:only-the-window "trace-cmd show -s -B sample-capture has lines from outside the window" -- \
		sh -c "! grep -q heartbeat /tmp/tc-snap.txt"
	rmmod sample-trace-capture || result $S capture:unload FAIL "rmmod failed"
else
	result $S show-s-B:capture-window FAIL "modprobe sample-trace-capture failed"
fi
