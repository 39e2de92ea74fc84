#!/bin/sh
# tools/tracing/mmap-record on persistent (boot-mapped) instances, which
# 7.2 maps like any other: "bootmapped" is recorded, markers on every CPU
# each once in the file trace-cmd report reads, and the instance is left
# in place, events off. An instance with events the kernel counts as
# the previous boot's ("lastboot", booted with ^traceoff) is refused
# before anything changes, since the first enabled event would discard
# them; once emptied, it is recorded. The guest boots with both
# (tests/lanes.list's bootmap).
# needs: mmap-record boot-mapped
. /guest/lib.sh

S=mmap-record-bootmapped
B=$TRACEFS/instances/bootmapped
L=$TRACEFS/instances/lastboot
check $S instance-is-boot-mapped "no boot-mapped instance $B (per_cpu/cpu0/buffer_meta)" -- \
	test -e $B/per_cpu/cpu0/buffer_meta
. /guest/mmap-lib.sh

# --- bootmapped: recorded through its mapping
record_markers boot $B mmboot -i bootmapped -e sched:sched_switch -d 120
check $S record-exit "exit $rc: $(tail -1 /tmp/boot.err)" -- test $rc -eq 0
check $S instance-kept "the recorder removed $B" -- test -d $B
check $S event-off "sched_switch left on: $(cat $B/events/sched/sched_switch/enable)" -- \
	test "$(cat $B/events/sched/sched_switch/enable)" = 0
trace-cmd report -i /tmp/boot.dat >/tmp/boot.txt 2>/tmp/boot.rerr
rc=$?
check $S report-reads "trace-cmd report: exit $rc, $(head -c 300 /tmp/boot.rerr | tr "\n" " ")" -- test $rc -eq 0
lost=$(lost_of /tmp/boot.err)
check $S every-marker-once "$(check_seqs /tmp/boot.txt mmboot "${lost:-0}")" -- \
	check_seqs /tmp/boot.txt mmboot "${lost:-0}"
check $S report-has-events "no sched_switch in the report" -- grep -q "sched_switch:" /tmp/boot.txt
check $S subbuf-counts "$(check_subbuf_counts /tmp/boot.err | tr "\n" " ")" -- check_subbuf_counts /tmp/boot.err

# --- lastboot: until its buffer is emptied or an event enabled there,
# the kernel counts what it holds as the previous boot's (last_boot_info
# names a kernel address), and the first enabled event discards it. A
# fresh guest's reserve_mem holds no previous boot, so markers written
# into it with tracing_on stand for that boot's events.
entries() {
	awk -F': ' '$1 == "entries" { n += $2 } END { print n + 0 }' $L/per_cpu/*/stats
}
if [ -e /tmp/lastboot-used ]; then
	# REPEAT: emptied by an earlier round, it is the previous boot's no more
	result $S lastboot SKIP "an earlier round of this boot emptied lastboot"
elif [ -e $L/last_boot_info ]; then
	touch /tmp/lastboot-used
	echo 1 >$L/tracing_on
	echo mmprevious >$L/trace_marker
	info=$(head -1 $L/last_boot_info)
	check $S lastboot-holds-previous "last_boot_info says '$info', $(entries) entries" -- \
		sh -c "[ '$info' != '# Current' ] && [ $(entries) -gt 0 ]"
	mmap-record -i lastboot -e sched:sched_switch -d 2 -o /tmp/last.dat 2>/tmp/last.err
	rc=$?
	cat /tmp/last.err
	check $S lastboot-refused "exit $rc: $(tr "\n" " " </tmp/last.err)" -- \
		sh -c "[ $rc -eq 1 ] && grep -q \"previous boot's events\" /tmp/last.err"
	check $S lastboot-untouched "last_boot_info now '$(head -1 $L/last_boot_info)', tracing_on $(cat $L/tracing_on)" -- \
		sh -c "[ \"\$(head -1 $L/last_boot_info)\" = '$info' ] && [ \$(cat $L/tracing_on) = 1 ]"
	check $S lastboot-events-kept "the marker is gone from $L/trace" -- grep -q mmprevious $L/trace
	check $S lastboot-event-off "sched_switch on: $(cat $L/events/sched/sched_switch/enable)" -- \
		test "$(cat $L/events/sched/sched_switch/enable)" = 0
	check $S lastboot-kept "the recorder removed $L" -- test -d $L
	# what the message says to do, then it records
	echo >$L/trace
	record_markers last $L mmlast -i lastboot -d 120
	check $S lastboot-emptied-records "exit $rc: $(tail -1 /tmp/last.err)" -- test $rc -eq 0
	trace-cmd report -i /tmp/last.dat >/tmp/last.txt 2>&1
	lost=$(lost_of /tmp/last.err)
	check $S lastboot-every-marker-once "$(check_seqs /tmp/last.txt mmlast "${lost:-0}")" -- \
		check_seqs /tmp/last.txt mmlast "${lost:-0}"
else
	result $S lastboot FAIL "no persistent instance lastboot ($L/last_boot_info)"
fi
