#!/bin/sh
# Debian's trace-cmd, the real client, against the patched kernel.
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
