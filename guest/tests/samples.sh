#!/bin/sh
# samples/ftrace/sample-trace-array.ko: its instance appears with its
# event and trace_array_printk lines, and is gone after rmmod.
# needs: fixes
. /guest/lib.sh

S=samples
inst=$TRACEFS/instances/sample-instance

t0=$(cut -d' ' -f1 /proc/uptime)
if ! modprobe sample-trace-array; then
	result $S sample-trace-array:load FAIL "modprobe failed"
	exit 0
fi
result $S sample-trace-array:load PASS

# The module's thread turns sample_event on, and a timer turns it off 5 s
# (of jiffies) later: look at once and often, with the shell's own read,
# since a slow guest may take seconds for each command it starts. Stop
# looking 10 s after the load: a debug guest that missed the window spent
# minutes in 100000 reads.
on=0
n=0
stop=$((${t0%.*} + 10))
while [ $n -lt 100000 ]; do
	if read v <"$inst/events/sample-subsystem/sample_event/enable" 2>/dev/null &&
	   [ "$v" = 1 ]; then
		on=1
		break
	fi
	n=$((n + 1))
	if [ $((n % 50)) -eq 0 ]; then
		read up _ </proc/uptime
		[ "${up%.*}" -lt $stop ] || break
	fi
done
check $S sample-trace-array:instance-created "no $inst" -- wait_for 10 test -d "$inst"
check $S sample-trace-array:printk-lines "no trace_array_printk lines in $inst/trace" -- \
	wait_for 20 grep -q "trace_array_printk: count=" "$inst/trace"
wait_for 20 grep -q "sample_event: count value=" "$inst/trace"
# The thread writes its first line 1 s after it started, the timer turns
# the event off 5 s after: the event can have gone unseen, and unwritten,
# only if the thread (and this shell) were held up that long, which the
# time of its first line shows (trace clock and uptime both count from
# boot; half a second for the timer's work item).
first=$(grep -m1 "trace_array_printk: count=0$" "$inst/trace" | sed -n 's/.* \([0-9]*\.[0-9]*\): .*/\1/p')
late=$(awk -v a="${first:-0}" -v b="$t0" 'BEGIN { print (a - b >= 4.5) ? 1 : 0 }')
check $S sample-trace-array:event-enabled "sample_event never seen enabled in $n reads, first line at ${first:-none} s, loaded at $t0 s" -- \
	test $on = 1 -o $late = 1
check $S sample-trace-array:event-lines "no sample_event lines in $inst/trace, first line at ${first:-none} s, loaded at $t0 s" -- \
	sh -c "grep -q 'sample_event: count value=' '$inst/trace' || [ $late = 1 ]"
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
# Exports see what the top level records: its tracing must be on (an
# earlier part may have left it off, as 7.2's map_test does).
echo 1 >$TRACEFS/tracing_on
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
