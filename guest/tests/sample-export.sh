#!/bin/sh
# samples/ftrace/sample-trace-export.ko, mainline's short tutorial: its
# instance appears, its two exports count what the instance records, and
# each second it writes their counts into the instance; rmmod removes it.
# needs: exports boot-mapped
# (boot-mapped: the 7.2 series; the 6.1 backport's sample is the sink
# that its .tc files use, tested by them)
. /guest/lib.sh

S=sample-export
inst=$TRACEFS/instances/sample-export

if ! modprobe sample-trace-export; then
	result $S load FAIL "modprobe failed"
	exit 0
fi
result $S load PASS
check $S instance-created "no $inst" -- test -d "$inst"
check $S sched-switch-on "sched_switch is not enabled in $inst" -- \
	grep -qx 1 "$inst/events/sched/sched_switch/enable"
# Each line counts the events and lines exported up to then: the second
# line must count the first one, and events (a slow guest schedules
# often enough in 2 s).
check $S counts-lines "no two report lines in $inst/trace" -- \
	wait_for 20 sh -c "grep -q 'sample-trace-export: [0-9]* events, [1-9][0-9]* lines' '$inst/trace'"
line=$(grep -m1 'sample-trace-export: [0-9]* events, [1-9][0-9]* lines' "$inst/trace")
echo "report: $line"
check $S counts-events "the exports counted no sched_switch event: $line" -- \
	sh -c "echo '$line' | grep -q ': [1-9][0-9]* events'"
# The module's entries stay in its instance.
check $S top-level-untouched "report lines leaked into the top-level buffer" -- \
	sh -c "! grep -q 'sample-trace-export:' $TRACEFS/trace"
# The module's reference, and its exports', keep rmdir from removing it.
check $S rmdir-refused "rmdir removed the instance under the module" -- \
	sh -c "! rmdir '$inst' 2>/dev/null && test -d '$inst'"
if rmmod sample-trace-export; then
	result $S unload PASS
else
	result $S unload FAIL "rmmod failed"
fi
check $S instance-removed "$inst still exists after rmmod" -- test ! -d "$inst"
