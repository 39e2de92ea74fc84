#!/bin/sh
# Stress: mapped readers (tools/tracing/mmap-record) drain two instances
# while producers write numbered markers on both CPUs, and resizes (of the
# buffer and of its sub-buffers), snapshots, removals of the instances,
# resets and CPU offline/online are
# attempted in loops, for a bounded time. What a mapping refuses must be
# refused (EBUSY), the readers must finish cleanly, and every marker of
# the instance that is not reset must be read exactly once or counted lost.
. /guest/lib.sh

S=stress-mmap
DUR=${STRESS_SECONDS:-8}
N=5000
A=$TRACEFS/instances/mmapstress
B=$TRACEFS/instances/mmapstress-reset
CPU1=/sys/devices/system/cpu/cpu1/online
if ! command -v mmap-record >/dev/null; then
	result $S setup FAIL "mmap-record is not in the initramfs"
	exit 0
fi

mmap-record -i mmapstress -o /tmp/msa.dat 2>/tmp/msa.err &
reca=$!
mmap-record -i mmapstress-reset -o /tmp/msb.dat 2>/tmp/msb.err &
recb=$!
# the debug kernel, under the other scenarios, may take long to start both
if ! wait_for 60 sh -c "grep -q recording /tmp/msa.err && grep -q recording /tmp/msb.err"; then
	result $S setup FAIL "the recorders did not start: $(cat /tmp/msa.err /tmp/msb.err)"
	kill -INT $reca $recb
	exit 0
fi

prods=
for c in 0 1; do
	taskset -c $c tracefs-pipe markers $A/trace_marker ms-c$c $N >/tmp/ms-w$c &
	prods="$prods $!"
	(end=$(($(secs) + DUR))
	 while [ "$(secs)" -lt $end ]; do
		taskset -c $c tracefs-pipe markers $B/trace_marker reset-c$c 200 >/dev/null
	 done) &
	prods="$prods $!"
done

end=$(($(secs) + DUR))
busy=0 unexpected= cycles=0 resets=0 i=0
while [ "$(secs)" -lt $end ]; do
	for f in buffer_size_kb:32 per_cpu/cpu0/buffer_size_kb:16 snapshot:1 \
		per_cpu/cpu1/snapshot:1 events/sched/sched_switch/trigger:snapshot \
		buffer_subbuf_size_kb:8; do
		r=$(tracefs-pipe errno $A/${f%%:*} ${f#*:})
		case $r in
		EBUSY) busy=$((busy + 1)) ;;
		*) unexpected="$unexpected ${f%%:*}=$r" ;;
		esac
	done
	# a spare buffer may exist beside a mapping: it is never swapped in
	for v in 1 0; do
		r=$(tracefs-pipe errno $A/snapshot_enabled $v)
		[ "$r" = OK ] || unexpected="$unexpected snapshot_enabled=$v:$r"
	done
	if rmdir $A 2>/dev/null; then
		unexpected="$unexpected rmdir-succeeded"
	fi
	echo >$B/trace && echo 1 >$B/reset && resets=$((resets + 1))
	i=$((i + 1))
	if [ -w $CPU1 ] && [ $((i % 4)) -eq 0 ]; then
		echo 0 >$CPU1 2>/dev/null && echo 1 >$CPU1 && cycles=$((cycles + 1))
	fi
done
[ -w $CPU1 ] && echo 1 >$CPU1 2>/dev/null
for p in $prods; do
	wait $p
done
kill -INT $reca $recb
wait $reca
rca=$?
wait $recb
rcb=$?

check $S refusals "refused $busy times; unexpected:$unexpected" -- \
	sh -c "[ $busy -gt 0 ] && [ -z '$unexpected' ]"
check $S resets "no reset went through" -- test $resets -gt 0
echo "stress-mmap: $busy refusals, $resets resets, $cycles offline/online cycles of cpu1"
check $S recorders-exit "mmap-record exited $rca and $rcb: $(tail -2 /tmp/msa.err /tmp/msb.err)" -- \
	sh -c "[ $rca -eq 0 ] && [ $rcb -eq 0 ]"
check $S instances-removed "an instance the recorders made is left" -- \
	sh -c "[ ! -d $A ] && [ ! -d $B ]"

trace-cmd report -i /tmp/msa.dat >/tmp/msa.txt 2>&1
lost=$(sed -n 's/^mmap-record: .* events, \([0-9]*\) lost.*/\1/p' /tmp/msa.err)
bad=
for c in 0 1; do
	written=$(cat /tmp/ms-w$c)
	grep -o "ms-c$c:[0-9]*" /tmp/msa.txt | sed 's/.*://' | sort -n >/tmp/ms-seen$c
	seen=$(wc -l </tmp/ms-seen$c)
	dup=$(uniq -d </tmp/ms-seen$c | wc -l)
	if [ "$dup" -ne 0 ] || [ $((seen + ${lost:-0})) -lt "$written" ]; then
		bad="$bad cpu$c: $seen of $written read, $dup twice, ${lost:-0} lost;"
	fi
done
check $S every-marker-read-or-lost "$bad" -- test -z "$bad"
check $S reset-instance-report "trace-cmd report cannot read the reset instance's file" -- \
	sh -c "trace-cmd report -i /tmp/msb.dat >/dev/null 2>&1"
